"use client";
// Load run results as a table: status, the headline numbers (requests/s,
// p95, failed %, thresholds), when and how long. Rows can be picked (two to
// five) to compare, opened with Enter, and deleted once they have ended. The
// list polls while any run in it is still going.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { GitCompareArrows, Play } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatDateTime } from "@/components/lib/format";
import { toastError } from "@/components/lib/toast-error";
import { formatElapsed, formatMs, formatPercent, formatRate } from "@/components/perf/format";
import { isLive, PerfStatusBadge } from "@/components/perf/status";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { deleteColumn, startedColumn, titleColumn } from "@/components/ui/data-table-columns";
import { Pager } from "@/components/ui/pager";
import { FilterChips } from "@/components/tester/filter-chips";
import { PERF_STATUSES, type PerfResultRow, type PerfStatus } from "@/server/contracts/perf";
import { useNamespace } from "../../_components/namespace-context";
import { perfPaths } from "./paths";

const PAGE_SIZE = 20;
const MAX_COMPARE = 5;
type StatusFilter = PerfStatus | "all";

export function ThresholdsCell({ ok }: { ok: boolean | null | undefined }) {
  if (ok === null || ok === undefined) return <span className="text-muted-foreground" title="no thresholds declared">—</span>;
  return ok ? (
    <span className="text-success" title="every threshold held">
      ✓ <span className="sr-only">thresholds held</span>
    </span>
  ) : (
    <span className="text-destructive" title="a threshold failed">
      ✗ <span className="sr-only">a threshold failed</span>
    </span>
  );
}

export function ResultsTable({ configId, label = "Results", emptyAction }: { configId?: string; label?: string; emptyAction?: React.ReactNode }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const [status, setStatus] = useState<StatusFilter>("all");
  const [offset, setOffset] = useState(0);
  const [search, setSearch] = useState("");
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [deleting, setDeleting] = useState<PerfResultRow | null>(null);

  const list = useQuery({
    ...trpc.perf.results.list.queryOptions(
      { namespace, configId, status: status === "all" ? undefined : status, search: search.trim() || undefined, limit: PAGE_SIZE, offset },
      { enabled: !!namespace, refetchInterval: (q) => ((q.state.data?.results ?? []).some((r) => isLive(r.status)) ? 2000 : false) },
    ),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation(
    trpc.perf.results.delete.mutationOptions({
      onSuccess: () => {
        toast.success(`${deleting?.name ?? "Result"} deleted`);
        setSelected((s) => new Set([...s].filter((id) => id !== deleting?.id)));
        setDeleting(null);
        void queryClient.invalidateQueries({ queryKey: trpc.perf.pathKey() });
      },
      onError: toastError,
    }),
  );

  const rows = list.data?.results ?? [];
  // Oldest first: the compare view takes the first as the baseline.
  const createdAt = new Map(rows.map((r) => [r.id, r.createdAt]));
  const picked = [...selected].sort((a, b) => (createdAt.get(a) ?? "").localeCompare(createdAt.get(b) ?? ""));
  const columns: DataColumn<PerfResultRow>[] = [
    titleColumn({
      header: "Run",
      className: "max-w-64",
      href: (r) => hrefWithNs(perfPaths.result(r.id)),
      title: (r) => r.name,
      subtitle: (r) => (r.reason ? <span className="truncate text-xs text-muted-foreground" title={r.reason}>{r.reason}</span> : null),
    }),
    { id: "status", header: "Status", cell: (r) => <PerfStatusBadge status={r.status} /> },
    { id: "rps", header: "Req/s", headClassName: "text-right", className: "text-right font-mono text-xs tabular-nums", cell: (r) => formatRate(r.summary?.rps) },
    { id: "p95", header: "p(95)", headClassName: "text-right", className: "text-right font-mono text-xs tabular-nums", cell: (r) => formatMs(r.summary?.p95Ms) },
    {
      id: "failed",
      header: "Failed",
      headClassName: "text-right",
      className: "text-right font-mono text-xs tabular-nums",
      cell: (r) => <span className={r.summary && r.summary.failedRate > 0 ? "text-destructive" : undefined}>{formatPercent(r.summary?.failedRate)}</span>,
    },
    { id: "thresholds", header: "Thresholds", headClassName: "text-center", className: "text-center", cell: (r) => <ThresholdsCell ok={r.summary?.thresholdsOk} /> },
    { id: "duration", header: "Duration", headClassName: "text-right", className: "text-right font-mono text-xs tabular-nums", cell: (r) => formatElapsed(r.summary?.durationMs) },
    startedColumn((r) => r.startedAt ?? r.createdAt),
    deleteColumn({ name: (r) => r.name, blocked: (r) => isLive(r.status), blockedTitle: "Stop the run before deleting it", onDelete: (r) => setDeleting(r) }),
  ];

  const compareButton = (
    <Button size="sm" variant="outline" disabled={picked.length < 2 || picked.length > MAX_COMPARE} onClick={() => router.push(hrefWithNs(perfPaths.compare(picked)))} title={picked.length < 2 ? "Pick two to five results to compare" : undefined}>
      <GitCompareArrows aria-hidden /> Compare{picked.length ? ` (${picked.length})` : ""}
    </Button>
  );

  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        data={list.data ? rows : undefined}
        isLoading={list.isLoading}
        error={list.error}
        rowKey={(r) => r.id}
        filtered={status !== "all" || !!search.trim()}
        onOpen={(r) => router.push(hrefWithNs(perfPaths.result(r.id)))}
        selection={{
          selected,
          onChange: (keys, on) => setSelected((s) => new Set(on ? [...s, ...keys] : [...s].filter((k) => !keys.includes(k)))),
          label: (r) => `Select ${r.name} (${formatDateTime(r.createdAt)})`,
          allLabel: "Select every shown result",
        }}
        toolbar={
          <>
            <input
              type="search"
              aria-label={`Search ${label.toLowerCase()}`}
              placeholder="Search by name"
              className="h-8 w-48 rounded-md border bg-background px-3 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring"
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setOffset(0);
              }}
            />
            <FilterChips
              label="Status"
              value={status}
              onChange={(v) => {
                setStatus(v);
                setOffset(0);
              }}
              options={[{ value: "all", label: "All" }, ...PERF_STATUSES.map((s) => ({ value: s, label: s }))]}
            />
            <div className="ml-auto">{compareButton}</div>
          </>
        }
        empty={{
          icon: Play,
          title: "No runs yet",
          body: "Each run of a load test lands here with its requests per second, p(95) latency, failed requests and whether its thresholds held. Pick two to compare them side by side.",
          action: emptyAction,
        }}
        footer={list.data && list.data.total > PAGE_SIZE ? <Pager offset={offset} shown={rows.length} total={list.data.total} pageSize={PAGE_SIZE} onOffset={setOffset} labels={{ previous: "Newer", next: "Older" }} /> : null}
      />
      <ConfirmDeleteDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        fallbackName="the result"
        description="Its numbers, summary and logs are gone for good; the trend of its load test loses this point."
        confirmLabel="Delete result"
        pending={remove.isPending}
        onConfirm={(r) => remove.mutate({ namespace, id: r.id })}
      />
    </>
  );
}
