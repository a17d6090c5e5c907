"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Activity, ChevronDown, ChevronRight } from "lucide-react";
import Link from "next/link";
import { Fragment, useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { formatDateTime } from "@/components/lib/format";
import { useLiveEvents } from "@/components/lib/use-live-events";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useNamespace } from "../../_components/namespace-context";

function Json({ label, value }: { label: string; value: unknown }) {
  const empty = value === null || value === undefined || (typeof value === "object" && Object.keys(value as object).length === 0);
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <h4 className="text-xs font-medium text-muted-foreground uppercase">{label}</h4>
      <pre className="max-h-64 overflow-auto rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap">{empty ? "—" : typeof value === "string" ? value : JSON.stringify(value, null, 2)}</pre>
    </div>
  );
}

/**
 * The request log of the namespace, or of one mock: newest first, refreshed
 * on every stub hit from the live event stream, each row opening to the full
 * request and what was answered.
 */
export function RequestLogView({ mockId }: { mockId?: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const input = { namespace, mockId, limit: 200 };
  const log = useQuery(trpc.requestLogs.list.queryOptions(input, { enabled: !!namespace }));
  const [open, setOpen] = useState<string | null>(null);
  const live = useLiveEvents(namespace, (type, data) => {
    if (type === "stub.hit" && (!mockId || data.mockId === mockId)) void queryClient.invalidateQueries({ queryKey: trpc.requestLogs.list.queryKey(input) });
  });
  const entries = log.data?.entries ?? [];

  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-center gap-2 text-sm">
        <span className="relative flex size-2.5">
          {live === "live" ? <span className="absolute inline-flex size-full animate-ping rounded-full bg-success opacity-60" /> : null}
          <span className={`relative inline-flex size-2.5 rounded-full ${live === "live" ? "bg-success" : "bg-muted-foreground"}`} />
        </span>
        <span role="status" className="text-muted-foreground">
          {live === "live" ? "Live: new requests appear as they arrive" : live === "connecting" ? "Connecting to live updates…" : "Live updates are off; reload to reconnect"}
        </span>
        <span className="ml-auto text-muted-foreground">{entries.length} shown</span>
      </div>
      {log.isLoading || !namespace ? (
        <SkeletonRows label="Loading the request log" />
      ) : log.error ? (
        <ApiErrorAlert error={log.error} />
      ) : entries.length === 0 ? (
        <EmptyState icon={Activity} title="No requests yet">
          Call a mock at <code className="font-mono text-xs">/stubs/{namespace}/…</code> and it shows up here at once. Transient mocks are not logged.
        </EmptyState>
      ) : (
        <Table aria-label="Request log">
          <TableHeader>
            <TableRow>
              <TableHead className="w-8">
                <span className="sr-only">Details</span>
              </TableHead>
              <TableHead>Time</TableHead>
              <TableHead>Request</TableHead>
              <TableHead>Status</TableHead>
              <TableHead className="text-right">Duration</TableHead>
              {mockId ? null : <TableHead>Mock</TableHead>}
            </TableRow>
          </TableHeader>
          <TableBody>
            {entries.map((e) => (
              <Fragment key={e.id}>
                <TableRow>
                  <TableCell>
                    <Button variant="ghost" size="icon-sm" aria-expanded={open === e.id} aria-label={`Details of ${e.method} ${e.url}`} onClick={() => setOpen(open === e.id ? null : e.id)}>
                      {open === e.id ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
                    </Button>
                  </TableCell>
                  <TableCell className="whitespace-nowrap text-muted-foreground">{formatDateTime(e.calledAt)}</TableCell>
                  <TableCell className="max-w-96 truncate font-mono text-xs">
                    <span className="font-semibold">{e.method}</span> {e.url}
                  </TableCell>
                  <TableCell>
                    <Badge variant={e.status < 400 ? "success" : "destructive"}>{e.status}</Badge>
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{e.durationMs.toFixed(1)} ms</TableCell>
                  {mockId ? null : (
                    <TableCell className="font-mono text-xs">
                      <Link className="hover:underline" href={hrefWithNs(`/mocks/${encodeURIComponent(e.mockId)}`)}>
                        {e.mockId}
                      </Link>
                    </TableCell>
                  )}
                </TableRow>
                {open === e.id ? (
                  <TableRow className="hover:bg-transparent">
                    <TableCell colSpan={mockId ? 5 : 6}>
                      <div className="grid gap-3 py-2 md:grid-cols-2" role="region" aria-label={`Request ${e.method} ${e.url}`}>
                        <Json label="Request headers" value={e.headers} />
                        <Json label="Query parameters" value={e.query} />
                        <Json label="Request body" value={e.body} />
                        <Json label="Response" value={e.response ?? `Status ${e.status} in ${e.durationMs.toFixed(1)} ms (the body is not recorded)`} />
                      </div>
                    </TableCell>
                  </TableRow>
                ) : null}
              </Fragment>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}
