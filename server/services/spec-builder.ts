// The specification builder's service: selects the namespace's mocks by the
// request's filters (a folder with its subfolders, tags a mock must all
// carry, ids), hands them to the pure builder of the format
// (server/generators/spec-openapi.ts, spec-asyncapi.ts) and records the
// export in the audit log. Reads only: the caller needs `read`.
import type { Actor } from "@/server/auth/actor";
import type { SpecRequest, SpecResponse } from "@/server/contracts/spec-builder";
import { db, Prisma } from "@/server/db/client";
import { errors } from "@/server/errors";
import type { SpecMock, SpecWarning } from "@/server/generators/spec-common";
import { mocksToAsyncapi } from "@/server/generators/spec-asyncapi";
import { mocksToOpenapi } from "@/server/generators/spec-openapi";
import { recordAudit } from "./audit";
import { storedBody } from "./mock-rows";
import { summaryOf } from "./mocks";
import type { NamespaceScope } from "./namespace-access";

/** The folder and every folder under it; a folder of another namespace (or none) is a 404. */
async function folderTree(scope: NamespaceScope, folderId: string): Promise<string[]> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    WITH RECURSIVE tree AS (
      SELECT id FROM "MockFolder" WHERE id = ${folderId}::uuid AND "namespaceId" = ${scope.id}::uuid
      UNION ALL SELECT f.id FROM "MockFolder" f JOIN tree t ON f."parentId" = t.id
    ) SELECT id::text AS id FROM tree`;
  if (!rows.length) throw errors.notFound("Folder");
  return rows.map((r) => r.id);
}

export async function buildSpecification(actor: Actor, scope: NamespaceScope, input: SpecRequest): Promise<SpecResponse> {
  const where: Prisma.MockWhereInput = { namespaceId: scope.id, deletedAt: null };
  if (input.folderId) where.folderId = { in: await folderTree(scope, input.folderId) };
  if (input.tags?.length) where.tags = { hasEvery: input.tags };
  if (input.mockIds) where.id = { in: input.mockIds };
  const rows = await db().mock.findMany({ where, select: { id: true, folderId: true, definition: true, route: true, method: true }, orderBy: { id: "asc" } });
  const unreadable: SpecWarning[] = [];
  const mocks: SpecMock[] = [];
  for (const row of rows) {
    try {
      const def = storedBody(row);
      mocks.push({ id: row.id, def, route: summaryOf(def) });
    } catch (err) {
      unreadable.push({ mockId: row.id, route: `${row.method ?? "ANY"} ${row.route ?? "(no route)"}`, reason: (err as Error).message });
    }
  }
  const options = { namespace: scope.name, title: input.title, version: input.version, serverUrl: input.serverUrl };
  const built = input.format === "openapi" ? mocksToOpenapi(mocks, options) : mocksToAsyncapi(mocks, options);
  const stats = { considered: rows.length, exported: built.exported };
  const warnings = [...unreadable, ...built.warnings];
  await recordAudit({
    actor,
    action: "generator.spec_export",
    namespace: scope.name,
    targetType: "specification",
    details: { format: input.format, ...stats, warnings: warnings.length, filters: { folderId: input.folderId ?? null, tags: input.tags ?? [], mockIds: input.mockIds?.length ?? null } },
  });
  return { spec: built.spec, warnings, stats };
}
