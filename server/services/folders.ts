// Mock folders: a tree per namespace (parentId, position among siblings).
// Every write runs in one transaction that first takes a per-namespace
// advisory lock, so two concurrent moves cannot build a cycle between them
// and two creates cannot both pass the sibling-name check.
import type { z } from "zod";
import type { CreateFolderInput, DeleteFolderResult, FolderView, MoveFolderInput, UpdateFolderInput } from "@/server/contracts/organisation-endpoints";
import { db, Prisma, type MockFolder } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import type { NamespaceScope } from "./namespace-access";

type Tx = Prisma.TransactionClient;
type View = z.output<typeof FolderView>;

function view(f: MockFolder, mockCount: number): View {
  return { id: f.id, name: f.name, parentId: f.parentId, position: f.position, mockCount, createdAt: f.createdAt.toISOString() };
}

async function lockFolders(tx: Tx, scope: NamespaceScope) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`mock-folders:${scope.id}`}::text, 0))`;
}

function inTransaction<T>(scope: NamespaceScope, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(async (tx) => {
    await lockFolders(tx, scope);
    return work(tx);
  });
}

async function folderIn(tx: Tx, scope: NamespaceScope, id: string, what = "Folder"): Promise<MockFolder> {
  const folder = await tx.mockFolder.findFirst({ where: { id, namespaceId: scope.id } });
  if (!folder) throw errors.notFound(what);
  return folder;
}

async function countMocks(tx: Tx, folderId: string) {
  return tx.mock.count({ where: { folderId, deletedAt: null } });
}

/** Sibling names are unique ignoring case, so "Orders" and "orders" cannot sit side by side. */
async function assertNameFree(tx: Tx, scope: NamespaceScope, parentId: string | null, name: string, exceptId?: string) {
  const clash = await tx.mockFolder.findFirst({
    where: { namespaceId: scope.id, parentId, name: { equals: name, mode: "insensitive" }, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (clash) throw errors.conflict(`A folder named '${name}' already exists here`, [{ location: "body", field: "name", message: "a sibling folder has this name" }]);
}

async function nextPosition(tx: Tx, scope: NamespaceScope, parentId: string | null) {
  const { _max } = await tx.mockFolder.aggregate({ where: { namespaceId: scope.id, parentId }, _max: { position: true } });
  return _max.position === null ? 0 : _max.position + 1;
}

/**
 * Checks a new parent for `folder`: it must be a folder of the namespace
 * (404 otherwise) and neither the folder itself nor one of its descendants.
 */
async function assertParentAllowed(tx: Tx, scope: NamespaceScope, folderId: string, parentId: string | null) {
  if (parentId === null) return;
  await folderIn(tx, scope, parentId, "Parent folder");
  const parents = new Map((await tx.mockFolder.findMany({ where: { namespaceId: scope.id }, select: { id: true, parentId: true } })).map((f) => [f.id, f.parentId]));
  const seen = new Set<string>();
  for (let at: string | null | undefined = parentId; at; at = parents.get(at)) {
    if (at === folderId) {
      throw new AppError("validation", "A folder cannot move into itself or one of its subfolders", { details: [{ location: "body", field: "parentId", message: "would create a cycle" }] });
    }
    if (seen.has(at)) break; // stops on a loop already in the data instead of spinning
    seen.add(at);
  }
}

export async function listFolders(scope: NamespaceScope) {
  const rows = await db().mockFolder.findMany({
    where: { namespaceId: scope.id },
    orderBy: [{ parentId: "asc" }, { position: "asc" }, { createdAt: "asc" }],
    include: { _count: { select: { mocks: { where: { deletedAt: null } } } } },
  });
  const folders = rows.map((f) => view(f, f._count.mocks));
  return { folders, count: folders.length };
}

export async function createFolder(scope: NamespaceScope, input: z.output<typeof CreateFolderInput>): Promise<View> {
  const parentId = input.parentId ?? null;
  return inTransaction(scope, async (tx) => {
    if (parentId) await folderIn(tx, scope, parentId, "Parent folder");
    await assertNameFree(tx, scope, parentId, input.name);
    const folder = await tx.mockFolder.create({ data: { namespaceId: scope.id, name: input.name, parentId, position: await nextPosition(tx, scope, parentId) } });
    return view(folder, 0);
  });
}

/** Rename and/or reparent; a folder that changes parent goes last among its new siblings. */
export async function updateFolder(scope: NamespaceScope, id: string, input: z.output<typeof UpdateFolderInput>): Promise<View> {
  return inTransaction(scope, async (tx) => {
    const folder = await folderIn(tx, scope, id);
    const parentId = input.parentId === undefined ? folder.parentId : input.parentId;
    const name = input.name ?? folder.name;
    const reparented = parentId !== folder.parentId;
    if (reparented) await assertParentAllowed(tx, scope, id, parentId);
    if (reparented || name !== folder.name) await assertNameFree(tx, scope, parentId, name, id);
    const updated = await tx.mockFolder.update({
      where: { id },
      data: { name, parentId, ...(reparented ? { position: await nextPosition(tx, scope, parentId) } : {}) },
    });
    return view(updated, await countMocks(tx, id));
  });
}

/** Reorder and/or reparent: the folder takes `position` among its (new) siblings, which are renumbered 0..n-1. */
export async function moveFolder(scope: NamespaceScope, id: string, input: z.output<typeof MoveFolderInput>): Promise<View> {
  return inTransaction(scope, async (tx) => {
    const folder = await folderIn(tx, scope, id);
    const parentId = input.parentId === undefined ? folder.parentId : input.parentId;
    if (parentId !== folder.parentId) {
      await assertParentAllowed(tx, scope, id, parentId);
      await assertNameFree(tx, scope, parentId, folder.name, id);
    }
    const siblings = await tx.mockFolder.findMany({
      where: { namespaceId: scope.id, parentId, id: { not: id } },
      orderBy: [{ position: "asc" }, { createdAt: "asc" }],
      select: { id: true, position: true },
    });
    const order = siblings.map((s) => s.id);
    order.splice(Math.min(input.position, order.length), 0, id);
    const was = new Map(siblings.map((s) => [s.id, s.position]));
    for (const [position, folderId] of order.entries()) {
      if (folderId === id) await tx.mockFolder.update({ where: { id }, data: { parentId, position } });
      else if (was.get(folderId) !== position) await tx.mockFolder.update({ where: { id: folderId }, data: { position } });
    }
    const moved = await tx.mockFolder.findUniqueOrThrow({ where: { id } });
    return view(moved, await countMocks(tx, id));
  });
}

/**
 * Deletes a folder and every folder below it. Their mocks (recycle-bin ones
 * too) move to the deleted folder's parent, or to the top level: deleting a
 * folder never deletes mocks. The move rewrites the folder column and the
 * folderId inside the stored definition together; it is not a new mock
 * version, and updatedAt is left alone because it orders mock selection.
 */
export async function deleteFolder(scope: NamespaceScope, id: string): Promise<z.output<typeof DeleteFolderResult>> {
  return inTransaction(scope, async (tx) => {
    const folder = await folderIn(tx, scope, id);
    const all = await tx.mockFolder.findMany({ where: { namespaceId: scope.id }, select: { id: true, parentId: true } });
    const children = new Map<string, string[]>();
    for (const f of all) if (f.parentId) children.set(f.parentId, [...(children.get(f.parentId) ?? []), f.id]);
    const doomed = new Set([id]);
    for (const at of doomed) for (const child of children.get(at) ?? []) doomed.add(child);
    const target = folder.parentId;
    const ids = Prisma.join([...doomed].map((d) => Prisma.sql`${d}::uuid`));
    // Writers that put mocks into a folder hold its row FOR KEY SHARE until they
    // commit (mock-rows.ts lockFolders); waiting for them here means their mocks
    // are moved below instead of being orphaned by the cascade.
    await tx.$queryRaw`SELECT "id" FROM "MockFolder" WHERE "id" IN (${ids}) FOR UPDATE`;
    // Only the column: it is the truth for a mock's folder (storedView reads it),
    // and rewriting the json definition through jsonb would reorder its keys.
    const movedMocks = await tx.$executeRaw`UPDATE "Mock" SET "folderId" = ${target}::uuid WHERE "folderId" IN (${ids})`;
    // Subfolders go with it through the parentId foreign key (ON DELETE CASCADE).
    await tx.mockFolder.delete({ where: { id } });
    return { deleted: doomed.size, movedMocks, movedTo: target };
  });
}
