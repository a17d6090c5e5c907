// A collection as one nested tree: the native export (format
// polymock-collection v1, server/contracts/tester-native-format.ts) and what
// the run executor loads. At every level a folder's subfolders come first
// (each with everything inside it), then its own requests, each group by
// position: the order the workspace draws top to bottom and a run follows.
import type { RequestAuth, RequestDefinition, Scripts, Variable } from "@/server/contracts/tester-request";
import { NATIVE_COLLECTION_FORMAT, NATIVE_COLLECTION_VERSION, type NativeCollectionDocument, type NativeItem } from "@/server/contracts/tester-native-format";
import { db, type TesterCollection, type TesterFolder, type TesterRequest } from "@/server/db/client";
import type { NamespaceScope } from "../namespace-access";
import { inTrash } from "./access";
import { reachCollection, refuseCrossSpace } from "./collection-access";
import { maskVariables, openVariables, storedVariables } from "./secrets";
import { authOf, definitionOf, scriptsOf } from "./views";

interface Tree {
  collection: TesterCollection;
  children: Map<string | null, TesterFolder[]>;
  requests: Map<string | null, TesterRequest[]>;
}

const bySort = <T extends { sortIndex: number; createdAt: Date; id: string }>(a: T, b: T) =>
  a.sortIndex - b.sortIndex || a.createdAt.getTime() - b.createdAt.getTime() || a.id.localeCompare(b.id);

function group<T>(rows: T[], key: (row: T) => string | null): Map<string | null, T[]> {
  const out = new Map<string | null, T[]>();
  for (const row of rows) out.set(key(row), [...(out.get(key(row)) ?? []), row]);
  return out;
}

/** A collection of the Space or one shared into it; running a shared one is refused (403) before its content is read. */
async function loadTree(scope: NamespaceScope, id: string, purpose: "view" | "execute"): Promise<Tree> {
  const reach = await reachCollection(scope, id);
  refuseCrossSpace(reach, purpose);
  const { collection } = reach;
  const folders = await db().testerFolder.findMany({ where: { collectionId: id } });
  const requests = await db().testerRequest.findMany({ where: { collectionId: id } });
  const children = group(folders.sort(bySort), (f) => f.parentId);
  return { collection, children, requests: group(requests.sort(bySort), (r) => r.folderId) };
}

/** Folders depth-first, subfolders before the folder's own requests. */
function walk(tree: Tree, onFolder: (folder: TesterFolder, path: string[]) => void, onRequest: (request: TesterRequest, path: string[]) => void) {
  const seen = new Set<string>();
  const visit = (parentId: string | null, path: string[]) => {
    for (const folder of tree.children.get(parentId) ?? []) {
      if (seen.has(folder.id)) continue;
      seen.add(folder.id);
      onFolder(folder, path);
      visit(folder.id, [...path, folder.name]);
    }
    for (const request of tree.requests.get(parentId) ?? []) onRequest(request, path);
  };
  visit(null, []);
}

function fileNameOf(name: string): string {
  const base = name.normalize("NFKD").replace(/[^\w.-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 100) || "collection";
  return `${base}.polymock-collection.json`;
}

/** The native document of a collection (one in the trash too); secret values are masked. */
export async function exportCollection(scope: NamespaceScope, id: string): Promise<{ document: NativeCollectionDocument; fileName: string }> {
  const tree = await loadTree(scope, id, "view");
  const root: NativeItem[] = [];
  const itemsOf = new Map<string, NativeItem[]>();
  const place = (parentId: string | null, item: NativeItem) => (parentId ? itemsOf.get(parentId)! : root).push(item);
  walk(
    tree,
    (folder) => {
      const items: NativeItem[] = [];
      itemsOf.set(folder.id, items);
      place(folder.parentId, { type: "folder", name: folder.name, description: folder.description, auth: authOf(folder.auth, "inherit"), scripts: scriptsOf(folder.scripts), items });
    },
    (request) => place(request.folderId, { type: "request", name: request.name, request: definitionOf(request) }),
  );
  const { collection } = tree;
  return {
    document: {
      format: NATIVE_COLLECTION_FORMAT,
      version: NATIVE_COLLECTION_VERSION,
      exportedAt: new Date().toISOString(),
      collection: {
        name: collection.name,
        description: collection.description,
        variables: maskVariables(storedVariables(collection.variables)),
        auth: authOf(collection.auth, "none"),
        scripts: scriptsOf(collection.scripts),
      },
      items: root,
    },
    fileName: fileNameOf(collection.name),
  };
}

export interface FolderForRun {
  id: string;
  parentId: string | null;
  name: string;
  /** Names of the folders above it, from the collection's root down. */
  path: string[];
  auth: RequestAuth;
  scripts: Scripts;
}

export interface RequestForRun {
  id: string;
  name: string;
  folderId: string | null;
  /** Names of the folders it is in, from the root down (RunRequestResult.path). */
  path: string[];
  definition: RequestDefinition;
}

export interface CollectionForRun {
  id: string;
  name: string;
  /** Real values: secrets decrypted. Never return these from the API. */
  variables: Variable[];
  auth: RequestAuth;
  scripts: Scripts;
  /** Depth-first, parents before children. */
  folders: FolderForRun[];
  /** In run order: at each level the subfolders' requests, then the level's own. */
  requests: RequestForRun[];
}

/** A collection with its real variable values, for the run executor; 409 while it is in the trash, 403 when shared from another Space. */
export async function loadCollectionForRun(scope: NamespaceScope, id: string): Promise<CollectionForRun> {
  const tree = await loadTree(scope, id, "execute");
  if (tree.collection.deletedAt) throw inTrash(tree.collection);
  const folders: FolderForRun[] = [];
  const requests: RequestForRun[] = [];
  walk(
    tree,
    (f, path) => folders.push({ id: f.id, parentId: f.parentId, name: f.name, path, auth: authOf(f.auth, "inherit"), scripts: scriptsOf(f.scripts) }),
    (r, path) => requests.push({ id: r.id, name: r.name, folderId: r.folderId, path, definition: definitionOf(r) }),
  );
  const { collection } = tree;
  return {
    id: collection.id,
    name: collection.name,
    variables: openVariables(storedVariables(collection.variables)),
    auth: authOf(collection.auth, "none"),
    scripts: scriptsOf(collection.scripts),
    folders,
    requests,
  };
}
