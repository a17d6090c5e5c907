// The collection tree as data: collections → nested folders → requests in
// their saved order, filtered by a search (a match keeps its ancestors; a
// matching folder keeps everything in it), flattened to the rows that are
// visible for rendering and arrow-key moves, and the new order of a
// folder's requests after a drop.

export interface TreeFolder {
  id: string;
  parentId: string | null;
  name: string;
  sortIndex: number;
}

export interface TreeRequest {
  id: string;
  name: string;
  method: string;
  url: string;
  kind: string;
  folderId: string | null;
  sortIndex: number;
}

export interface TreeCollection {
  id: string;
  name: string;
  /** Shared from another Space: it can be opened and copied here, not changed or run. */
  sharedFrom?: { namespace: string };
  folders: readonly TreeFolder[];
  requests: readonly TreeRequest[];
}

interface Base {
  key: string;
  id: string;
  collectionId: string;
  name: string;
  depth: number;
  parentKey: string | null;
}
export interface ContainerNode extends Base {
  type: "collection" | "folder";
  /** The folder itself, or null for a collection's top level. */
  folderId: string | null;
  children: TreeNode[];
}
export interface RequestNode extends Base {
  type: "request";
  /** The folder holding the request; null at the collection's top level. */
  folderId: string | null;
  method: string;
  url: string;
  kind: string;
}
export type TreeNode = ContainerNode | RequestNode;

/** What a menu action or callback is about. */
export type NodeRef = { type: TreeNode["type"]; id: string; collectionId: string; folderId: string | null; name: string };

export const nodeKey = (type: TreeNode["type"], id: string) => `${type[0]}:${id}`;

const bySort = <T extends { sortIndex: number; name: string }>(a: T, b: T) => a.sortIndex - b.sortIndex || a.name.localeCompare(b.name);

export function buildTree(collections: readonly TreeCollection[]): ContainerNode[] {
  return collections.map((c) => {
    const root: ContainerNode = { type: "collection", key: nodeKey("collection", c.id), id: c.id, collectionId: c.id, folderId: null, name: c.name, depth: 0, parentKey: null, children: [] };
    const fill = (parent: ContainerNode, folderId: string | null, seen: Set<string>) => {
      for (const f of c.folders.filter((x) => x.parentId === folderId).sort(bySort)) {
        if (seen.has(f.id)) continue; // a cycle in bad data must not hang the page
        seen.add(f.id);
        const node: ContainerNode = { type: "folder", key: nodeKey("folder", f.id), id: f.id, collectionId: c.id, folderId: f.id, name: f.name, depth: parent.depth + 1, parentKey: parent.key, children: [] };
        fill(node, f.id, seen);
        parent.children.push(node);
      }
      for (const r of c.requests.filter((x) => x.folderId === folderId).sort(bySort)) {
        parent.children.push({ type: "request", key: nodeKey("request", r.id), id: r.id, collectionId: c.id, folderId, name: r.name, depth: parent.depth + 1, parentKey: parent.key, method: r.method, url: r.url, kind: r.kind });
      }
    };
    fill(root, null, new Set());
    return root;
  });
}

/** The tree reduced to what matches `query` (case-insensitive: names, and a request's method and URL). */
export function filterTree(nodes: readonly TreeNode[], query: string): TreeNode[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...nodes];
  const out: TreeNode[] = [];
  for (const n of nodes) {
    if (n.type === "request") {
      if (`${n.name} ${n.method} ${n.url}`.toLowerCase().includes(q)) out.push(n);
    } else if (n.name.toLowerCase().includes(q)) out.push(n);
    else {
      const children = filterTree(n.children, q);
      if (children.length) out.push({ ...n, children });
    }
  }
  return out;
}

export interface VisibleRow {
  node: TreeNode;
  /** 1-based place among its siblings, and their count (aria-posinset / aria-setsize). */
  position: number;
  siblings: number;
}

/** Rows in display order; children of containers that are not open are skipped. */
export function visibleRows(nodes: readonly TreeNode[], isOpen: (key: string) => boolean): VisibleRow[] {
  const rows: VisibleRow[] = [];
  const walk = (list: readonly TreeNode[]) =>
    list.forEach((node, i) => {
      rows.push({ node, position: i + 1, siblings: list.length });
      if (node.type !== "request" && isOpen(node.key)) walk(node.children);
    });
  walk(nodes);
  return rows;
}

/** Request ids of one container (a collection's top level or a folder), in order. */
export function requestIdsIn(collection: TreeCollection, folderId: string | null): string[] {
  return collection.requests
    .filter((r) => r.folderId === folderId)
    .sort(bySort)
    .map((r) => r.id);
}

/** `siblings` with `moved` taken out and put before or after `targetId` (at the end when the target is not there). */
export function reorderIds(siblings: readonly string[], moved: readonly string[], targetId: string, position: "before" | "after"): string[] {
  const rest = siblings.filter((id) => !moved.includes(id));
  const at = rest.indexOf(targetId);
  if (at < 0) return [...rest, ...moved];
  const insert = position === "before" ? at : at + 1;
  return [...rest.slice(0, insert), ...moved, ...rest.slice(insert)];
}

export function refOf(node: TreeNode): NodeRef {
  return { type: node.type, id: node.id, collectionId: node.collectionId, folderId: node.folderId, name: node.name };
}
