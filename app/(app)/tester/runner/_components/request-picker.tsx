"use client";
// Which requests of the collection the run sends: the collection's folders
// and requests in tree order, each with a checkbox (all checked at first). A
// folder's box covers everything inside it and shows "some" when only part
// is checked. The page keeps the unchecked ids, so a request added to the
// collection later is run by default.
import { useId, useMemo } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { buildTree, type TreeNode } from "@/components/tester/collection-tree-model";
import { MethodBadge } from "@/components/tester/method-badge";
import type { CollectionView } from "@/server/contracts/tester-collections";

export interface RequestPickerProps {
  collection: CollectionView;
  /** Ids of the requests left out. */
  excluded: ReadonlySet<string>;
  onChange: (excluded: Set<string>) => void;
  disabled?: boolean;
}

function requestIdsOf(node: TreeNode): string[] {
  return node.type === "request" ? [node.id] : node.children.flatMap(requestIdsOf);
}

/** The requests the run sends, in tree order (the order the runner sends them in). */
export function selectedRequestIds(collection: CollectionView, excluded: ReadonlySet<string>): string[] {
  return buildTree([collection]).flatMap(requestIdsOf).filter((id) => !excluded.has(id));
}

export function RequestPicker({ collection, excluded, onChange, disabled }: RequestPickerProps) {
  const root = useMemo(() => buildTree([collection])[0]!, [collection]);
  const all = useMemo(() => requestIdsOf(root), [root]);
  const chosen = all.filter((id) => !excluded.has(id)).length;

  const set = (ids: string[], on: boolean) => {
    const next = new Set(excluded);
    for (const id of ids) {
      if (on) next.delete(id);
      else next.add(id);
    }
    onChange(next);
  };

  return (
    <fieldset className="flex min-w-0 flex-col gap-2" disabled={disabled}>
      <legend className="sr-only">Requests</legend>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-sm font-medium" aria-hidden>
          Requests
        </span>
        <div className="flex items-center gap-2">
          <span className="text-xs text-muted-foreground tabular-nums" aria-live="polite">
            {chosen} of {all.length} selected
          </span>
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange(new Set())} disabled={disabled || chosen === all.length}>
            Select all
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={() => onChange(new Set(all))} disabled={disabled || chosen === 0}>
            Select none
          </Button>
        </div>
      </div>
      {all.length === 0 ? (
        <p className="rounded-md border border-dashed px-3 py-4 text-sm text-muted-foreground">This collection has no requests yet. Save requests into it in the workspace, then run it here.</p>
      ) : (
        <ul aria-label="Requests to run" className="max-h-80 overflow-auto rounded-md border p-2">
          {root.children.map((node) => (
            <PickerNode key={node.key} node={node} excluded={excluded} onSet={set} />
          ))}
        </ul>
      )}
      {all.length > 0 && chosen === 0 ? <p className="text-xs font-medium text-destructive">Select at least one request to run.</p> : null}
    </fieldset>
  );
}

function PickerNode({ node, excluded, onSet }: { node: TreeNode; excluded: ReadonlySet<string>; onSet: (ids: string[], on: boolean) => void }) {
  const id = useId();
  const indent = { paddingLeft: `${(node.depth - 1) * 1.25}rem` };
  if (node.type === "request") {
    return (
      <li className="flex items-center gap-2 rounded-sm py-1 pr-2 hover:bg-accent/50" style={indent}>
        <Checkbox id={id} checked={!excluded.has(node.id)} onCheckedChange={(v) => onSet([node.id], v === true)} />
        <label htmlFor={id} className="flex min-w-0 flex-1 cursor-pointer items-center gap-2 text-sm">
          <MethodBadge method={node.method} short />
          <span className="truncate">{node.name}</span>
        </label>
      </li>
    );
  }
  const ids = requestIdsOf(node);
  const on = ids.filter((r) => !excluded.has(r)).length;
  return (
    <li>
      <div className="flex items-center gap-2 rounded-sm py-1 pr-2 hover:bg-accent/50" style={indent}>
        <Checkbox id={id} disabled={ids.length === 0} checked={ids.length > 0 && on === ids.length ? true : on > 0 ? "indeterminate" : false} onCheckedChange={(v) => onSet(ids, v === true)} aria-label={`Folder ${node.name}`} />
        <label htmlFor={id} className="flex-1 cursor-pointer truncate text-sm font-medium">
          {node.name}
          <span className="ml-2 text-xs font-normal text-muted-foreground">
            {on} of {ids.length}
          </span>
        </label>
      </div>
      {node.children.length ? (
        <ul>
          {node.children.map((child) => (
            <PickerNode key={child.key} node={child} excluded={excluded} onSet={onSet} />
          ))}
        </ul>
      ) : null}
    </li>
  );
}
