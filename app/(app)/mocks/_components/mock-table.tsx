"use client";
// The mocks of one list page, with what tells two mocks on one route apart
// (conditions, priority). Cells truncate, so long ids and routes never widen the page.
import Link from "next/link";
import { formatRelative } from "@/components/lib/format";
import { Badge } from "@/components/ui/badge";
import { DataTable, type DataColumn, type DataTableProps } from "@/components/ui/data-table";
import { conditionPhrases } from "./mock-summary";
import { ProtocolBadge } from "./protocol-badge";
import { DRAG_MOCKS, type MockRow } from "./types";

interface Props extends Pick<DataTableProps<MockRow>, "data" | "isLoading" | "error" | "empty" | "noMatch" | "filtered" | "footer"> {
  selected: ReadonlySet<string>;
  onSelect: (ids: string[], on: boolean) => void;
  hrefOf: (id: string) => string;
  onOpen: (id: string) => void;
}

/** The mocks of one page. Rows are focusable: arrows move, Enter opens, Space selects; rows drag onto folders. */
export function MockTable({ selected, onSelect, hrefOf, onOpen, ...list }: Props) {
  function onDragStart(e: React.DragEvent, id: string) {
    const ids = selected.has(id) ? [...selected] : [id];
    e.dataTransfer.setData(DRAG_MOCKS, JSON.stringify(ids));
    e.dataTransfer.setData("text/plain", ids.join(", "));
    e.dataTransfer.effectAllowed = "move";
  }

  const columns: DataColumn<MockRow>[] = [
    {
      id: "mock",
      header: "Mock and tags",
      headClassName: "w-[24%]",
      cell: (m) => (
        <>
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
        </>
      ),
    },
    { id: "protocol", header: "Protocol", headClassName: "w-24", cell: (m) => <ProtocolBadge protocol={m.protocol} /> },
    {
      id: "endpoint",
      header: "Endpoint and conditions",
      cell: (m) => (
        <>
          <div className="flex min-w-0 items-baseline gap-2 font-mono text-xs">
            <span className="shrink-0 font-semibold">{m.endpoint.method ?? "ANY"}</span>
            <span className="truncate text-muted-foreground" title={m.endpoint.route ?? undefined}>
              {m.endpoint.route ?? "—"}
            </span>
          </div>
          <Conditions mock={m} />
        </>
      ),
    },
    { id: "priority", header: "Priority", headClassName: "w-24 text-right", className: "text-right tabular-nums", cell: (m) => m.priority ?? 0 },
    {
      id: "uses",
      header: "Uses",
      headClassName: "w-20 text-right",
      className: "text-right tabular-nums",
      cell: (m) => (
        <>
          {m.useCounter}
          {m.useLimiter ? <span className="text-muted-foreground">/{m.useLimiter}</span> : null}
        </>
      ),
    },
    {
      id: "updated",
      header: "Updated",
      headClassName: "hidden w-28 2xl:table-cell",
      className: "hidden whitespace-nowrap text-muted-foreground 2xl:table-cell",
      cell: (m) => formatRelative(new Date(m.updatedAt).toISOString()),
    },
  ];

  return (
    <DataTable
      {...list}
      label="Mocks"
      className="table-fixed"
      columns={columns}
      rowKey={(m) => m.id}
      skeletonRows={5}
      onOpen={(m) => onOpen(m.id)}
      selection={{ selected, onChange: onSelect, label: (m) => `Select ${m.id}`, allLabel: "Select all on this page" }}
      rowProps={(m) => ({ draggable: true, onDragStart: (e) => onDragStart(e, m.id), "data-mock-row": m.id })}
    />
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
