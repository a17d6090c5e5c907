"use client";
// The tester's key/value table (query params, headers, urlencoded bodies,
// environment and collection variables), as in Postman: an enabled checkbox,
// key, value and description per row, an always-present empty last row that
// becomes a row when typed into, and a bulk edit of `key: value` lines.
// Arrow Up/Down and Enter move between rows in the same column. With
// `secrets`, each row can be marked secret: its value is masked, with a
// reveal button; a stored secret the server sent as SECRET_MASK stays masked
// until it is typed over.
import { Eye, EyeOff, Lock, LockOpen, Trash2 } from "lucide-react";
import { useId, useRef, useState } from "react";
import { cn } from "@/components/lib/cn";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { SECRET_MASK } from "@/server/contracts/tester-request";
import { bulkTextToRows, rowsToBulkText } from "./bulk-edit";
import { HighlightedInput } from "./highlighted-input";

export interface KeyValueRow {
  key: string;
  value: string;
  enabled: boolean;
  description?: string;
  secret?: boolean;
}

export interface KeyValueEditorProps {
  rows: readonly KeyValueRow[];
  onChange: (rows: KeyValueRow[]) => void;
  /** Accessible name of the table ("Query parameters"); also names each cell ("Query parameters 2 key"). */
  label: string;
  keyPlaceholder?: string;
  valuePlaceholder?: string;
  /** Show the description column (default true). */
  descriptions?: boolean;
  /** Offer a secret toggle per row (variables). */
  secrets?: boolean;
  /** Colour `{{variables}}` in values (names → values in scope). */
  variables?: Record<string, string>;
  /** Offer the bulk edit toggle (default true). */
  bulkEdit?: boolean;
  /** Rows with an empty key are marked invalid (variables need a name). */
  requireKey?: boolean;
  className?: string;
}

type Column = "key" | "value" | "description";
const CELL = "h-8 rounded-sm border-transparent bg-transparent px-2 shadow-none hover:border-input focus-visible:border-ring";

export function KeyValueEditor({ rows, onChange, label, keyPlaceholder = "Key", valuePlaceholder = "Value", descriptions = true, secrets = false, variables, bulkEdit = true, requireKey = false, className }: KeyValueEditorProps) {
  const hintId = useId();
  const [bulk, setBulk] = useState<string | null>(null);
  const [revealed, setRevealed] = useState<ReadonlySet<number>>(new Set());
  const table = useRef<HTMLTableElement>(null);
  const all = [...rows, { key: "", value: "", enabled: true } satisfies KeyValueRow];
  const enabledCount = rows.filter((r) => r.enabled).length;

  const update = (i: number, patch: Partial<KeyValueRow>) => {
    if (i === rows.length) onChange([...rows, { key: "", value: "", enabled: true, ...patch }]);
    else onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  };
  const remove = (i: number) => {
    onChange(rows.filter((_, j) => j !== i));
    setRevealed(new Set());
  };
  const focusCell = (row: number, col: Column) => table.current?.querySelector<HTMLInputElement>(`[data-cell="${row}:${col}"]`)?.focus();
  const onCellKey = (e: React.KeyboardEvent<HTMLInputElement>, row: number, col: Column) => {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    const next = e.key === "ArrowDown" || e.key === "Enter" ? row + 1 : e.key === "ArrowUp" ? row - 1 : null;
    if (next === null || next < 0 || next > rows.length) return;
    e.preventDefault();
    focusCell(next, col);
  };

  const cellProps = (i: number, col: Column, name: string) => ({
    "data-cell": `${i}:${col}`,
    "aria-label": `${label} ${i + 1} ${name}`,
    onKeyDown: (e: React.KeyboardEvent<HTMLInputElement>) => onCellKey(e, i, col),
  });

  return (
    <div className={cn("flex flex-col gap-2", className)}>
      {bulkEdit ? (
        <div className="flex items-center justify-end">
          <Button type="button" variant="link" size="sm" className="h-6 px-0" onClick={() => setBulk(bulk === null ? rowsToBulkText(rows) : null)} aria-pressed={bulk !== null}>
            {bulk === null ? "Bulk edit" : "Key-value edit"}
          </Button>
        </div>
      ) : null}
      {bulk !== null ? (
        <div className="flex flex-col gap-1">
          <textarea
            aria-label={`${label} (bulk edit)`}
            aria-describedby={hintId}
            className="min-h-40 rounded-md border border-input bg-background px-3 py-2 font-mono text-sm outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40"
            value={bulk}
            spellCheck={false}
            onChange={(e) => {
              setBulk(e.target.value);
              onChange(bulkTextToRows(e.target.value, rows));
            }}
          />
          <p id={hintId} className="text-xs text-muted-foreground">
            One <code className="font-mono">key: value</code> per line; start a line with <code className="font-mono">{"//"}</code> to disable it.
          </p>
        </div>
      ) : (
        <div className="overflow-x-auto rounded-md border">
          <table ref={table} aria-label={label} className="w-full table-fixed text-sm">
            <thead className="border-b bg-muted/40 text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="w-9 px-2 py-1.5">
                  <Checkbox
                    aria-label={`Enable all ${label.toLowerCase()}`}
                    checked={rows.length > 0 && enabledCount === rows.length ? true : enabledCount > 0 ? "indeterminate" : false}
                    disabled={rows.length === 0}
                    onCheckedChange={(c) => onChange(rows.map((r) => ({ ...r, enabled: c === true })))}
                  />
                </th>
                <th scope="col" className="px-2 py-1.5 text-left font-medium">
                  Key
                </th>
                <th scope="col" className="px-2 py-1.5 text-left font-medium">
                  Value
                </th>
                {descriptions ? (
                  <th scope="col" className="hidden px-2 py-1.5 text-left font-medium md:table-cell">
                    Description
                  </th>
                ) : null}
                <th scope="col" className={secrets ? "w-24" : "w-10"}>
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {all.map((row, i) => {
                const ghost = i === rows.length;
                const stored = row.secret === true && row.value === SECRET_MASK;
                const masked = row.secret === true && !revealed.has(i);
                return (
                  <tr key={i} className={cn("group border-b last:border-0", !row.enabled && !ghost && "text-muted-foreground")}>
                    <td className="px-2 py-1 align-middle">
                      {ghost ? null : <Checkbox aria-label={`Enable ${label.toLowerCase()} ${i + 1}`} checked={row.enabled} onCheckedChange={(c) => update(i, { enabled: c === true })} />}
                    </td>
                    <td className="px-1 py-1">
                      <input
                        {...cellProps(i, "key", "key")}
                        className={cn("w-full border font-mono outline-none focus-visible:ring-2 focus-visible:ring-ring/40", CELL, !row.enabled && !ghost && "line-through")}
                        placeholder={ghost ? `Add ${keyPlaceholder.toLowerCase()}` : keyPlaceholder}
                        value={row.key}
                        aria-invalid={requireKey && !ghost && row.key.trim() === "" ? true : undefined}
                        spellCheck={false}
                        onChange={(e) => update(i, { key: e.target.value })}
                      />
                    </td>
                    <td className="px-1 py-1">
                      {stored ? (
                        <input
                          {...cellProps(i, "value", "value")}
                          type="password"
                          className={cn("w-full border font-mono outline-none placeholder:text-muted-foreground", CELL)}
                          placeholder="Stored secret: type to replace"
                          value=""
                          onChange={(e) => update(i, { value: e.target.value })}
                        />
                      ) : masked || !variables ? (
                        <input
                          {...cellProps(i, "value", "value")}
                          type={masked ? "password" : "text"}
                          autoComplete="off"
                          spellCheck={false}
                          className={cn("w-full border font-mono outline-none focus-visible:ring-2 focus-visible:ring-ring/40", CELL)}
                          placeholder={valuePlaceholder}
                          value={row.value}
                          onChange={(e) => update(i, { value: e.target.value })}
                        />
                      ) : (
                        <HighlightedInput
                          {...cellProps(i, "value", "value")}
                          compact
                          boxClassName="rounded-sm border-transparent bg-transparent shadow-none hover:border-input"
                          placeholder={valuePlaceholder}
                          value={row.value}
                          onValueChange={(value) => update(i, { value })}
                          variables={variables}
                        />
                      )}
                    </td>
                    {descriptions ? (
                      <td className="hidden px-1 py-1 md:table-cell">
                        <input
                          {...cellProps(i, "description", "description")}
                          className={cn("w-full border outline-none focus-visible:ring-2 focus-visible:ring-ring/40", CELL)}
                          placeholder="Description"
                          value={row.description ?? ""}
                          onChange={(e) => update(i, { description: e.target.value })}
                        />
                      </td>
                    ) : null}
                    <td className="px-1 py-1">
                      {ghost ? null : (
                        <div className="flex items-center justify-end">
                          {secrets ? (
                            <>
                              <Button
                                type="button"
                                variant="ghost"
                                size="icon-sm"
                                aria-pressed={row.secret === true}
                                aria-label={`Secret ${label.toLowerCase()} ${i + 1}`}
                                title={row.secret ? "Secret: masked in views, history and exports" : "Mark as secret"}
                                onClick={() => update(i, { secret: !row.secret })}
                              >
                                {row.secret ? <Lock aria-hidden className="text-warning" /> : <LockOpen aria-hidden className="text-muted-foreground" />}
                              </Button>
                              <Button
                                type="button"
                                variant="ghost"
                                size="icon-sm"
                                disabled={!row.secret || stored}
                                aria-label={revealed.has(i) ? `Hide value ${i + 1}` : `Reveal value ${i + 1}`}
                                title={stored ? "The server does not send stored secrets back" : undefined}
                                onClick={() =>
                                  setRevealed((s) => {
                                    const next = new Set(s);
                                    if (next.has(i)) next.delete(i);
                                    else next.add(i);
                                    return next;
                                  })
                                }
                              >
                                {revealed.has(i) ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
                              </Button>
                            </>
                          ) : null}
                          <Button type="button" variant="ghost" size="icon-sm" className="opacity-60 group-hover:opacity-100 focus-visible:opacity-100" aria-label={`Delete ${label.toLowerCase()} ${i + 1}`} onClick={() => remove(i)}>
                            <Trash2 aria-hidden />
                          </Button>
                        </div>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
