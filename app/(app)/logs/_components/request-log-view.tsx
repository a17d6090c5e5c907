"use client";
// The request log of a namespace, or of one mock: newest first, to the
// millisecond, live from the event stream (with a pause), each row opening to
// the full request and what was answered, headers included. The namespace's
// log also lists the requests no mock answered, marked as such; they come
// from the undefined-requests list, one row per request shape at its last call.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Activity, ChevronDown, ChevronRight, Pause, Play } from "lucide-react";
import Link from "next/link";
import { useMemo, useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { formatPreciseTime } from "@/components/lib/format";
import { useLiveEvents } from "@/components/lib/use-live-events";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useNamespace } from "../../_components/namespace-context";

type Show = "all" | "matched" | "unmatched";

type LogRow = {
  key: string;
  matched: boolean;
  at: string;
  method: string;
  url: string;
  status: number | null;
  durationMs: number | null;
  mockId: string | null;
  /** Unmatched rows: how many calls of this shape went unanswered. */
  count: number;
  headers: unknown;
  query: unknown;
  body: unknown;
  response: unknown;
};

function Json({ label, value }: { label: string; value: unknown }) {
  const empty = value === null || value === undefined || (typeof value === "object" && Object.keys(value as object).length === 0);
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <h4 className="text-xs font-medium text-muted-foreground uppercase">{label}</h4>
      <pre className="max-h-64 overflow-auto rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap">{empty ? "—" : typeof value === "string" ? value : JSON.stringify(value, null, 2)}</pre>
    </div>
  );
}

/** The recorder keeps `{status, headers, body}` of what was answered; older rows may hold less. */
function answerParts(response: unknown): { headers: unknown; body: unknown } | null {
  if (!response || typeof response !== "object" || Array.isArray(response)) return null;
  const r = response as Record<string, unknown>;
  return "headers" in r || "body" in r ? { headers: r.headers, body: r.body } : null;
}

function Details({ row }: { row: LogRow }) {
  const answer = answerParts(row.response);
  return (
    <div className="grid gap-3 py-2 md:grid-cols-2" role="region" aria-label={`Request ${row.method} ${row.url}`}>
      <Json label="Request headers" value={row.headers} />
      <Json label="Query parameters" value={row.query} />
      <Json label="Request body" value={row.body} />
      {!row.matched ? (
        <Json label="Response" value={`No mock matched: the caller got a 404. ${row.count > 1 ? `Seen ${row.count} times; the latest call is shown.` : ""}`} />
      ) : answer ? (
        <>
          <Json label="Response headers" value={answer.headers} />
          <Json label="Response body" value={answer.body} />
        </>
      ) : (
        <Json label="Response" value={row.response ?? `Status ${row.status} (the body is not recorded)`} />
      )}
    </div>
  );
}

export function RequestLogView({ mockId }: { mockId?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const withMisses = !mockId;
  const input = { namespace, mockId, limit: 200 };
  const missInput = { namespace, offset: 0, limit: 200 };
  const log = useQuery(trpc.requestLogs.list.queryOptions(input, { enabled: !!namespace }));
  const misses = useQuery(trpc.undefinedRequests.list.queryOptions(missInput, { enabled: !!namespace && withMisses }));
  const [open, setOpen] = useState<string | null>(null);
  const [show, setShow] = useState<Show>("all");
  const [paused, setPaused] = useState(false);
  const [waiting, setWaiting] = useState(0);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.requestLogs.list.queryKey(input) });
    if (withMisses) void queryClient.invalidateQueries({ queryKey: trpc.undefinedRequests.list.queryKey(missInput) });
  };
  const live = useLiveEvents(namespace, (type, data) => {
    const relevant = (type === "stub.hit" && (!mockId || data.mockId === mockId)) || (type === "stub.miss" && withMisses);
    if (!relevant) return;
    // Paused: the rows stay still to be read; the count says what is waiting.
    if (paused) setWaiting((n) => n + 1);
    else refresh();
  });

  const rows = useMemo<LogRow[] | undefined>(() => {
    if (!log.data || (withMisses && !misses.data && !misses.error)) return undefined;
    const hits: LogRow[] = log.data.entries.map((e) => ({ key: `hit-${e.id}`, matched: true, at: e.calledAt, method: e.method, url: e.url, status: e.status, durationMs: e.durationMs, mockId: e.mockId, count: 1, headers: e.headers, query: e.query, body: e.body, response: e.response }));
    const missed: LogRow[] = (misses.data?.undefinedRequests ?? []).map((u) => ({
      key: `miss-${u.id}`,
      matched: false,
      at: new Date(u.lastSeenAt).toISOString(),
      method: u.method,
      url: u.path,
      status: null,
      durationMs: null,
      mockId: null,
      count: u.count,
      headers: u.headers,
      query: u.query,
      body: u.body,
      response: null,
    }));
    return [...hits, ...missed].filter((r) => show === "all" || (show === "matched") === r.matched).sort((a, b) => b.at.localeCompare(a.at));
  }, [log.data, misses.data, misses.error, withMisses, show]);

  const columns = useMemo<DataColumn<LogRow>[]>(
    () => [
      {
        id: "details",
        header: "",
        srHeader: "Details",
        headClassName: "w-8",
        cell: (r) => (
          <Button variant="ghost" size="icon-sm" aria-expanded={open === r.key} aria-label={`Details of ${r.method} ${r.url}`} onClick={() => setOpen(open === r.key ? null : r.key)}>
            {open === r.key ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
          </Button>
        ),
      },
      { id: "time", header: "Time", className: "whitespace-nowrap tabular-nums text-muted-foreground", cell: (r) => <time dateTime={r.at}>{formatPreciseTime(r.at)}</time> },
      {
        id: "request",
        header: "Request",
        className: "max-w-96 truncate font-mono text-xs",
        cell: (r) => (
          <>
            <span className="font-semibold">{r.method}</span> {r.url}
          </>
        ),
      },
      {
        id: "status",
        header: "Status",
        cell: (r) =>
          r.matched ? (
            <Badge variant={(r.status ?? 0) < 400 ? "success" : "destructive"}>{r.status}</Badge>
          ) : (
            <Badge variant="outline" className="border-warning bg-warning/15 text-foreground">
              No mock matched{r.count > 1 ? ` ×${r.count}` : ""}
            </Badge>
          ),
      },
      { id: "duration", header: "Duration", headClassName: "text-right", className: "text-right tabular-nums", cell: (r) => (r.durationMs === null ? "—" : `${r.durationMs.toFixed(1)} ms`) },
      ...(mockId
        ? []
        : [
            {
              id: "mock",
              header: "Mock",
              className: "font-mono text-xs",
              cell: (r: LogRow) =>
                r.mockId ? (
                  <Link className="hover:underline" href={hrefWithNs(`/mocks/${encodeURIComponent(r.mockId)}`)}>
                    {r.mockId}
                  </Link>
                ) : (
                  <Link className="font-sans text-muted-foreground hover:underline" href={hrefWithNs("/undefined-requests")}>
                    undefined request
                  </Link>
                ),
            },
          ]),
    ],
    [open, mockId, hrefWithNs],
  );

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="relative flex size-2.5">
          {live === "live" && !paused ? <span className="absolute inline-flex size-full animate-ping rounded-full bg-success opacity-60" /> : null}
          <span className={`relative inline-flex size-2.5 rounded-full ${live === "live" && !paused ? "bg-success" : "bg-muted-foreground"}`} />
        </span>
        <span role="status" className="text-muted-foreground">
          {paused
            ? `Paused${waiting ? `: ${waiting} new request${waiting === 1 ? "" : "s"} waiting` : ""}`
            : live === "live"
              ? "Live: new requests appear as they arrive"
              : live === "connecting"
                ? "Connecting to live updates…"
                : "Live updates are off; reload to reconnect"}
        </span>
        <span className="ml-auto text-muted-foreground">{rows?.length ?? 0} shown</span>
      </div>
      <DataTable
        label="Request log"
        columns={columns}
        data={rows}
        isLoading={!namespace || log.isLoading}
        error={log.error}
        rowKey={(r) => r.key}
        rowClassName={(r) => (r.matched ? undefined : "bg-warning/5")}
        expandedKey={open}
        renderDetails={(r) => <Details row={r} />}
        onOpen={(r) => setOpen(open === r.key ? null : r.key)}
        filtered={show !== "all"}
        search={{ label: "Filter requests", placeholder: "Filter by method, path, status or mock", text: (r) => `${r.method} ${r.url} ${r.status ?? "no mock matched"} ${r.mockId ?? ""}` }}
        toolbar={
          <>
            {withMisses ? (
              <Select value={show} onValueChange={(v) => setShow(v as Show)}>
                <SelectTrigger className="w-48" aria-label="Show requests">
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value="all">All requests</SelectItem>
                  <SelectItem value="matched">Answered by a mock</SelectItem>
                  <SelectItem value="unmatched">No mock matched</SelectItem>
                </SelectContent>
              </Select>
            ) : null}
            <Button
              variant="outline"
              size="sm"
              aria-pressed={paused}
              onClick={() => {
                if (paused) {
                  setWaiting(0);
                  refresh();
                }
                setPaused(!paused);
              }}
            >
              {paused ? <Play aria-hidden /> : <Pause aria-hidden />} {paused ? "Resume" : "Pause"}
            </Button>
          </>
        }
        empty={{
          icon: Activity,
          title: "No requests yet",
          body: (
            <>
              Call a mock at <code className="font-mono text-xs">/stubs/{namespace}/…</code> and it shows up here at once. Transient mocks are not logged.
            </>
          ),
        }}
        noMatch={{ title: "No request matches", body: "Clear the filter, or pick “All requests”." }}
      />
    </div>
  );
}
