// Folders of an API tester collection: a tree (parentId null = the root),
// positions among siblings, auth and scripts that apply to what is inside.
// Every write runs in one transaction holding the collection's lock, so two
// concurrent moves cannot build a cycle between them.
import type { CreateFolderInput, FolderView, UpdateFolderInput } from "@/server/contracts/tester-collections";
import { MAX_COLLECTION_FOLDERS } from "@/server/contracts/tester-collections";
import { MAX_FOLDER_DEPTH } from "@/server/contracts/tester-native-format";
import type { Prisma } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import type { NamespaceScope } from "../namespace-access";
import { collectionForWrite, findFolder, nextFolderIndex, transaction, type Tx } from "./access";
import { folderView } from "./views";

type Links = Map<string, string | null>;

async function linksOf(tx: Tx, collectionId: string): Promise<Links> {
  const rows = await tx.testerFolder.findMany({ where: { collectionId }, select: { id: true, parentId: true } });
  return new Map(rows.map((r) => [r.id, r.parentId]));
}

/** 1 for a folder at the root. */
function depthOf(links: Links, id: string): number {
  let depth = 0;
  const seen = new Set<string>();
  for (let at: string | null | undefined = id; at && !seen.has(at); at = links.get(at)) {
    seen.add(at);
    depth++;
  }
  return depth;
}

/** The folder and every folder inside it. */
function subtreeOf(links: Links, id: string): string[] {
  const children = new Map<string, string[]>();
  for (const [child, parent] of links) if (parent) children.set(parent, [...(children.get(parent) ?? []), child]);
  const out = [id];
  const seen = new Set(out);
  for (let i = 0; i < out.length; i++) {
    for (const child of children.get(out[i]) ?? []) {
      if (seen.has(child)) continue;
      seen.add(child);
      out.push(child);
    }
  }
  return out;
}

function badParent(message: string) {
  return new AppError("validation", `Invalid body field 'parentId': ${message}`, { details: [{ location: "body", field: "parentId", message }] });
}

/** A parent must be a folder of the same collection; 400 otherwise (the body names something that cannot be). */
function checkParent(links: Links, parentId: string) {
  if (!links.has(parentId)) throw badParent(`'${parentId}' is not a folder of this collection`);
}

function checkDepth(links: Links, parentId: string | null, height: number) {
  const depth = (parentId ? depthOf(links, parentId) : 0) + height;
  if (depth > MAX_FOLDER_DEPTH) throw badParent(`folders nest at most ${MAX_FOLDER_DEPTH} deep`);
}

export async function createFolder(scope: NamespaceScope, collectionId: string, input: CreateFolderInput): Promise<FolderView> {
  return transaction(async (tx) => {
    await collectionForWrite(tx, scope, collectionId);
    const links = await linksOf(tx, collectionId);
    if (links.size >= MAX_COLLECTION_FOLDERS) throw errors.validation(`A collection holds at most ${MAX_COLLECTION_FOLDERS} folders`, [{ location: "path", field: "id", message: "the collection is full" }]);
    const parentId = input.parentId ?? null;
    if (parentId) checkParent(links, parentId);
    checkDepth(links, parentId, 1);
    const row = await tx.testerFolder.create({
      data: {
        collectionId,
        parentId,
        name: input.name,
        description: input.description ?? "",
        auth: (input.auth ?? { type: "inherit" }) as Prisma.InputJsonValue,
        scripts: (input.scripts ?? {}) as Prisma.InputJsonValue,
        sortIndex: await nextFolderIndex(tx, collectionId, parentId),
      },
    });
    await touch(tx, collectionId);
    return folderView(row);
  });
}

/** Rename, move, reorder, new auth or scripts: only the fields given change. */
export async function updateFolder(scope: NamespaceScope, id: string, input: UpdateFolderInput): Promise<FolderView> {
  return transaction(async (tx) => {
    const { collectionId } = await findFolder(tx, scope, id);
    await collectionForWrite(tx, scope, collectionId);
    const folder = await findFolder(tx, scope, id);
    const parentId = input.parentId === undefined ? folder.parentId : input.parentId;
    const moved = parentId !== folder.parentId;
    if (moved && parentId) {
      const links = await linksOf(tx, collectionId);
      checkParent(links, parentId);
      const subtree = subtreeOf(links, id);
      if (subtree.includes(parentId)) throw badParent("a folder cannot move into itself or a folder inside it");
      const height = Math.max(...subtree.map((f) => depthOf(links, f))) - depthOf(links, id) + 1;
      checkDepth(links, parentId, height);
    }
    let sortIndex = folder.sortIndex;
    if (input.sortIndex !== undefined) {
      // Siblings renumbered 0..n-1 with the folder at the position asked for (or last).
      const siblings = await tx.testerFolder.findMany({ where: { collectionId, parentId, id: { not: id } }, orderBy: [{ sortIndex: "asc" }, { createdAt: "asc" }, { id: "asc" }], select: { id: true, sortIndex: true } });
      sortIndex = Math.min(input.sortIndex, siblings.length);
      for (const [i, s] of siblings.entries()) {
        const want = i < sortIndex ? i : i + 1;
        if (s.sortIndex !== want) await tx.testerFolder.update({ where: { id: s.id }, data: { sortIndex: want } });
      }
    } else if (moved) {
      sortIndex = await nextFolderIndex(tx, collectionId, parentId);
    }
    const row = await tx.testerFolder.update({
      where: { id },
      data: {
        parentId,
        sortIndex,
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.auth !== undefined ? { auth: input.auth as Prisma.InputJsonValue } : {}),
        ...(input.scripts !== undefined ? { scripts: input.scripts as Prisma.InputJsonValue } : {}),
      },
    });
    await touch(tx, collectionId);
    return folderView(row);
  });
}

/** Deletes the folder, every folder inside it and all their requests, in one transaction. */
export async function deleteFolder(scope: NamespaceScope, id: string) {
  return transaction(async (tx) => {
    const { collectionId } = await findFolder(tx, scope, id);
    await collectionForWrite(tx, scope, collectionId);
    await findFolder(tx, scope, id); // still there once the lock is held
    const subtree = subtreeOf(await linksOf(tx, collectionId), id);
    const { count: deletedRequests } = await tx.testerRequest.deleteMany({ where: { collectionId, folderId: { in: subtree } } });
    // Children go with their parent (ON DELETE CASCADE).
    await tx.testerFolder.delete({ where: { id } });
    await touch(tx, collectionId);
    return { ok: true as const, deletedFolders: subtree.length, deletedRequests };
  });
}

/** A change inside a collection is a change of the collection (lists sort by it). */
export async function touch(tx: Tx, collectionId: string) {
  await tx.testerCollection.update({ where: { id: collectionId }, data: { updatedAt: new Date() } });
}
