"use client";
// /perf/results/<id>: one load run. While it is queued or running the result
// is polled every second and the charts grow (requests/s, latency, errors,
// VUs) with a progress bar and Stop; once it ends, the page is k6's summary:
// status and reason, thresholds, checks per group, the metrics table, the
// text summary, logs, errors, the parts when the run was split over runners,
// and downloads (JSON summary, text summary, handleSummary outputs).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Download, GitCompareArrows, Play, Square, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatDateTime } from "@/components/lib/format";
import { toastError } from "@/components/lib/toast-error";
import { ChecksTree } from "@/components/perf/checks-tree";
import { downloadText } from "@/components/perf/download";
import { formatElapsed } from "@/components/perf/format";
import { MetricsTable } from "@/components/perf/metrics-table";
import { RunCharts } from "@/components/perf/run-charts";
import { isLive, PerfStatusBadge } from "@/components/perf/status";
import { ThresholdsTable } from "@/components/perf/thresholds-table";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton, SkeletonRows } from "@/components/ui/skeleton";
import type { PerfResultDetail } from "@/server/contracts/perf";
import { useNamespace } from "../../_components/namespace-context";
import { perfPaths } from "./paths";
import { plannedMs } from "./planned-duration";
import { headlineFromSeries, ResultHeadline } from "./result-headline";
import { ResultTabs } from "./result-tabs";

const POLL_MS = 1000;

function Section({ title, children, id }: { title: string; children: React.ReactNode; id: string }) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** k6's handleSummary(data) argument, rebuilt from the stored result, for tools that read k6's JSON. */
function k6SummaryJson(r: PerfResultDetail): string {
  return JSON.stringify({ root_group: r.rootGroup, metrics: r.metrics, options: r.options, state: { testRunDurationMs: r.summary?.durationMs ?? null }, thresholds: r.thresholds }, null, 2);
}

export function ResultPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const result = useQuery(trpc.perf.results.get.queryOptions({ namespace, id }, { enabled: !!namespace, refetchInterval: (q) => (q.state.data && !isLive(q.state.data.status) ? false : POLL_MS) }));
  const [deleting, setDeleting] = useState(false);
  const configId = result.data?.configId ?? undefined;
  const siblings = useQuery(trpc.perf.results.list.queryOptions({ namespace, configId, limit: 20, offset: 0 }, { enabled: !!namespace && !!configId && !!result.data && !isLive(result.data.status) }));
  // The newest ended run of the same load test started before this one: the natural baseline.
  const previous = (siblings.data?.results ?? []).find((x) => x.id !== id && !isLive(x.status) && result.data && x.createdAt < result.data.createdAt) ?? null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.perf.pathKey() });
  const stop = useMutation(trpc.perf.stop.mutationOptions({ onSuccess: (r) => (toast.success(`Run ${r.status === "stopped" ? "stopped" : "stopping"}`), void refresh()), onError: toastError }));
  const rerun = useMutation(trpc.perf.configs.run.mutationOptions({ onSuccess: (s) => (void refresh(), router.push(hrefWithNs(perfPaths.result(s.id)))), onError: toastError }));
  const remove = useMutation(trpc.perf.results.delete.mutationOptions({ onSuccess: () => (toast.success("Result deleted"), void refresh(), router.push(hrefWithNs(perfPaths.home))), onError: toastError }));

  const back = (
    <Link href={hrefWithNs(perfPaths.home)} className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft className="size-4" aria-hidden /> Load tests
    </Link>
  );
  if (result.error && !result.data)
    return (
      <div className="flex flex-col gap-4">
        {back}
        <PageHeader title="Load run" />
        <ApiErrorAlert error={result.error} title="The result could not be loaded" />
      </div>
    );
  if (!result.data)
    return (
      <div className="flex flex-col gap-4">
        {back}
        <PageHeader title="Load run" />
        <SkeletonRows rows={2} label="Loading the result" />
        <div className="grid gap-3 md:grid-cols-2">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-52" />
          ))}
        </div>
      </div>
    );

  const r = result.data;
  const live = isLive(r.status);
  const elapsedMs = r.series.at(-1) ? r.series.at(-1)!.t * 1000 : 0;
  const planned = plannedMs(r.options);
  const progress = planned && planned > 0 ? Math.min(1, elapsedMs / planned) : null;
  const actions = (
    <>
      {live ? (
        <Button variant="destructive" onClick={() => stop.mutate({ namespace, taskId: r.taskId ?? r.id })} pending={stop.isPending}>
          <Square aria-hidden /> Stop
        </Button>
      ) : null}
      {!live && r.configId ? (
        <Button variant="outline" onClick={() => rerun.mutate({ namespace, id: r.configId! })} pending={rerun.isPending}>
          <Play aria-hidden /> Run again
        </Button>
      ) : null}
      {!live ? (
        <Button variant="outline" size="icon" aria-label="Delete this result" title="Delete" onClick={() => setDeleting(true)}>
          <Trash2 aria-hidden />
        </Button>
      ) : null}
    </>
  );

  return (
    <div className="flex flex-col gap-6">
      {back}
      <PageHeader
        title={r.name}
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <PerfStatusBadge status={r.status} />
            <span>started {formatDateTime(r.startedAt ?? r.createdAt)}</span>
            {r.finishedAt ? <span>ran {formatElapsed(r.summary?.durationMs ?? null)}</span> : null}
            {r.configId ? (
              <Link className="underline underline-offset-2" href={hrefWithNs(perfPaths.config(r.configId))}>
                load test
              </Link>
            ) : null}
            {r.configId ? (
              <Link className="underline underline-offset-2" href={hrefWithNs(perfPaths.config(r.configId, "trend"))}>
                trend
              </Link>
            ) : null}
          </span>
        }
        actions={actions}
      />
      {r.reason ? (
        <Alert variant={r.status === "passed" ? "info" : r.status === "stopped" ? "warning" : "error"} title={r.status === "passed" ? "Note" : `Why it ${r.status === "error" ? "did not run" : r.status}`} role={r.status === "passed" || r.status === "stopped" ? "status" : "alert"}>
          {r.reason}
        </Alert>
      ) : null}
      {result.error ? <ApiErrorAlert error={result.error} title="Live updates stopped" /> : null}

      {live ? (
        <div className="flex flex-col gap-1" aria-live="polite">
          <div className="flex justify-between text-xs text-muted-foreground">
            <span>{r.status === "queued" ? "Waiting for a runner or a free slot…" : `Running: ${formatElapsed(elapsedMs)}${planned ? ` of ${formatElapsed(planned)}` : ""}`}</span>
            <span>updates every second</span>
          </div>
          <div className="h-2 w-full overflow-hidden rounded-full bg-muted" role="progressbar" aria-label="Run progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress === null ? undefined : Math.round(progress * 100)}>
            <div className={progress === null ? "h-full w-1/3 animate-pulse bg-primary/60" : "h-full bg-primary transition-[width] duration-700"} style={progress === null ? undefined : { width: `${progress * 100}%` }} />
          </div>
        </div>
      ) : null}

      <ResultHeadline summary={r.summary ?? headlineFromSeries(r.series)} live={live && !r.summary} />
      <Section title={live ? "Live" : "Over time"} id="perf-charts">
        {r.series.length ? <RunCharts series={r.series} untilSeconds={planned ? planned / 1000 : null} /> : <p className="text-sm text-muted-foreground">{live ? "The first numbers arrive within a second or two of the start." : "This run recorded no numbers over time."}</p>}
      </Section>

      <div className="grid gap-6 xl:grid-cols-2">
        <Section title="Thresholds" id="perf-thresholds">
          <ThresholdsTable thresholds={r.thresholds} live={live} />
        </Section>
        <Section title="Checks" id="perf-checks">
          <ChecksTree root={r.rootGroup} live={live} />
        </Section>
      </div>
      <Section title="Metrics" id="perf-metrics">
        <MetricsTable metrics={r.metrics} />
      </Section>
      <ResultTabs result={r} />
      {!live ? (
        <Section title="Downloads" id="perf-downloads">
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={() => downloadText(`${r.name}-summary.json`, k6SummaryJson(r), "application/json")}>
              <Download aria-hidden /> JSON summary
            </Button>
            {r.summaryText ? (
              <Button variant="outline" size="sm" onClick={() => downloadText(`${r.name}-summary.txt`, r.summaryText!)}>
                <Download aria-hidden /> Text summary
              </Button>
            ) : null}
            {Object.entries(r.handleSummary ?? {}).map(([name, content]) => (
              <Button key={name} variant="outline" size="sm" onClick={() => downloadText(name.split("/").pop() || name, content, name.endsWith(".json") ? "application/json" : name.endsWith(".html") ? "text/html" : "text/plain")}>
                <Download aria-hidden /> {name} <span className="text-muted-foreground">(handleSummary)</span>
              </Button>
            ))}
            {previous ? (
              <Button variant="ghost" size="sm" asChild>
                <Link href={hrefWithNs(perfPaths.compare([previous.id, r.id]))}>
                  <GitCompareArrows aria-hidden /> Compare with the run before
                </Link>
              </Button>
            ) : null}
          </div>
        </Section>
      ) : null}
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete ${r.name}?`}
        description="Its numbers, summary and logs are gone for good."
        confirmLabel="Delete result"
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ namespace, id: r.id })}
      />
    </div>
  );
}
