"use client";
// Columns that many DataTables repeat, built once: the row's name linking to
// its page (with a second line under it), when it started, and a trash
// button that stays disabled, saying why, while the row cannot be deleted.
import type { RowData } from "@tanstack/react-table";
import { Trash2 } from "lucide-react";
import Link from "next/link";
import { formatDateTime, formatRelative } from "@/components/lib/format";
import { Button } from "./button";
import type { DataColumn } from "./data-table";

/** The row's name as the link to its page, with an optional muted line under it. */
export function titleColumn<T extends RowData>({ header, className, href, title, subtitle }: { header: string; className?: string; href: (row: T) => string; title: (row: T) => string; subtitle?: (row: T) => React.ReactNode }): DataColumn<T> {
  return {
    id: "name",
    header,
    className,
    cell: (row) => (
      <div className="flex min-w-0 flex-col">
        <Link href={href(row)} className="truncate font-medium hover:underline">
          {title(row)}
        </Link>
        {subtitle?.(row)}
      </div>
    ),
  };
}

/** How long ago the row started; the exact time on hover. */
export function startedColumn<T extends RowData>(at: (row: T) => string): DataColumn<T> {
  return { id: "started", header: "Started", className: "whitespace-nowrap text-xs", cell: (row) => <span title={formatDateTime(at(row))}>{formatRelative(at(row))}</span> };
}

/** A trash button per row, named after the row; `blocked` rows (a run still going) keep it disabled with `blockedTitle`. */
export function deleteColumn<T extends RowData>({ name, blocked, blockedTitle, onDelete }: { name: (row: T) => string; blocked?: (row: T) => boolean; blockedTitle?: string; onDelete: (row: T) => void }): DataColumn<T> {
  return {
    id: "actions",
    header: "",
    srHeader: "Actions",
    cell: (row) => {
      const off = blocked?.(row) ?? false;
      return (
        <div className="flex justify-end">
          <Button variant="ghost" size="icon-sm" className="text-muted-foreground hover:text-destructive" aria-label={`Delete ${name(row)}`} title={off ? blockedTitle : "Delete"} disabled={off} onClick={() => onDelete(row)}>
            <Trash2 aria-hidden />
          </Button>
        </div>
      );
    },
  };
}
