// Set-based writes of mock rows and their versions. Each function is one SQL
// statement whatever the number of mocks (rows travel as one JSON parameter
// through json_to_recordset (json keeps key order)), because Prisma's createMany and per-row updates
// took over 10 s for 10,000 mocks on a 2-core machine; these take about one.
// Version numbers are computed in the database (version + 1) and each changed
// row gets its MockVersion in the same statement, so history cannot diverge.
import type { Actor } from "@/server/auth/actor";
import { MockInput } from "@/server/contracts/mock";
import { Prisma } from "@/server/db/client";
import { errors } from "@/server/errors";
import { columnsOf, definitionOf, type MockBody } from "./mocks";

type Tx = Prisma.TransactionClient;

/** 10,000 mocks take a few seconds on a busy 2-core machine; Prisma's default 5 s would fail such a batch. */
export const BATCH_TX = { timeout: 60_000, maxWait: 10_000 };

/** The columns of a mock row the management operations need, read under a row lock. */
export interface LockedMock {
  pk: string;
  id: string;
  version: number;
  definition: Record<string, unknown>;
  folderId: string | null;
  tags: string[];
  createdAt: Date;
  useCounter: number;
  deletedAt: Date | null;
}

/** Reads and locks (FOR UPDATE, in primary-key order so two batches cannot deadlock) the named mocks. */
export async function lockMocks(tx: Tx, namespaceId: string, ids: string[]): Promise<LockedMock[]> {
  if (ids.length === 0) return [];
  return tx.$queryRaw<LockedMock[]>`
    SELECT pk::text AS pk, id, version, definition, "folderId"::text AS "folderId", tags, "createdAt", "useCounter", "deletedAt"
    FROM "Mock" WHERE "namespaceId" = ${namespaceId}::uuid AND id = ANY(${ids}::text[])
    ORDER BY pk FOR UPDATE`;
}

/**
 * The ids among `folderIds` that are folders of the namespace. FOR KEY SHARE keeps
 * them from being deleted before the transaction commits (the foreign key would fail).
 */
export async function lockFolders(tx: Tx, namespaceId: string, folderIds: string[]): Promise<Set<string>> {
  if (folderIds.length === 0) return new Set();
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text AS id FROM "MockFolder" WHERE "namespaceId" = ${namespaceId}::uuid AND id = ANY(${folderIds}::uuid[]) FOR KEY SHARE`;
  return new Set(rows.map((r) => r.id));
}

/**
 * Checks that every referenced folder is a folder of the namespace (and keeps it
 * there until commit); a 400 naming each offending field otherwise.
 */
export async function requireFolders(tx: Tx, namespaceId: string, refs: { folderId: string | null | undefined; field: string }[]): Promise<void> {
  const wanted = [...new Set(refs.flatMap((r) => (r.folderId ? [r.folderId] : [])))];
  const found = await lockFolders(tx, namespaceId, wanted);
  const bad = refs.filter((r) => r.folderId && !found.has(r.folderId));
  if (bad.length) {
    const details = bad.slice(0, 100).map((r) => ({ location: "body", field: r.field, message: `folder '${r.folderId}' does not exist in this namespace` }));
    throw errors.validation(`No such folder in this namespace: '${bad[0].folderId}'`, details);
  }
}

/**
 * The stored definition of a locked mock, parsed with the contract. Its folder
 * comes from the column, which a deleted folder clears (ON DELETE SET NULL)
 * while the JSON still names it.
 */
export function storedBody(row: Pick<LockedMock, "id" | "folderId"> & { definition: unknown }): MockBody {
  const parsed = MockInput.safeParse(row.definition);
  if (!parsed.success) throw errors.conflict(`Stored mock '${row.id}' no longer fits the Mock contract; overwrite it with POST /api/v1/mocks`);
  const { folderId: _stale, ...def } = parsed.data;
  return row.folderId ? { ...def, folderId: row.folderId } : def;
}

function rowPayload(def: MockBody) {
  return { ...columnsOf(def), definition: definitionOf(def) };
}

const RECORD_COLUMNS = Prisma.sql`protocol text, method text, route text, "chainId" text, "folderId" uuid, tags json, priority int, "useLimiter" int, "schemaVersion" int, definition json`;

/** Creates mocks (version 1) with their first MockVersion. `change` may differ per row (a copy names its source). */
export async function insertMocks(tx: Tx, namespaceId: string, rows: { id: string; def: MockBody; change: string }[], actor: Actor, now: Date): Promise<void> {
  if (rows.length === 0) return;
  const payload = JSON.stringify(rows.map((r) => ({ id: r.id, change: r.change, ...rowPayload(r.def) })));
  await tx.$executeRaw`
    WITH r AS (SELECT * FROM json_to_recordset(${payload}::json) AS x(id text, change text, ${RECORD_COLUMNS})),
    m AS (
      INSERT INTO "Mock" (pk, id, "namespaceId", protocol, method, route, "chainId", "folderId", tags, priority, "useLimiter", "schemaVersion", definition, version, "createdAt", "updatedAt", "createdBy")
      SELECT gen_random_uuid(), r.id, ${namespaceId}::uuid, r.protocol, r.method, r.route, r."chainId", r."folderId",
             ARRAY(SELECT json_array_elements_text(r.tags)), r.priority, r."useLimiter", r."schemaVersion", r.definition, 1, ${now}, ${now}, ${actor.user.username}
      FROM r
      RETURNING pk, id, definition)
    INSERT INTO "MockVersion" (pk, "mockPk", version, definition, "createdAt", "createdBy", change)
    SELECT gen_random_uuid(), m.pk, 1, m.definition, ${now}, ${actor.user.username}, r.change FROM m JOIN r ON r.id = m.id`;
}

/**
 * Replaces the definitions of locked mocks, each as a new version. `undelete`
 * takes them out of the recycle bin (an overwrite of a deleted mock restores it, as in saveMock).
 */
export async function rewriteMocks(tx: Tx, rows: { pk: string; def: MockBody }[], change: string, actor: Actor, now: Date, opts: { undelete?: boolean } = {}): Promise<void> {
  if (rows.length === 0) return;
  const payload = JSON.stringify(rows.map((r) => ({ pk: r.pk, ...rowPayload(r.def) })));
  const deletedAt = opts.undelete ? Prisma.sql`NULL` : Prisma.sql`m."deletedAt"`;
  await tx.$executeRaw`
    WITH u AS (
      UPDATE "Mock" AS m SET
        protocol = r.protocol, method = r.method, route = r.route, "chainId" = r."chainId", "folderId" = r."folderId",
        tags = ARRAY(SELECT json_array_elements_text(r.tags)), priority = r.priority, "useLimiter" = r."useLimiter",
        "schemaVersion" = r."schemaVersion", definition = r.definition, version = m.version + 1, "updatedAt" = ${now}, "deletedAt" = ${deletedAt}
      FROM json_to_recordset(${payload}::json) AS r(pk uuid, ${RECORD_COLUMNS})
      WHERE m.pk = r.pk
      RETURNING m.pk, m.version, m.definition)
    INSERT INTO "MockVersion" (pk, "mockPk", version, definition, "createdAt", "createdBy", change)
    SELECT gen_random_uuid(), u.pk, u.version, u.definition, ${now}, ${actor.user.username}, ${change} FROM u`;
}

/**
 * Moves active mocks to the recycle bin (`deleted`) or back, each as a new
 * version recording who did it; returns the ids that changed. Mocks already in
 * the target state are left alone. One statement, so it needs no explicit lock.
 */
export async function setDeleted(tx: Tx, namespaceId: string, ids: string[], deleted: boolean, actor: Actor, now: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const state = deleted ? Prisma.sql`"deletedAt" IS NULL` : Prisma.sql`"deletedAt" IS NOT NULL`;
  const rows = await tx.$queryRaw<{ id: string }[]>`
    WITH u AS (
      UPDATE "Mock" SET "deletedAt" = ${deleted ? now : null}::timestamp(3), version = version + 1, "updatedAt" = ${now}
      WHERE "namespaceId" = ${namespaceId}::uuid AND id = ANY(${ids}::text[]) AND ${state}
      RETURNING pk, id, version, definition),
    v AS (
      INSERT INTO "MockVersion" (pk, "mockPk", version, definition, "createdAt", "createdBy", change)
      SELECT gen_random_uuid(), u.pk, u.version, u.definition, ${now}, ${actor.user.username}, ${deleted ? "deleted" : "restored"} FROM u)
    SELECT id FROM u`;
  return rows.map((r) => r.id);
}

/** A unique-key race (two requests creating the same id at once) is a 409, not a 500. */
export function conflictOnRace(err: unknown): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError) {
    const cause = (err.meta as { driverAdapterError?: { cause?: { originalCode?: string } } } | undefined)?.driverAdapterError?.cause;
    if (err.code === "P2002" || cause?.originalCode === "23505") throw errors.conflict("Another request changed the same mocks at the same time; retry");
  }
  throw err;
}
