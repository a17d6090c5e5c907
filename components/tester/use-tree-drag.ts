"use client";
// Drag and drop of requests in the collection tree (HTML5 drag and drop):
// a drop on the upper or lower half of a request puts the dragged one before
// or after it, in that request's folder; a drop on a folder or collection
// moves it in there. Alt+Arrow (`nudge`) does the same one step at a time
// from the keyboard.
import { useRef, useState } from "react";
import { type RequestNode, requestIdsIn, reorderIds, type TreeCollection, type TreeNode } from "./collection-tree-model";
import type { DropHint } from "./collection-tree-row";

/** The drag's payload type, so other drop zones of the page can accept tester requests. */
export const DRAG_TESTER_REQUESTS = "application/x-polymock-tester-requests";

interface Source {
  ids: string[];
  collectionId: string;
  folderId: string | null;
}

export interface TreeDragOptions {
  collections: readonly TreeCollection[];
  onReorder: (collectionId: string, folderId: string | null, orderedIds: string[]) => void;
  onMove: (requestIds: string[], collectionId: string, folderId: string | null) => void;
  /** A container something was dropped into, to show it open. */
  onExpand: (key: string) => void;
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

export function useTreeDrag({ collections, onReorder, onMove, onExpand }: TreeDragOptions) {
  const [hint, setHint] = useState<{ key: string; position: DropHint } | null>(null);
  const source = useRef<Source | null>(null);
  const show = (key: string, position: DropHint) => setHint((h) => (h?.key === key && h.position === position ? h : { key, position }));

  function drop(target: TreeNode, position: DropHint) {
    const src = source.current;
    source.current = null;
    setHint(null);
    if (!src) return;
    const sameContainer = src.collectionId === target.collectionId && src.folderId === target.folderId;
    if (target.type !== "request") {
      if (sameContainer) return;
      onMove(src.ids, target.collectionId, target.folderId);
      onExpand(target.key);
      return;
    }
    if (src.ids.includes(target.id)) return;
    const collection = collections.find((c) => c.id === target.collectionId);
    if (!collection) return;
    const siblings = requestIdsIn(collection, target.folderId);
    const order = reorderIds(siblings, src.ids, target.id, position === "before" ? "before" : "after");
    if (!sameContainer) onMove(src.ids, target.collectionId, target.folderId);
    if (!same(order, siblings)) onReorder(target.collectionId, target.folderId, order);
  }

  function propsFor(node: TreeNode): Pick<React.ComponentProps<"div">, "draggable" | "onDragStart" | "onDragEnd" | "onDragOver" | "onDragLeave" | "onDrop"> {
    const positionOf = (e: React.DragEvent<HTMLDivElement>): DropHint => {
      if (node.type !== "request") return "inside";
      const box = e.currentTarget.getBoundingClientRect();
      return e.clientY < box.top + box.height / 2 ? "before" : "after";
    };
    return {
      draggable: node.type === "request" ? true : undefined,
      onDragStart:
        node.type === "request"
          ? (e) => {
              source.current = { ids: [node.id], collectionId: node.collectionId, folderId: node.folderId };
              e.dataTransfer.setData(DRAG_TESTER_REQUESTS, JSON.stringify(source.current));
              e.dataTransfer.setData("text/plain", node.name);
              e.dataTransfer.effectAllowed = "move";
            }
          : undefined,
      onDragEnd: () => {
        source.current = null;
        setHint(null);
      },
      onDragOver: (e) => {
        if (!source.current || !e.dataTransfer.types.includes(DRAG_TESTER_REQUESTS)) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "move";
        show(node.key, positionOf(e));
      },
      onDragLeave: (e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setHint((h) => (h?.key === node.key ? null : h));
      },
      onDrop: (e) => {
        if (!source.current) return;
        e.preventDefault();
        drop(node, positionOf(e));
      },
    };
  }

  /** Moves a request one place up (-1) or down (+1) among its folder's requests. */
  function nudge(node: RequestNode, delta: -1 | 1) {
    const collection = collections.find((c) => c.id === node.collectionId);
    if (!collection) return;
    const ids = requestIdsIn(collection, node.folderId);
    const at = ids.indexOf(node.id);
    const to = at + delta;
    if (at < 0 || to < 0 || to >= ids.length) return;
    const order = [...ids];
    [order[at], order[to]] = [order[to], order[at]];
    onReorder(node.collectionId, node.folderId, order);
  }

  return { hint, propsFor, nudge };
}
