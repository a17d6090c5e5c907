// Finding the API tester's rows inside a namespace, and the transaction every
// write to one collection's tree runs in. An id of another namespace is
// "not found" (404), never "forbidden", like a namespace the caller cannot read.
import { db, type Prisma, type TesterCollection, type TesterFolder, type TesterRequest } from "@/server/db/client";
import { AppError } from "@/server/errors";
import type { NamespaceScope } from "../namespace-access";

export type Tx = Prisma.TransactionClient;

export function collectionNotFound(scope: NamespaceScope, id: string) {
  return new AppError("not_found", `Collection '${id}' not found in namespace '${scope.name}'`);
}

export function inTrash(collection: Pick<TesterCollection, "id" | "name">) {
  return new AppError("conflict", `Collection '${collection.name}' is in the trash; restore it first`, { details: [{ location: "path", field: "id", message: "the collection is in the trash" }] });
}

/**
 * Serialises writes to one collection's tree (folder moves that could build a
 * cycle between them, positions handed out twice). Taken in ascending id
 * order by callers that lock several, so two of them cannot deadlock.
 */
export async function lockCollections(tx: Tx, ids: string[]) {
  for (const id of [...new Set(ids)].sort()) {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`tester-collection:${id}`}::text, 0))`;
  }
}

export async function findCollection(tx: Tx, scope: NamespaceScope, id: string): Promise<TesterCollection> {
  const row = await tx.testerCollection.findFirst({ where: { id, namespaceId: scope.id } });
  if (!row) throw collectionNotFound(scope, id);
  return row;
}

/** The collection, locked for a write of its tree; 409 while it is in the trash. */
export async function collectionForWrite(tx: Tx, scope: NamespaceScope, id: string): Promise<TesterCollection> {
  await findCollection(tx, scope, id); // 404 before taking a lock on an id of another namespace
  await lockCollections(tx, [id]);
  const row = await findCollection(tx, scope, id);
  if (row.deletedAt) throw inTrash(row);
  return row;
}

export async function findFolder(tx: Tx, scope: NamespaceScope, id: string): Promise<TesterFolder & { collection: TesterCollection }> {
  const row = await tx.testerFolder.findFirst({ where: { id, collection: { namespaceId: scope.id } }, include: { collection: true } });
  if (!row) throw new AppError("not_found", `Folder '${id}' not found in namespace '${scope.name}'`);
  return row;
}

export async function findRequest(tx: Tx, scope: NamespaceScope, id: string): Promise<TesterRequest & { collection: TesterCollection }> {
  const row = await tx.testerRequest.findFirst({ where: { id, collection: { namespaceId: scope.id } }, include: { collection: true } });
  if (!row) throw new AppError("not_found", `Request '${id}' not found in namespace '${scope.name}'`);
  return row;
}

/** Runs `work` in one transaction (every multi-row write: nothing is half-written). */
export function transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(work, { timeout: 30_000, maxWait: 10_000 });
}

/** The next free position among requests of one folder (or root) of a collection. */
export async function nextRequestIndex(tx: Tx, collectionId: string, folderId: string | null): Promise<number> {
  const { _max } = await tx.testerRequest.aggregate({ where: { collectionId, folderId }, _max: { sortIndex: true } });
  return _max.sortIndex === null ? 0 : _max.sortIndex + 1;
}

export async function nextFolderIndex(tx: Tx, collectionId: string, parentId: string | null): Promise<number> {
  const { _max } = await tx.testerFolder.aggregate({ where: { collectionId, parentId }, _max: { sortIndex: true } });
  return _max.sortIndex === null ? 0 : _max.sortIndex + 1;
}
