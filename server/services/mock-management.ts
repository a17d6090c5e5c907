// The mock lifecycle after saving: list, patch, recycle bin (delete, purge),
// version history and restore, chains, copy to another namespace. Bulk
// operations live in mock-batch.ts, set-based row writes in mock-rows.ts.
// Every change is one transaction and is followed by notifyMocksChanged.
import { randomUUID } from "node:crypto";
import type { Actor } from "@/server/auth/actor";
import { MockInput } from "@/server/contracts/mock";
import { READ_ONLY_MOCK_FIELDS, type ListMocksFilters, type MockPatch, type StoredMock } from "@/server/contracts/mock-api";
import { db, Prisma } from "@/server/db/client";
import { notifyMocksChanged } from "@/server/db/notify";
import { AppError, errors } from "@/server/errors";
import { validationError } from "@/server/validation-error";
import { recordAudit } from "./audit";
import { assertKnownGrpcMethods } from "./grpc-mock-check";
import { BATCH_TX, conflictOnRace, insertMocks, lockFolders, lockMocks, requireFolders, rewriteMocks, setDeleted, storedBody } from "./mock-rows";
import { assertServable, canonical, definitionOf, findMock, getMock, storedView } from "./mocks";
import { type NamespaceScope, requireNamespacePermission, resolveNamespace } from "./namespace-access";
import { namespaceStores, STORES_CHANNEL } from "./stores";

// ---- List ----

/** LIKE treats % and _ as wildcards; a search for "a_b" means that text. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, "\\$&")}%`;
}

/**
 * One page of mocks, newest updated first. Filtering is SQL because a
 * case-insensitive substring match inside the tags array has no Prisma form;
 * the page's rows are then read through Prisma like everywhere else.
 */
export async function listMocks(scope: NamespaceScope, q: ListMocksFilters) {
  if (q.deleted && q.onlyActive) {
    throw errors.validation("deleted=true lists the recycle bin; it cannot be combined with onlyActive=true", [{ location: "query", field: "deleted", message: "contradicts onlyActive=true" }]);
  }
  const conds: Prisma.Sql[] = [Prisma.sql`"namespaceId" = ${scope.id}::uuid`];
  if (q.deleted) conds.push(Prisma.sql`"deletedAt" IS NOT NULL`);
  else if (q.onlyActive !== false) conds.push(Prisma.sql`"deletedAt" IS NULL`);
  const tags = (q.tags ?? "").split(",").map((t) => t.trim()).filter(Boolean);
  if (tags.length) conds.push(Prisma.sql`tags @> ${tags}::text[]`);
  if (q.folderId) conds.push(q.folderId === "root" ? Prisma.sql`"folderId" IS NULL` : Prisma.sql`"folderId" = ${q.folderId}::uuid`);
  if (q.protocol) conds.push(Prisma.sql`protocol = ${q.protocol}`);
  const term = q.search?.trim();
  if (term) {
    const p = likePattern(term);
    conds.push(Prisma.sql`(id ILIKE ${p} OR route ILIKE ${p} OR EXISTS (SELECT 1 FROM unnest(tags) AS t WHERE t ILIKE ${p}))`);
  }
  const where = Prisma.join(conds, " AND ");
  const [page, counted] = await Promise.all([
    db().$queryRaw<{ pk: string }[]>`SELECT pk::text AS pk FROM "Mock" WHERE ${where} ORDER BY "updatedAt" DESC, id ASC LIMIT ${q.limit} OFFSET ${q.offset}`,
    db().$queryRaw<{ total: bigint }[]>`SELECT count(*) AS total FROM "Mock" WHERE ${where}`,
  ]);
  const rows = new Map((await db().mock.findMany({ where: { pk: { in: page.map((r) => r.pk) } } })).map((r) => [r.pk, r]));
  // A row purged between the two reads is simply left out.
  const mocks = page.flatMap(({ pk }) => {
    const row = rows.get(pk);
    return row ? [storedView(row, scope.name)] : [];
  });
  return { mocks, total: Number(counted[0]?.total ?? 0), limit: q.limit, offset: q.offset };
}

// ---- Patch ----

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Values that are user data, not mock structure: replaced whole, never merged key by key. */
function isData(path: string[]): boolean {
  const [top, second] = path;
  return (top === "response" && second === "payload") || (top === "mStore" && path.length === 2) || (top === "extract" && path.length === 3);
}

/**
 * JSON merge patch (RFC 7386): objects merge key by key, null removes a field,
 * anything else (arrays included) replaces — except inside data values such as
 * response.payload, which a patch replaces as given.
 */
export function mergePatch(base: unknown, patch: Record<string, unknown>, path: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = isObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(patch)) {
    const at = [...path, key];
    if (value === undefined) continue;
    if (value === null) delete out[key];
    else if (isObject(value) && !isData(at)) out[key] = mergePatch(out[key], value, at);
    else out[key] = value;
  }
  return out;
}

/**
 * Merges `patch` into an active mock and stores the result as a new version
 * ("patched"). The merged mock is validated like a new one; a patch that
 * changes nothing writes nothing.
 */
export async function patchMock(actor: Actor, scope: NamespaceScope, id: string, patch: MockPatch): Promise<StoredMock> {
  const fields: Record<string, unknown> = { ...patch };
  // A fetched mock may be sent back edited: its bookkeeping fields are not the caller's to set.
  for (const k of READ_ONLY_MOCK_FIELDS) delete fields[k];
  const { id: newId, namespace, ...changes } = fields;
  // `response.body` is payload's alias: merged as payload, it replaces the stored one instead of contradicting it.
  if (isObject(changes.response) && "body" in changes.response && !("payload" in changes.response)) {
    const { body, ...rest } = changes.response;
    changes.response = { ...rest, payload: body };
  }
  if (newId !== undefined && newId !== id) {
    throw errors.validation("A mock's id cannot be changed; save it under the new id and delete this one", [{ location: "body", field: "id", message: `must be '${id}' or absent` }]);
  }
  if (namespace !== undefined && namespace !== scope.name) {
    throw errors.validation("A mock cannot change namespace; use POST /api/v1/mocks/copy-to-namespace", [{ location: "body", field: "namespace", message: `must be '${scope.name}' or absent` }]);
  }
  const result = await db().$transaction(async (tx) => {
    const [row] = await lockMocks(tx, scope.id, [id]);
    if (!row || row.deletedAt) throw errors.notFound("Mock");
    const current = storedBody(row);
    const parsed = MockInput.safeParse(mergePatch(current, changes));
    if (!parsed.success) throw validationError(parsed.error, "body");
    const def = parsed.data;
    assertServable(def);
    if (changes.grpc !== undefined) await assertKnownGrpcMethods(tx, scope.id, [{ def }]);
    if (changes.folderId) await requireFolders(tx, scope.id, [{ folderId: def.folderId, field: "folderId" }]);
    const changed = canonical(definitionOf(def)) !== canonical(definitionOf(current));
    if (changed) await rewriteMocks(tx, [{ pk: row.pk, def }], "patched", actor, new Date());
    return { changed, row: await tx.mock.findUniqueOrThrow({ where: { pk: row.pk } }) };
  });
  if (result.changed) await notifyMocksChanged(scope.id);
  return storedView(result.row, scope.name);
}

// ---- Recycle bin ----

/** Moves an active mock to the recycle bin; its history stays. */
export async function deleteMock(actor: Actor, scope: NamespaceScope, id: string): Promise<StoredMock> {
  const changed = await setDeleted(db(), scope.id, [id], true, actor, new Date());
  if (changed.length === 0) throw errors.notFound("Mock");
  await notifyMocksChanged(scope.id);
  return getMock(scope, id);
}

/** Removes a mock and its versions for good, whether or not it is in the recycle bin. */
export async function purgeMock(actor: Actor, scope: NamespaceScope, id: string) {
  const { count } = await db().mock.deleteMany({ where: { namespaceId: scope.id, id } });
  if (count === 0) throw errors.notFound("Mock");
  await notifyMocksChanged(scope.id);
  // The one change that cannot be undone from history, so it is audited.
  await recordAudit({ actor, action: "mock.purge", namespace: scope.name, targetType: "mock", targetId: id });
  return { id, purged: true as const };
}

/**
 * Brings a mock back from the recycle bin. Restoring an active mock changes
 * nothing and returns it, so a client may retry a restore safely.
 */
export async function restoreMock(actor: Actor, scope: NamespaceScope, id: string): Promise<StoredMock> {
  const changed = await setDeleted(db(), scope.id, [id], false, actor, new Date());
  if (changed.length > 0) await notifyMocksChanged(scope.id);
  return getMock(scope, id);
}

// ---- Versions ----

/** The history of a mock, newest first; also for a mock in the recycle bin. */
export async function listVersions(scope: NamespaceScope, id: string) {
  const mock = await findMock(scope, id, { includeDeleted: true });
  const rows = await db().mockVersion.findMany({ where: { mockPk: mock.pk }, orderBy: { version: "desc" }, select: { version: true, createdAt: true, createdBy: true, change: true } });
  return { versions: rows.map((v) => ({ ...v, createdAt: v.createdAt.getTime() })), count: rows.length };
}

export async function getVersion(scope: NamespaceScope, id: string, version: number) {
  const mock = await findMock(scope, id, { includeDeleted: true });
  const v = await db().mockVersion.findUnique({ where: { mockPk_version: { mockPk: mock.pk, version } } });
  if (!v) throw errors.notFound("Mock version");
  return { version: v.version, createdAt: v.createdAt.getTime(), createdBy: v.createdBy, change: v.change, definition: v.definition };
}

/**
 * Makes an active mock what it was at `version`, as a new version
 * ("restored_version:<n>"): history only grows. A folder deleted since then
 * is dropped, and the mock lands in the root.
 */
export async function restoreVersion(actor: Actor, scope: NamespaceScope, id: string, version: number): Promise<StoredMock> {
  const row = await db().$transaction(async (tx) => {
    const [mock] = await lockMocks(tx, scope.id, [id]);
    if (!mock || mock.deletedAt) throw errors.notFound("Mock");
    const old = await tx.mockVersion.findUnique({ where: { mockPk_version: { mockPk: mock.pk, version } } });
    if (!old) throw errors.notFound("Mock version");
    const parsed = MockInput.safeParse(old.definition);
    if (!parsed.success) throw errors.conflict(`Version ${version} no longer fits the Mock contract and cannot be restored`);
    let def = parsed.data;
    assertServable(def);
    if (def.folderId && !(await lockFolders(tx, scope.id, [def.folderId])).has(def.folderId)) {
      const { folderId: _gone, ...rest } = def;
      def = rest;
    }
    await rewriteMocks(tx, [{ pk: mock.pk, def }], `restored_version:${version}`, actor, new Date());
    return tx.mock.findUniqueOrThrow({ where: { pk: mock.pk } });
  });
  await notifyMocksChanged(scope.id);
  return storedView(row, scope.name);
}

// ---- Chains ----

/** The active mocks of a chain in the order they were created (the order of its steps). */
export async function chainMocks(scope: NamespaceScope, chainId: string) {
  const rows = await db().mock.findMany({ where: { namespaceId: scope.id, chainId, deletedAt: null }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return { mocks: rows.map((r) => storedView(r, scope.name)), count: rows.length };
}

/**
 * Deletes a chain: its active mocks go to the recycle bin and its chain store
 * is cleared, so a chain started again does not see the old run's values.
 */
export async function deleteChain(actor: Actor, scope: NamespaceScope, chainId: string) {
  const { deleted, cleared } = await db().$transaction(async (tx) => {
    const members = await tx.mock.findMany({ where: { namespaceId: scope.id, chainId, deletedAt: null }, select: { id: true } });
    const ids = await setDeleted(tx, scope.id, members.map((m) => m.id), true, actor, new Date());
    const { count } = await tx.storeEntry.deleteMany({ where: { namespaceId: scope.id, chainId } });
    return { deleted: ids.length, cleared: count };
  }, BATCH_TX);
  if (deleted === 0 && cleared === 0) throw errors.notFound("Chain");
  if (deleted > 0) await notifyMocksChanged(scope.id);
  if (cleared > 0) {
    // This process forgets the chain at once; the others drop their cached stores on "stores_changed".
    (await namespaceStores(scope.id)).delete(chainId);
    await db().$executeRaw`SELECT pg_notify(${STORES_CHANNEL}, ${scope.id})`;
  }
  return { deleted, clearedStoreKeys: cleared };
}

// ---- Copy to another namespace ----

/**
 * Copies active mocks (without their folder, which belongs to the source
 * namespace) into another namespace as new mocks. A copy keeps its id when the
 * target has no mock (active or deleted) with that id, else gets a new one.
 */
export async function copyToNamespace(actor: Actor, input: { sourceNamespace: string; targetNamespace: string; mockIds: string[] }) {
  const source = await resolveNamespace(actor, input.sourceNamespace);
  requireNamespacePermission(source, "read");
  const target = await resolveNamespace(actor, input.targetNamespace);
  requireNamespacePermission(target, "write");

  const ids = [...new Set(input.mockIds)];
  const found = new Map((await db().mock.findMany({ where: { namespaceId: source.id, id: { in: ids }, deletedAt: null } })).map((r) => [r.id, r]));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) {
    const details = missing.slice(0, 100).map((id) => ({ location: "body", field: `mockIds.${input.mockIds.indexOf(id)}`, message: `no active mock '${id}' in '${source.name}'` }));
    throw new AppError("not_found", `Mock not found in namespace '${source.name}': '${missing[0]}'`, { details });
  }

  const copied = await db()
    .$transaction(async (tx) => {
      const taken = new Set((await tx.mock.findMany({ where: { namespaceId: target.id, id: { in: ids } }, select: { id: true } })).map((r) => r.id));
      const copies = ids.map((sourceId) => {
        const { folderId: _sourceFolder, ...def } = storedBody(found.get(sourceId)!);
        return { sourceId, id: taken.has(sourceId) ? randomUUID() : sourceId, def };
      });
      await assertKnownGrpcMethods(tx, target.id, copies.map((c) => ({ def: c.def, prefix: `mockIds.${input.mockIds.indexOf(c.sourceId)}.` })));
      await insertMocks(tx, target.id, copies.map((c) => ({ id: c.id, def: c.def, change: `copied_from:${source.name}/${c.sourceId}` })), actor, new Date());
      return copies.map(({ sourceId, id }) => ({ sourceId, id }));
    }, BATCH_TX)
    .catch(conflictOnRace);
  await notifyMocksChanged(target.id);
  return { copied, count: copied.length };
}
