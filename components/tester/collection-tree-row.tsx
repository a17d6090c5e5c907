"use client";
// One row of the collection tree: chevron, icon or method badge, the name
// (an input while it is renamed), and its actions menu, which a right-click,
// Shift+F10 or the context-menu key opens as well as the ⋯ button. Drop
// hints draw a line above or below the row, or a ring when dropping into it.
import { ChevronRight, FolderClosed, FolderOpen, Library, MoreHorizontal, type LucideIcon } from "lucide-react";
import { Fragment, useEffect, useRef, useState } from "react";
import { cn } from "@/components/lib/cn";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import type { VisibleRow } from "./collection-tree-model";
import { MethodBadge } from "./method-badge";

export interface RowAction {
  label: string;
  icon: LucideIcon;
  onSelect: () => void;
  destructive?: boolean;
  /** Shown at the right of the item ("F2", "Del"). */
  hint?: string;
  /** Draw a separator above this item. */
  separated?: boolean;
}

export type DropHint = "before" | "after" | "inside";

export interface CollectionTreeRowProps {
  row: VisibleRow;
  expanded: boolean;
  focused: boolean;
  active: boolean;
  renaming: boolean;
  menuOpen: boolean;
  dropHint: DropHint | null;
  actions: RowAction[];
  onFocus: () => void;
  onClick: () => void;
  onToggle: () => void;
  onMenuOpenChange: (open: boolean) => void;
  /** The new name, or null when renaming was cancelled. */
  onRenamed: (name: string | null) => void;
  drag: Pick<React.ComponentProps<"div">, "draggable" | "onDragStart" | "onDragEnd" | "onDragOver" | "onDragLeave" | "onDrop">;
  rowRef: (el: HTMLDivElement | null) => void;
}

const KIND_BADGE: Record<string, string> = { graphql: "GQL", soap: "SOAP" };

export function CollectionTreeRow({ row, expanded, focused, active, renaming, menuOpen, dropHint, actions, onFocus, onClick, onToggle, onMenuOpenChange, onRenamed, drag, rowRef }: CollectionTreeRowProps) {
  const { node } = row;
  const container = node.type !== "request";
  const el = useRef<HTMLDivElement | null>(null);
  const Icon = node.type === "collection" ? Library : expanded ? FolderOpen : FolderClosed;
  return (
    <div
      ref={(e) => {
        el.current = e;
        rowRef(e);
      }}
      role="treeitem"
      aria-level={node.depth + 1}
      aria-posinset={row.position}
      aria-setsize={row.siblings}
      aria-expanded={container ? expanded : undefined}
      aria-selected={node.type === "request" ? active : undefined}
      tabIndex={focused ? 0 : -1}
      data-key={node.key}
      onFocus={(e) => e.target === e.currentTarget && onFocus()}
      onClick={onClick}
      onContextMenu={(e) => {
        e.preventDefault();
        onFocus();
        onMenuOpenChange(true);
      }}
      {...drag}
      className={cn(
        "group relative flex h-8 cursor-pointer items-center gap-1.5 rounded-md pr-1 text-sm outline-none select-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
        active && "bg-accent font-medium",
        dropHint === "inside" && "ring-2 ring-primary ring-inset",
        dropHint === "before" && "before:absolute before:inset-x-1 before:top-0 before:h-0.5 before:bg-primary",
        dropHint === "after" && "after:absolute after:inset-x-1 after:bottom-0 after:h-0.5 after:bg-primary",
      )}
      style={{ paddingLeft: 4 + node.depth * 14 }}
    >
      {container ? (
        <span
          aria-hidden
          className="flex size-4 shrink-0 items-center justify-center text-muted-foreground"
          onClick={(e) => {
            e.stopPropagation();
            onToggle();
          }}
        >
          <ChevronRight className={cn("size-3.5 transition-transform", expanded && "rotate-90")} />
        </span>
      ) : (
        <span className="w-1 shrink-0" aria-hidden />
      )}
      {container ? <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden /> : <MethodBadge method={KIND_BADGE[node.kind] ?? node.method} short />}
      {renaming ? (
        <RenameInput name={node.name} onDone={onRenamed} />
      ) : (
        <span className={cn("min-w-0 flex-1 truncate", node.type === "collection" && "font-medium")} title={node.type === "request" ? `${node.method} ${node.url}` : node.name}>
          {node.name}
        </span>
      )}
      {actions.length ? (
        <DropdownMenu open={menuOpen} onOpenChange={onMenuOpenChange}>
          <DropdownMenuTrigger asChild>
            <button
              type="button"
              tabIndex={-1}
              aria-label={`Actions for ${node.name}`}
              className={cn("ml-auto flex size-6 shrink-0 items-center justify-center rounded-sm text-muted-foreground opacity-0 outline-none group-hover:opacity-100 hover:bg-background focus-visible:opacity-100", (menuOpen || focused) && "opacity-100")}
              onClick={(e) => e.stopPropagation()}
            >
              <MoreHorizontal className="size-4" aria-hidden />
            </button>
          </DropdownMenuTrigger>
          <DropdownMenuContent
            align="start"
            onClick={(e) => e.stopPropagation()}
            onCloseAutoFocus={(e) => {
              // Back to the row, not the hidden ⋯ button, so the arrow keys go on working.
              e.preventDefault();
              el.current?.focus();
            }}
          >
            {actions.map((a) => (
              <Fragment key={a.label}>
                {a.separated ? <DropdownMenuSeparator /> : null}
                <DropdownMenuItem variant={a.destructive ? "destructive" : undefined} onSelect={a.onSelect}>
                  <a.icon aria-hidden /> {a.label}
                  {a.hint ? <span className="ml-auto pl-4 text-xs text-muted-foreground">{a.hint}</span> : null}
                </DropdownMenuItem>
              </Fragment>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
      ) : null}
    </div>
  );
}

/** Enter or leaving the field keeps the name, Escape cancels; focus is taken after the menu that started the rename has given it back. */
function RenameInput({ name, onDone }: { name: string; onDone: (name: string | null) => void }) {
  const [value, setValue] = useState(name);
  const input = useRef<HTMLInputElement>(null);
  const done = useRef(false);
  const finish = (v: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(v);
  };
  useEffect(() => {
    const t = setTimeout(() => {
      input.current?.focus();
      input.current?.select();
    }, 0);
    return () => clearTimeout(t);
  }, []);
  return (
    <input
      ref={input}
      aria-label={`New name for ${name}`}
      className="h-6 min-w-0 flex-1 rounded-sm border border-ring bg-background px-1.5 text-sm outline-none"
      value={value}
      onChange={(e) => setValue(e.target.value)}
      onClick={(e) => e.stopPropagation()}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === "Enter") finish(value.trim() || null);
        else if (e.key === "Escape") finish(null);
      }}
      onBlur={() => finish(value.trim() || null)}
    />
  );
}
