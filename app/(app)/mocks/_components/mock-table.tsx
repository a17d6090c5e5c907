"use client";
// The mocks of one list page, with what tells two mocks on one route apart
// (conditions, priority). Cells truncate, so long ids and routes never widen the page.
import Link from "next/link";
import { useRef } from "react";
import { formatRelative } from "@/components/lib/format";
import { Badge } from "@/components/ui/badge";
import { Checkbox } from "@/components/ui/checkbox";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { conditionPhrases } from "./mock-summary";
import { ProtocolBadge } from "./protocol-badge";
import { DRAG_MOCKS, type MockRow } from "./types";

interface Props {
  mocks: MockRow[];
  selected: Set<string>;
  onSelect: (ids: string[], on: boolean) => void;
  hrefOf: (id: string) => string;
  onOpen: (id: string) => void;
}

/** The mocks of one page. Rows are focusable: arrows move, Enter opens; rows drag onto folders. */
export function MockTable({ mocks, selected, onSelect, hrefOf, onOpen }: Props) {
  const rows = useRef<(HTMLTableRowElement | null)[]>([]);
  const allOn = mocks.length > 0 && mocks.every((m) => selected.has(m.id));
  const someOn = mocks.some((m) => selected.has(m.id));

  function onRowKey(e: React.KeyboardEvent<HTMLTableRowElement>, index: number, id: string) {
    if (e.target !== e.currentTarget) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      rows.current[Math.max(0, Math.min(mocks.length - 1, index + (e.key === "ArrowDown" ? 1 : -1)))]?.focus();
    } else if (e.key === "Enter") {
      e.preventDefault();
      onOpen(id);
    } else if (e.key === " ") {
      e.preventDefault();
      onSelect([id], !selected.has(id));
    }
  }

  function onDragStart(e: React.DragEvent, id: string) {
    const ids = selected.has(id) ? [...selected] : [id];
    e.dataTransfer.setData(DRAG_MOCKS, JSON.stringify(ids));
    e.dataTransfer.setData("text/plain", ids.join(", "));
    e.dataTransfer.effectAllowed = "move";
  }

  return (
    <Table aria-label="Mocks" className="table-fixed">
      <TableHeader>
        <TableRow>
          <TableHead className="w-10">
            <Checkbox aria-label="Select all on this page" checked={allOn ? true : someOn ? "indeterminate" : false} onCheckedChange={(v) => onSelect(mocks.map((m) => m.id), v === true)} />
          </TableHead>
          <TableHead className="w-[24%]">Mock and tags</TableHead>
          <TableHead className="w-24">Protocol</TableHead>
          <TableHead>Endpoint and conditions</TableHead>
          <TableHead className="w-24 text-right">Priority</TableHead>
          <TableHead className="w-20 text-right">Uses</TableHead>
          <TableHead className="hidden w-28 2xl:table-cell">Updated</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {mocks.map((m, i) => (
          <TableRow
            key={m.id}
            ref={(el) => {
              rows.current[i] = el;
            }}
            tabIndex={0}
            draggable
            onDragStart={(e) => onDragStart(e, m.id)}
            onKeyDown={(e) => onRowKey(e, i, m.id)}
            data-state={selected.has(m.id) ? "selected" : undefined}
            data-mock-row={m.id}
            className="outline-none focus-visible:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-inset"
          >
            <TableCell>
              <Checkbox aria-label={`Select ${m.id}`} checked={selected.has(m.id)} onCheckedChange={(v) => onSelect([m.id], v === true)} />
            </TableCell>
            <TableCell>
              <Link href={hrefOf(m.id)} className="block truncate font-mono text-xs font-medium hover:underline" tabIndex={-1} title={m.id}>
                {m.id}
              </Link>
              {m.tags?.length ? (
                // Under the id rather than a column of their own: the endpoint needs the width.
                <div className="mt-1 flex flex-wrap gap-1 overflow-hidden" aria-label="Tags">
                  {m.tags.map((t) => (
                    <Badge key={t} variant="outline" className="max-w-full truncate">
                      {t}
                    </Badge>
                  ))}
                </div>
              ) : null}
            </TableCell>
            <TableCell>
              <ProtocolBadge protocol={m.protocol} />
            </TableCell>
            <TableCell>
              <div className="flex min-w-0 items-baseline gap-2 font-mono text-xs">
                <span className="shrink-0 font-semibold">{m.endpoint.method ?? "ANY"}</span>
                <span className="truncate text-muted-foreground" title={m.endpoint.route ?? undefined}>
                  {m.endpoint.route ?? "—"}
                </span>
              </div>
              <Conditions mock={m} />
            </TableCell>
            <TableCell className="text-right tabular-nums">{m.priority ?? 0}</TableCell>
            <TableCell className="text-right tabular-nums">
              {m.useCounter}
              {m.useLimiter ? <span className="text-muted-foreground">/{m.useLimiter}</span> : null}
            </TableCell>
            <TableCell className="hidden whitespace-nowrap text-muted-foreground 2xl:table-cell">{formatRelative(new Date(m.updatedAt).toISOString())}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

function Conditions({ mock }: { mock: MockRow }) {
  const phrases = conditionPhrases(mock as unknown as Record<string, unknown>);
  if (!phrases.length) return <p className="mt-0.5 text-xs text-muted-foreground">no conditions</p>;
  const text = phrases.join(" · ");
  return (
    <p className="mt-0.5 truncate text-xs text-muted-foreground" title={text}>
      {text}
    </p>
  );
}
