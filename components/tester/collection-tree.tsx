"use client";
// The sidebar tree of collections → folders → requests. Search filters it
// (and opens every folder while it does); the arrow keys walk it (Right/Left
// open and close, Enter opens a request, F2 renames, Delete deletes,
// Shift+F10 opens the actions menu, Alt+Up/Down moves a request within its
// folder); requests are dragged to reorder them in a folder or to move them
// into another folder or collection. It only reports what the user asked for:
// the page saves it and passes the new collections back.
import { Copy, CopyPlus, FilePlus2, FolderPlus, Gauge, Import, Library, Pencil, Play, Search, Share2, SquareArrowOutUpRight, Trash2 } from "lucide-react";
import { useCallback, useMemo, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { SkeletonRows } from "@/components/ui/skeleton";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { buildTree, filterTree, type NodeRef, refOf, type TreeCollection, type TreeNode, visibleRows } from "./collection-tree-model";
import { CollectionTreeRow, type RowAction } from "./collection-tree-row";
import { useTreeDrag } from "./use-tree-drag";

export interface CollectionTreeProps {
  collections: readonly TreeCollection[] | undefined;
  isLoading?: boolean;
  error?: unknown;
  /** The request open in the editor (highlighted). */
  activeRequestId?: string | null;
  onOpenRequest: (requestId: string) => void;
  /** A container's requests in their new order (after a drag or Alt+Arrow). */
  onReorder: (collectionId: string, folderId: string | null, orderedIds: string[]) => void;
  /** Requests dropped into another folder or collection; a drop between two rows is followed by onReorder of the target. */
  onMove: (requestIds: string[], collectionId: string, folderId: string | null) => void;
  onCreateCollection?: () => void;
  onImport?: () => void;
  onCreateRequest?: (collectionId: string, folderId: string | null) => void;
  onCreateFolder?: (collectionId: string, parentFolderId: string | null) => void;
  onRename?: (node: NodeRef, name: string) => void;
  onDuplicate?: (node: NodeRef) => void;
  /** Offered on collections only. */
  onShare?: (node: NodeRef) => void;
  /** Called after the user confirmed. */
  onDelete?: (node: NodeRef) => void;
  onRun?: (collectionId: string, folderId: string | null) => void;
  /** "Load test…" on a collection or folder (its requests as a k6 load run). */
  onLoadTest?: (collectionId: string, folderId: string | null) => void;
  /** "Generate mocks" on a collection (from its recorded or fresh responses). */
  onGenerateMocks?: (collectionId: string) => void;
}

export function CollectionTree(props: CollectionTreeProps) {
  const { collections, isLoading, error, activeRequestId, onOpenRequest, onCreateCollection, onImport } = props;
  const [query, setQuery] = useState("");
  // Containers whose state the user flipped: collections start open, folders closed.
  const [flipped, setFlipped] = useState<ReadonlySet<string>>(new Set());
  const [focusKey, setFocusKey] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [menuKey, setMenuKey] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<TreeNode | null>(null);
  const rowEls = useRef(new Map<string, HTMLDivElement>());

  const tree = useMemo(() => buildTree(collections ?? []), [collections]);
  const sharedIn = useMemo(() => new Set((collections ?? []).filter((c) => c.sharedFrom).map((c) => c.id)), [collections]);
  const filtered = useMemo(() => filterTree(tree, query), [tree, query]);
  const searching = query.trim() !== "";
  const isOpen = useCallback((key: string) => searching || key.startsWith("c:") !== flipped.has(key), [searching, flipped]);
  const rows = useMemo(() => visibleRows(filtered, isOpen), [filtered, isOpen]);
  const byKey = useMemo(() => new Map(rows.map((r) => [r.node.key, r.node])), [rows]);
  const drag = useTreeDrag({ collections: collections ?? [], onMove: props.onMove, onReorder: props.onReorder, onExpand: (key) => toggle(key, true) });

  const current = focusKey && byKey.has(focusKey) ? focusKey : (rows.find((r) => r.node.type === "request" && r.node.id === activeRequestId)?.node.key ?? rows[0]?.node.key ?? null);
  const focusRow = (key: string | undefined) => {
    if (!key) return;
    setFocusKey(key);
    rowEls.current.get(key)?.focus();
  };
  function toggle(key: string, open?: boolean) {
    if (open !== undefined && open === isOpen(key)) return;
    setFlipped((s) => {
      const next = new Set(s);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }
  const activate = (node: TreeNode) => (node.type === "request" ? onOpenRequest(node.id) : toggle(node.key));

  function actionsFor(node: TreeNode): RowAction[] {
    const ref = refOf(node);
    const a: RowAction[] = [];
    if (sharedIn.has(node.collectionId)) {
      // Read-only here: open its requests, or copy the whole collection into this Space.
      if (node.type === "request") a.push({ label: "Open", icon: SquareArrowOutUpRight, onSelect: () => onOpenRequest(node.id), hint: "Enter" });
      if (node.type === "collection" && props.onDuplicate) a.push({ label: "Copy into this Space", icon: Copy, onSelect: () => props.onDuplicate?.(ref) });
      return a;
    }
    if (node.type === "request") a.push({ label: "Open", icon: SquareArrowOutUpRight, onSelect: () => onOpenRequest(node.id), hint: "Enter" });
    else {
      if (props.onCreateRequest) a.push({ label: "New request", icon: FilePlus2, onSelect: () => props.onCreateRequest?.(node.collectionId, node.folderId) });
      if (props.onCreateFolder) a.push({ label: "New folder", icon: FolderPlus, onSelect: () => props.onCreateFolder?.(node.collectionId, node.folderId) });
      if (props.onRun) a.push({ label: node.type === "collection" ? "Run collection" : "Run folder", icon: Play, onSelect: () => props.onRun?.(node.collectionId, node.folderId) });
      if (props.onLoadTest) a.push({ label: "Load test…", icon: Gauge, onSelect: () => props.onLoadTest?.(node.collectionId, node.folderId) });
      if (props.onGenerateMocks && node.type === "collection") a.push({ label: "Generate mocks", icon: CopyPlus, onSelect: () => props.onGenerateMocks?.(node.collectionId) });
    }
    if (props.onRename) a.push({ label: "Rename", icon: Pencil, onSelect: () => setRenaming(node.key), hint: "F2", separated: a.length > 0 });
    if (props.onDuplicate) a.push({ label: "Duplicate", icon: Copy, onSelect: () => props.onDuplicate?.(ref) });
    if (props.onShare && node.type === "collection") a.push({ label: "Share…", icon: Share2, onSelect: () => props.onShare?.(ref) });
    if (props.onDelete) a.push({ label: "Delete", icon: Trash2, onSelect: () => setDeleting(node), destructive: true, hint: "Del", separated: true });
    return a;
  }

  function onKeyDown(e: React.KeyboardEvent<HTMLDivElement>) {
    const target = e.target as HTMLElement;
    if (!e.currentTarget.contains(target) || target.tagName === "INPUT" || !current) return;
    const index = rows.findIndex((r) => r.node.key === current);
    const node = rows[index]?.node;
    if (!node) return;
    const container = node.type !== "request";
    const open = container && isOpen(node.key);
    const handled = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    if (e.altKey && (e.key === "ArrowUp" || e.key === "ArrowDown")) {
      if (node.type === "request") drag.nudge(node, e.key === "ArrowUp" ? -1 : 1);
      return handled();
    }
    switch (e.key) {
      case "ArrowDown":
        focusRow(rows[Math.min(rows.length - 1, index + 1)]?.node.key);
        return handled();
      case "ArrowUp":
        focusRow(rows[Math.max(0, index - 1)]?.node.key);
        return handled();
      case "Home":
        focusRow(rows[0]?.node.key);
        return handled();
      case "End":
        focusRow(rows[rows.length - 1]?.node.key);
        return handled();
      case "ArrowRight":
        if (container && !open) toggle(node.key, true);
        else if (container) focusRow(rows[index + 1]?.node.parentKey === node.key ? rows[index + 1].node.key : undefined);
        return handled();
      case "ArrowLeft":
        if (container && open && !searching) toggle(node.key, false);
        else focusRow(node.parentKey ?? undefined);
        return handled();
      case "Enter":
      case " ":
        if (e.ctrlKey || e.metaKey) return;
        activate(node);
        return handled();
      case "F2":
        if (props.onRename) setRenaming(node.key);
        return handled();
      case "Delete":
        if (props.onDelete) setDeleting(node);
        return handled();
      case "ContextMenu":
        setMenuKey(node.key);
        return handled();
      case "F10":
        if (e.shiftKey) {
          setMenuKey(node.key);
          return handled();
        }
    }
  }

  if (isLoading || (collections === undefined && !error)) return <SkeletonRows rows={5} label="Loading collections" />;
  if (error) return <ApiErrorAlert error={error} />;
  if (!collections?.length)
    return (
      <EmptyState
        icon={Library}
        title="No collections yet"
        action={
          <div className="flex flex-wrap justify-center gap-2">
            {onCreateCollection ? (
              <Button size="sm" onClick={onCreateCollection}>
                <Library aria-hidden /> Create a collection
              </Button>
            ) : null}
            {onImport ? (
              <Button size="sm" variant="outline" onClick={onImport}>
                <Import aria-hidden /> Import
              </Button>
            ) : null}
          </div>
        }
      >
        A collection groups requests in folders, with shared variables, auth and scripts. Create one, or import a Postman collection, an OpenAPI document or a HAR file.
      </EmptyState>
    );

  return (
    <div className="flex min-h-0 flex-col gap-2">
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input
          type="search"
          aria-label="Search requests"
          placeholder="Search requests"
          className="h-8 pl-8"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown") {
              e.preventDefault();
              focusRow(rows[0]?.node.key);
            }
          }}
        />
      </div>
      {rows.length === 0 ? (
        <p className="px-2 py-6 text-center text-sm text-muted-foreground">No request, folder or collection matches “{query.trim()}”.</p>
      ) : (
        <div role="tree" aria-label="Collections" className="flex flex-col overflow-y-auto" onKeyDown={onKeyDown}>
          {rows.map((row) => {
            const key = row.node.key;
            return (
              <CollectionTreeRow
                key={key}
                row={row}
                expanded={row.node.type !== "request" && isOpen(key)}
                focused={current === key}
                active={row.node.type === "request" && row.node.id === activeRequestId}
                renaming={renaming === key}
                menuOpen={menuKey === key}
                dropHint={drag.hint?.key === key ? drag.hint.position : null}
                actions={actionsFor(row.node)}
                onFocus={() => setFocusKey(key)}
                onClick={() => {
                  setFocusKey(key);
                  activate(row.node);
                }}
                onToggle={() => toggle(key)}
                onMenuOpenChange={(o) => setMenuKey(o ? key : null)}
                onRenamed={(name) => {
                  setRenaming(null);
                  if (name && name !== row.node.name) props.onRename?.(refOf(row.node), name);
                  focusRow(key);
                }}
                // A draggable row would keep the mouse from selecting text in the rename field.
                drag={renaming === key ? {} : drag.propsFor(row.node)}
                rowRef={(el) => {
                  if (el) rowEls.current.set(key, el);
                  else rowEls.current.delete(key);
                }}
              />
            );
          })}
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={`Delete ${deleting?.type ?? ""} “${deleting?.name ?? ""}”?`}
        description={deleting?.type === "request" ? "The request is deleted from its collection." : "Its folders and requests are deleted with it."}
        confirmLabel={`Delete ${deleting?.type ?? ""}`}
        onConfirm={() => {
          if (deleting) props.onDelete?.(refOf(deleting));
          setDeleting(null);
        }}
      />
    </div>
  );
}
