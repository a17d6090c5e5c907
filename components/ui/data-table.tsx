"use client";
// The console's list tables, one component instead of the loading → error →
// empty → table ladder in every page: a skeleton while loading, the API
// envelope's message on error, an empty state that teaches, then the rows
// (@tanstack/react-table renders the columns). Rows can be searched in place,
// opened with Enter and walked with the arrow keys, expanded into details, and
// selected with a checkbox column (Space toggles the focused row) for batch actions.
import { type ColumnDef, type RowData, tableFeatures, useTable } from "@tanstack/react-table";
import type { LucideIcon } from "lucide-react";
import { Search } from "lucide-react";
import { Fragment, useMemo, useRef, useState } from "react";
import { cn } from "@/components/lib/cn";
import { ApiErrorAlert } from "./api-error-alert";
import { Checkbox } from "./checkbox";
import { EmptyState } from "./empty-state";
import { Input } from "./input";
import { SkeletonRows } from "./skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "./table";

const features = tableFeatures({});

export interface DataColumn<T extends RowData> {
  id: string;
  /** Column title; an empty string leaves a header only screen readers read (`srHeader`). */
  header: React.ReactNode;
  srHeader?: string;
  cell: (row: T) => React.ReactNode;
  className?: string;
  headClassName?: string;
}

/** Rows picked for a batch action; the page keeps the set (by `rowKey`) and clears it when its list changes. */
export interface RowSelection<T> {
  selected: ReadonlySet<string>;
  onChange: (keys: string[], on: boolean) => void;
  /** Accessible name of a row's checkbox ("Select orders-1"). */
  label: (row: T) => string;
  /** Accessible name of the header's checkbox, which (un)selects every shown row. */
  allLabel: string;
}

export interface DataTableProps<T extends RowData> {
  /** Accessible name of the table ("Users"); also names the loading state. */
  label: string;
  columns: DataColumn<T>[];
  /** Undefined while the first page loads. */
  data: T[] | undefined;
  isLoading?: boolean;
  error?: unknown;
  rowKey: (row: T) => string;
  /** What the list is for and how to add the first entry; shown when there are no rows at all. */
  empty: { icon: LucideIcon; title: string; body: React.ReactNode; action?: React.ReactNode };
  /** Shown instead of `empty` when a filter (ours or the page's) hides every row. */
  noMatch?: { title: string; body: React.ReactNode };
  /** The page filters on the server: its filter is on, so no rows means no match. */
  filtered?: boolean;
  /** A search box filtering the loaded rows by this text. */
  search?: { label: string; placeholder: string; text: (row: T) => string };
  /** Controls beside the search box (filters, pause…). */
  toolbar?: React.ReactNode;
  /** Enter on a focused row (and the row's main link) opens it. */
  onOpen?: (row: T) => void;
  /** Details under a row, when it is expanded (see `expandedKey`). */
  renderDetails?: (row: T) => React.ReactNode;
  expandedKey?: string | null;
  rowClassName?: (row: T) => string | undefined;
  rowProps?: (row: T) => React.ComponentProps<"tr"> & { [data: `data-${string}`]: string | undefined };
  /** A leading checkbox column; selected rows are marked `data-state="selected"`. */
  selection?: RowSelection<T>;
  /** Classes of the <table> itself (`table-fixed` for columns with set widths). */
  className?: string;
  footer?: React.ReactNode;
  skeletonRows?: number;
}

export function DataTable<T extends RowData>({
  label,
  columns,
  data,
  isLoading,
  error,
  rowKey,
  empty,
  noMatch,
  filtered,
  search,
  toolbar,
  onOpen,
  renderDetails,
  expandedKey,
  rowClassName,
  rowProps,
  selection,
  className,
  footer,
  skeletonRows = 4,
}: DataTableProps<T>) {
  const [query, setQuery] = useState("");
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  const needle = query.trim().toLowerCase();
  const shown = useMemo(() => (data && search && needle ? data.filter((row) => search.text(row).toLowerCase().includes(needle)) : (data ?? [])), [data, search, needle]);
  const allColumns = useMemo(() => (selection ? [selectColumn(selection, shown, rowKey), ...columns] : columns), [selection, shown, rowKey, columns]);
  const defs = useMemo<ColumnDef<typeof features, T>[]>(
    () => allColumns.map((c) => ({ id: c.id, header: () => c.header, cell: (ctx) => c.cell(ctx.row.original) })),
    [allColumns],
  );
  const table = useTable({ features, columns: defs, data: shown, getRowId: (row) => rowKey(row) });

  function onRowKey(e: React.KeyboardEvent<HTMLTableRowElement>, index: number, row: T) {
    if (e.target !== e.currentTarget) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      rows.current[Math.max(0, Math.min(shown.length - 1, index + (e.key === "ArrowDown" ? 1 : -1)))]?.focus();
    } else if (e.key === "Enter" && onOpen) {
      e.preventDefault();
      onOpen(row);
    } else if (e.key === " " && selection) {
      e.preventDefault();
      const key = rowKey(row);
      selection.onChange([key], !selection.selected.has(key));
    }
  }

  const bar =
    search || toolbar ? (
      <div className="flex flex-wrap items-center gap-2">
        {search ? (
          <div className="relative max-w-sm min-w-56 flex-1">
            <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
            <Input type="search" aria-label={search.label} placeholder={search.placeholder} className="pl-9" value={query} onChange={(e) => setQuery(e.target.value)} />
          </div>
        ) : null}
        {toolbar}
      </div>
    ) : null;

  let body: React.ReactNode;
  if (isLoading || (data === undefined && !error)) body = <SkeletonRows rows={skeletonRows} label={`Loading ${label.toLowerCase()}`} />;
  else if (error) body = <ApiErrorAlert error={error} />;
  else if (shown.length === 0 && (needle || filtered))
    body = (
      <EmptyState icon={Search} title={noMatch?.title ?? "Nothing matches"}>
        {noMatch?.body ?? "Try fewer or other words, or clear the filters."}
      </EmptyState>
    );
  else if (shown.length === 0)
    body = (
      <EmptyState icon={empty.icon} title={empty.title} action={empty.action}>
        {empty.body}
      </EmptyState>
    );
  else
    body = (
      <Table aria-label={label} className={className}>
        <TableHeader>
          {table.getHeaderGroups().map((group) => (
            <TableRow key={group.id}>
              {group.headers.map((header, i) => {
                const col = allColumns[i]!;
                return (
                  <TableHead key={header.id} className={col.headClassName}>
                    {col.srHeader ? <span className="sr-only">{col.srHeader}</span> : <table.FlexRender header={header} />}
                  </TableHead>
                );
              })}
            </TableRow>
          ))}
        </TableHeader>
        <TableBody>
          {table.getRowModel().rows.map((row, index) => {
            const original = row.original;
            const extra = rowProps?.(original) ?? {};
            return (
              <Fragment key={row.id}>
                <TableRow
                  {...extra}
                  ref={(el) => {
                    rows.current[index] = el;
                  }}
                  tabIndex={0}
                  data-state={selection?.selected.has(row.id) ? "selected" : extra["data-state"]}
                  onKeyDown={(e) => {
                    extra.onKeyDown?.(e);
                    onRowKey(e, index, original);
                  }}
                  className={cn("outline-none focus-visible:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset", rowClassName?.(original), extra.className)}
                >
                  {row.getAllCells().map((cell, i) => (
                    <TableCell key={cell.id} className={allColumns[i]!.className}>
                      <table.FlexRender cell={cell} />
                    </TableCell>
                  ))}
                </TableRow>
                {renderDetails && expandedKey === row.id ? (
                  <TableRow className="hover:bg-transparent">
                    <TableCell colSpan={allColumns.length}>{renderDetails(original)}</TableCell>
                  </TableRow>
                ) : null}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
    );

  return (
    <div className="flex flex-col gap-3">
      {bar}
      {body}
      {footer}
    </div>
  );
}

/** The checkbox column of a table with `selection`: the header's box covers every shown row. */
function selectColumn<T extends RowData>(selection: RowSelection<T>, shown: T[], rowKey: (row: T) => string): DataColumn<T> {
  const keys = shown.map(rowKey);
  const allOn = keys.length > 0 && keys.every((k) => selection.selected.has(k));
  const someOn = keys.some((k) => selection.selected.has(k));
  return {
    id: "select",
    header: <Checkbox aria-label={selection.allLabel} checked={allOn ? true : someOn ? "indeterminate" : false} onCheckedChange={(v) => selection.onChange(keys, v === true)} />,
    headClassName: "w-10",
    cell: (row) => {
      const key = rowKey(row);
      return <Checkbox aria-label={selection.label(row)} checked={selection.selected.has(key)} onCheckedChange={(v) => selection.onChange([key], v === true)} />;
    },
  };
}
