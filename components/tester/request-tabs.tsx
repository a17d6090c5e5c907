"use client";
// The open requests as tabs above the editor: method and name, a dot while a
// tab has unsaved changes (the close button shows on hover), middle click
// closes, Left/Right/Home/End move between tabs and Delete closes the focused
// one. Ctrl+W is left to the browser on purpose.
import { Plus, X } from "lucide-react";
import { useRef } from "react";
import { cn } from "@/components/lib/cn";
import { Button } from "@/components/ui/button";
import { MethodBadge } from "./method-badge";

export interface RequestTab {
  id: string;
  name: string;
  method: string;
  kind?: string;
  /** Unsaved changes. */
  dirty?: boolean;
}

export interface RequestTabsProps {
  tabs: readonly RequestTab[];
  activeId: string | null;
  onSelect: (id: string) => void;
  onClose: (id: string) => void;
  onNew?: () => void;
  /** Id of the element showing the active request (aria-controls). */
  panelId?: string;
  className?: string;
}

const KIND_BADGE: Record<string, string> = { graphql: "GQL", soap: "SOAP" };

export function RequestTabs({ tabs, activeId, onSelect, onClose, onNew, panelId, className }: RequestTabsProps) {
  const refs = useRef(new Map<string, HTMLDivElement>());
  const go = (index: number) => {
    const tab = tabs[(index + tabs.length) % tabs.length];
    if (!tab) return;
    onSelect(tab.id);
    refs.current.get(tab.id)?.focus();
  };
  return (
    <div className={cn("flex min-w-0 items-end border-b", className)}>
      <div role="tablist" aria-label="Open requests" className="flex min-w-0 overflow-x-auto">
        {tabs.map((t, i) => {
          const active = t.id === activeId;
          return (
            <div
              key={t.id}
              ref={(el) => {
                if (el) refs.current.set(t.id, el);
                else refs.current.delete(t.id);
              }}
              role="tab"
              aria-selected={active}
              aria-controls={active ? panelId : undefined}
              tabIndex={active || (activeId === null && i === 0) ? 0 : -1}
              title={`${t.method} ${t.name}${t.dirty ? " (unsaved changes)" : ""}`}
              onClick={() => onSelect(t.id)}
              onMouseDown={(e) => e.button === 1 && e.preventDefault()}
              onAuxClick={(e) => {
                if (e.button !== 1) return;
                e.preventDefault();
                onClose(t.id);
              }}
              onKeyDown={(e) => {
                const keys: Record<string, () => void> = {
                  ArrowRight: () => go(i + 1),
                  ArrowLeft: () => go(i - 1),
                  Home: () => go(0),
                  End: () => go(tabs.length - 1),
                  Delete: () => onClose(t.id),
                  Enter: () => onSelect(t.id),
                };
                const run = keys[e.key];
                if (!run || e.ctrlKey || e.metaKey || e.altKey) return;
                e.preventDefault();
                run();
              }}
              className={cn(
                "group relative flex h-9 max-w-56 min-w-28 shrink-0 cursor-pointer items-center gap-1.5 border-r px-3 text-sm outline-none select-none hover:bg-accent/60 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset",
                active ? "bg-background font-medium after:absolute after:inset-x-0 after:top-0 after:h-0.5 after:bg-primary" : "bg-muted/40 text-muted-foreground",
              )}
            >
              <MethodBadge method={KIND_BADGE[t.kind ?? ""] ?? t.method} short />
              <span className="min-w-0 flex-1 truncate">{t.name}</span>
              {t.dirty ? <span className="sr-only">, unsaved changes</span> : null}
              <span className="relative flex size-5 shrink-0 items-center justify-center">
                {t.dirty ? <span aria-hidden className="absolute size-2 rounded-full bg-foreground/70 group-hover:hidden" /> : null}
                <button
                  type="button"
                  tabIndex={-1}
                  aria-label={`Close ${t.name}`}
                  title="Close (middle click)"
                  className={cn("flex size-5 items-center justify-center rounded-sm hover:bg-accent", t.dirty ? "hidden group-hover:flex" : active ? "flex" : "invisible group-hover:visible")}
                  onClick={(e) => {
                    e.stopPropagation();
                    onClose(t.id);
                  }}
                >
                  <X className="size-3.5" aria-hidden />
                </button>
              </span>
            </div>
          );
        })}
      </div>
      {onNew ? (
        <Button type="button" variant="ghost" size="icon-sm" className="mb-0.5 ml-1" aria-label="New request" title="New request" onClick={onNew}>
          <Plus aria-hidden />
        </Button>
      ) : null}
    </div>
  );
}
