// Saved requests of API tester collections: create, read, change, delete,
// reorder within a folder, and batch delete and move. A request's definition
// is the RequestDefinition contract, stored as JSON with its schema version;
// method, url and kind are copied to columns for lists. Writes hold the
// locks of every collection they touch, in one transaction.
import type { z } from "zod";
import { MAX_COLLECTION_REQUESTS, type CreateRequestInput, type MoveRequestsInput, type RequestView, type UpdateRequestInput } from "@/server/contracts/tester-collections";
import { RequestDefinition } from "@/server/contracts/tester-request";
import { db, type Prisma, type TesterCollection } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import { validationError } from "@/server/validation-error";
import type { NamespaceScope } from "../namespace-access";
import { reachCollection, reachRequest } from "./collection-access";
import { collectionForWrite, findCollection, findRequest, inTrash, lockCollections, nextRequestIndex, transaction, type Tx } from "./access";
import { touch } from "./folders";
import { definitionOf, REQUEST_SCHEMA_VERSION, requestOrder, requestSummary, requestView, treeOrder } from "./views";

/** The stored columns of a definition (also the import's). */
export function columnsOf(definition: RequestDefinition) {
  return { kind: definition.kind, method: definition.method, url: definition.url, definition: definition as unknown as Prisma.InputJsonValue, schemaVersion: REQUEST_SCHEMA_VERSION };
}

function notAField(field: string, message: string) {
  return new AppError("validation", `Invalid body field '${field}': ${message}`, { details: [{ location: "body", field, message }] });
}

async function checkFolder(tx: Tx, collectionId: string, folderId: string | null, field = "folderId") {
  if (!folderId) return;
  const folder = await tx.testerFolder.findFirst({ where: { id: folderId, collectionId }, select: { id: true } });
  if (!folder) throw notAField(field, `'${folderId}' is not a folder of this collection`);
}

function collectionFull() {
  return errors.validation(`A collection holds at most ${MAX_COLLECTION_REQUESTS} requests`, [{ location: "path", field: "id", message: "the collection is full" }]);
}

export async function createRequest(scope: NamespaceScope, collectionId: string, input: CreateRequestInput): Promise<RequestView> {
  const { name, folderId: givenFolder, namespace: _ns, ...definition } = input;
  const folderId = givenFolder ?? null;
  return transaction(async (tx) => {
    await collectionForWrite(tx, scope, collectionId);
    if ((await tx.testerRequest.count({ where: { collectionId } })) >= MAX_COLLECTION_REQUESTS) throw collectionFull();
    await checkFolder(tx, collectionId, folderId);
    const row = await tx.testerRequest.create({
      data: { collectionId, folderId, name, sortIndex: await nextRequestIndex(tx, collectionId, folderId), ...columnsOf(definition) },
    });
    await touch(tx, collectionId);
    return requestView(row);
  });
}

/** Reading works for a collection shared into the Space too (it can be viewed there). */
export async function listRequests(scope: NamespaceScope, collectionId: string) {
  const { collection } = await reachCollection(scope, collectionId);
  const folders = treeOrder(await db().testerFolder.findMany({ where: { collectionId: collection.id }, select: { id: true, parentId: true, sortIndex: true, createdAt: true } }));
  const rows = requestOrder(await db().testerRequest.findMany({ where: { collectionId: collection.id } }), folders);
  return { requests: rows.map(requestView), count: rows.length };
}

export async function getRequest(scope: NamespaceScope, id: string): Promise<RequestView> {
  return requestView((await reachRequest(scope, id)).request);
}

/** The fields given replace the stored ones; the merged request is checked as a whole. */
export async function updateRequest(scope: NamespaceScope, id: string, input: UpdateRequestInput): Promise<RequestView> {
  const { name, folderId, namespace: _ns, ...fields } = input;
  return transaction(async (tx) => {
    const { collectionId } = await findRequest(tx, scope, id);
    await collectionForWrite(tx, scope, collectionId);
    const row = await findRequest(tx, scope, id);
    const merged = RequestDefinition.safeParse({ ...definitionOf(row), ...Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) });
    if (!merged.success) throw validationError(merged.error, "body");
    const moved = folderId !== undefined && folderId !== row.folderId;
    if (moved) await checkFolder(tx, collectionId, folderId);
    const updated = await tx.testerRequest.update({
      where: { id },
      data: {
        ...(name !== undefined ? { name } : {}),
        ...(moved ? { folderId, sortIndex: await nextRequestIndex(tx, collectionId, folderId) } : {}),
        ...columnsOf(merged.data),
      },
    });
    await touch(tx, collectionId);
    return requestView(updated);
  });
}

export async function deleteRequest(scope: NamespaceScope, id: string) {
  return transaction(async (tx) => {
    const { collectionId } = await findRequest(tx, scope, id);
    await collectionForWrite(tx, scope, collectionId);
    await tx.testerRequest.deleteMany({ where: { id, collectionId } });
    await touch(tx, collectionId);
    return { ok: true as const };
  });
}

/** The named requests of the namespace, locked with their collections; 404 naming the first id that is not one, 409 if a collection is in the trash. */
async function requestsForWrite(tx: Tx, scope: NamespaceScope, ids: string[], alsoLock: string[] = []) {
  const unique = [...new Set(ids)];
  const rows = await tx.testerRequest.findMany({ where: { id: { in: unique }, collection: { namespaceId: scope.id } }, select: { id: true, collectionId: true } });
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.map((id, i) => ({ id, i })).filter(({ id }) => !found.has(id));
  if (missing.length) {
    throw new AppError("not_found", `Request '${missing[0].id}' not found in namespace '${scope.name}'`, {
      details: missing.map(({ id, i }) => ({ location: "body", field: `ids.${i}`, message: `request '${id}' not found` })),
    });
  }
  const collectionIds = [...new Set([...rows.map((r) => r.collectionId), ...alsoLock])];
  await lockCollections(tx, collectionIds);
  const collections = await tx.testerCollection.findMany({ where: { id: { in: collectionIds } } });
  const trashed = collections.find((c) => c.deletedAt);
  if (trashed) throw inTrash(trashed);
  return { unique, rows, collections };
}

/** Deletes every named request, or none. */
export async function deleteRequests(scope: NamespaceScope, ids: string[]) {
  return transaction(async (tx) => {
    const { unique, collections } = await requestsForWrite(tx, scope, ids);
    await tx.testerRequest.deleteMany({ where: { id: { in: unique } } });
    for (const c of collections) await touch(tx, c.id);
    return { deleted: unique.length, ids: unique };
  });
}

/**
 * Puts the named requests, all of one folder (or of the root) of the
 * collection, first in the order given; the folder's other requests follow
 * in their order. Positions are renumbered 0..n-1.
 */
export async function reorderRequests(scope: NamespaceScope, collectionId: string, ids: string[]) {
  return transaction(async (tx) => {
    await collectionForWrite(tx, scope, collectionId);
    const rows = await tx.testerRequest.findMany({ where: { id: { in: ids }, collectionId }, select: { id: true, folderId: true } });
    const folderOf = new Map(rows.map((r) => [r.id, r.folderId]));
    const seen = new Set<string>();
    ids.forEach((id, i) => {
      if (!folderOf.has(id)) throw notAField(`ids.${i}`, `'${id}' is not a request of this collection`);
      if (seen.has(id)) throw notAField(`ids.${i}`, `'${id}' is given twice`);
      seen.add(id);
    });
    const folderId = folderOf.get(ids[0])!;
    ids.forEach((id, i) => {
      if (folderOf.get(id) !== folderId) throw notAField(`ids.${i}`, "every request must be in the same folder (or all at the root)");
    });
    const siblings = await tx.testerRequest.findMany({ where: { collectionId, folderId }, orderBy: [{ sortIndex: "asc" }, { createdAt: "asc" }, { id: "asc" }] });
    const order = [...ids, ...siblings.map((s) => s.id).filter((id) => !seen.has(id))];
    const byId = new Map(siblings.map((s) => [s.id, s]));
    for (const [i, id] of order.entries()) {
      if (byId.get(id)!.sortIndex !== i) await tx.testerRequest.update({ where: { id }, data: { sortIndex: i } });
    }
    await touch(tx, collectionId);
    return { folderId, requests: order.map((id, i) => requestSummary({ ...byId.get(id)!, sortIndex: i })) };
  });
}

/** Moves every named request (or none) to a collection of the namespace, last in its folder (or root), in the order given. */
export async function moveRequests(scope: NamespaceScope, input: z.output<typeof MoveRequestsInput>) {
  const folderId = input.folderId ?? null;
  return transaction(async (tx) => {
    let target: TesterCollection;
    try {
      target = await findCollection(tx, scope, input.collectionId);
    } catch (err) {
      if (err instanceof AppError && err.code === "not_found") {
        throw new AppError("not_found", err.message, { details: [{ location: "body", field: "collectionId", message: `collection '${input.collectionId}' not found` }] });
      }
      throw err;
    }
    const { unique, rows } = await requestsForWrite(tx, scope, input.ids, [target.id]);
    await checkFolder(tx, target.id, folderId);
    const arriving = rows.filter((r) => r.collectionId !== target.id).length;
    if (arriving && (await tx.testerRequest.count({ where: { collectionId: target.id } })) + arriving > MAX_COLLECTION_REQUESTS) throw collectionFull();
    let next = await nextRequestIndex(tx, target.id, folderId);
    for (const id of unique) await tx.testerRequest.update({ where: { id }, data: { collectionId: target.id, folderId, sortIndex: next++ } });
    for (const c of new Set([target.id, ...rows.map((r) => r.collectionId)])) await touch(tx, c);
    const moved = await tx.testerRequest.findMany({ where: { id: { in: unique } } });
    const byId = new Map(moved.map((r) => [r.id, r]));
    return { moved: unique.length, collectionId: target.id, folderId, requests: unique.map((id) => requestSummary(byId.get(id)!)) };
  });
}

