// Bulk operations on mocks: load many at once, and delete, restore, tag or move
// a selection. Each request is one transaction, so it applies to every mock or
// to none; every mock it changes gets a new version; the namespace's index is
// rebuilt once, after commit.
import { randomUUID } from "node:crypto";
import type { Actor } from "@/server/auth/actor";
import type { BatchSaveResult } from "@/server/contracts/mock-api";
import { db, type Prisma } from "@/server/db/client";
import { notifyMocksChanged } from "@/server/db/notify";
import { AppError, errors } from "@/server/errors";
import type { FieldProblem } from "@/server/validation-error";
import { BATCH_TX, conflictOnRace, insertMocks, lockFolders, lockMocks, requireFolders, rewriteMocks, setDeleted, storedBody } from "./mock-rows";
import { assertServable, type MockBody } from "./mocks";
import { assertKnownGrpcMethods } from "./grpc-mock-check";
import type { NamespaceScope } from "./namespace-access";

/** assertServable, with the item's index in front of each field ("3.conditions"). */
function assertServableAt(def: MockBody, index: number) {
  try {
    assertServable(def);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== "validation") throw err;
    const details = ((err.details ?? []) as FieldProblem[]).map((d) => ({ ...d, field: `${index}.${d.field}` }));
    throw errors.validation(`Item ${index}: ${err.message}`, details);
  }
}

/**
 * Creates or overwrites many mocks. Unlike POST /api/v1/mocks there is no
 * duplicate-endpoint check: a batch is bulk loading, and an id that exists is
 * overwritten. `create_new` refuses the whole batch if any id exists.
 * `before` runs first in the same transaction (a generator storing the
 * .proto files its gRPC mocks need, so the mock check sees them).
 */
export async function batchSaveMocks(actor: Actor, scope: NamespaceScope, items: MockBody[], intent?: "overwrite" | "create_new", before?: (tx: Prisma.TransactionClient) => Promise<void>): Promise<BatchSaveResult> {
  if (items.length === 0 && !before) return { created: 0, overwritten: 0, mocks: [] };
  const ids = items.map((def) => def.id ?? randomUUID());
  const indexOf = new Map<string, number>();
  ids.forEach((id, i) => {
    const first = indexOf.get(id);
    if (first !== undefined) throw errors.validation(`Items ${first} and ${i} have the same id '${id}'`, [{ location: "body", field: `${i}.id`, message: `same id as item ${first}` }]);
    indexOf.set(id, i);
  });
  items.forEach(assertServableAt);

  const now = new Date();
  const existing = await db()
    .$transaction(async (tx) => {
      await before?.(tx);
      await requireFolders(tx, scope.id, items.map((def, i) => ({ folderId: def.folderId, field: `${i}.folderId` })));
      await assertKnownGrpcMethods(tx, scope.id, items.map((def, i) => ({ def, prefix: `${i}.` })));
      const found = new Map((await lockMocks(tx, scope.id, ids)).map((m) => [m.id, m]));
      if (intent === "create_new" && found.size > 0) {
        const details = [...found.keys()].slice(0, 100).map((id) => ({ location: "body", field: `${indexOf.get(id)}.id`, message: "already exists" }));
        throw errors.conflict(`${found.size} of the mocks already exist (intent=create_new)`, details);
      }
      await insertMocks(tx, scope.id, items.flatMap((def, i) => (found.has(ids[i]) ? [] : [{ id: ids[i], def, change: "created" }])), actor, now);
      const overwrites = items.flatMap((def, i) => {
        const row = found.get(ids[i]);
        return row ? [{ pk: row.pk, def }] : [];
      });
      await rewriteMocks(tx, overwrites, "overwritten", actor, now, { undelete: true });
      return found;
    }, BATCH_TX)
    .catch(conflictOnRace);
  await notifyMocksChanged(scope.id);

  return {
    created: items.length - existing.size,
    overwritten: existing.size,
    mocks: ids.map((id) => {
      const row = existing.get(id);
      return { id, namespace: scope.name, createdAt: (row?.createdAt ?? now).getTime(), useCounter: row?.useCounter ?? 0 };
    }),
  };
}

/** Soft delete (to the recycle bin) or restore; ids not in the starting state are reported as not found. */
async function setDeletedBatch(actor: Actor, scope: NamespaceScope, ids: string[], deleted: boolean) {
  const unique = [...new Set(ids)];
  // One statement: it is atomic without an explicit transaction.
  const changed = new Set(await setDeleted(db(), scope.id, unique, deleted, actor, new Date()));
  if (changed.size > 0) await notifyMocksChanged(scope.id);
  return { count: changed.size, notFound: unique.filter((id) => !changed.has(id)) };
}

export async function batchDeleteMocks(actor: Actor, scope: NamespaceScope, ids: string[]) {
  const { count, notFound } = await setDeletedBatch(actor, scope, ids, true);
  return { deleted: count, notFound };
}

export async function batchRestoreMocks(actor: Actor, scope: NamespaceScope, ids: string[]) {
  const { count, notFound } = await setDeletedBatch(actor, scope, ids, false);
  return { restored: count, notFound };
}

/**
 * Rewrites the active mocks among `ids` with `change`; `edit` returns the new
 * definition, or null when the mock already is as wanted (no version then).
 * Returns how many active mocks were found and the ids that were not.
 */
async function editActive(actor: Actor, scope: NamespaceScope, ids: string[], change: string, edit: (def: MockBody, id: string) => MockBody | null, before?: (tx: Prisma.TransactionClient) => Promise<void>) {
  const unique = [...new Set(ids)];
  const result = await db().$transaction(async (tx) => {
    await before?.(tx);
    const active = (await lockMocks(tx, scope.id, unique)).filter((m) => !m.deletedAt);
    const changes = active.flatMap((m) => {
      const def = edit(storedBody(m), m.id);
      return def ? [{ pk: m.pk, def }] : [];
    });
    await rewriteMocks(tx, changes, change, actor, new Date());
    return { found: new Set(active.map((m) => m.id)), changed: changes.length };
  }, BATCH_TX);
  if (result.changed > 0) await notifyMocksChanged(scope.id);
  return { count: result.found.size, notFound: unique.filter((id) => !result.found.has(id)) };
}

const MAX_TAGS = 50;

/** removeTags first, then addTags (kept in the order given, without repeats). */
export async function batchTagMocks(actor: Actor, scope: NamespaceScope, input: { ids: string[]; addTags: string[]; removeTags: string[] }) {
  const remove = new Set(input.removeTags);
  const { count, notFound } = await editActive(actor, scope, input.ids, "tagged", (def, id) => {
    const current = def.tags ?? [];
    const next = [...new Set([...current.filter((t) => !remove.has(t)), ...input.addTags])];
    if (next.length === current.length && next.every((t, i) => t === current[i])) return null;
    if (next.length > MAX_TAGS) throw errors.validation(`Mock '${id}' would have more than ${MAX_TAGS} tags`, [{ location: "body", field: "addTags", message: `mock '${id}' would have ${next.length} tags` }]);
    const { tags: _old, ...rest } = def;
    return next.length ? { ...rest, tags: next } : rest;
  });
  return { updated: count, notFound };
}

/** Moves active mocks into a folder of the namespace (404 for any other), or to the root with null. */
export async function batchMoveMocks(actor: Actor, scope: NamespaceScope, input: { ids: string[]; folderId: string | null }) {
  const target = input.folderId;
  const { count, notFound } = await editActive(
    actor,
    scope,
    input.ids,
    "moved",
    (def) => {
      if ((def.folderId ?? null) === target) return null;
      const { folderId: _old, ...rest } = def;
      return target ? { ...rest, folderId: target } : rest;
    },
    async (tx) => {
      if (target && !(await lockFolders(tx, scope.id, [target])).has(target)) throw errors.notFound("Folder");
    },
  );
  return { moved: count, notFound };
}
