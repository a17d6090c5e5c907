// The head of a run's results: its status, the summary cards (requests, tests
// passed/failed/skipped, duration, pass rate) and, while it runs, a progress bar.
import { Loader2 } from "lucide-react";
import { cn } from "@/components/lib/cn";
import { Badge } from "@/components/ui/badge";
import type { RunStatus, TestRunDetail } from "@/server/contracts/tester-run";
import { formatMs } from "./format";

const STATUS: Record<RunStatus, { label: string; variant: "default" | "success" | "destructive" | "secondary" | "warning" }> = {
  queued: { label: "Queued", variant: "secondary" },
  running: { label: "Running", variant: "default" },
  passed: { label: "Passed", variant: "success" },
  failed: { label: "Failed", variant: "destructive" },
  cancelled: { label: "Cancelled", variant: "warning" },
  error: { label: "Error", variant: "destructive" },
};

export function RunStatusBadge({ status }: { status: RunStatus }) {
  const s = STATUS[status];
  return (
    <Badge variant={s.variant}>
      {status === "running" ? <Loader2 className="animate-spin" aria-hidden /> : null}
      {s.label}
    </Badge>
  );
}

/** Passed tests among those that passed or failed; requests when the run has no tests. */
export function passRate(run: Pick<TestRunDetail, "counts">): number | null {
  const c = run.counts;
  const judged = c.passedTests + c.failedTests;
  if (judged > 0) return c.passedTests / judged;
  const requests = c.passedRequests + c.failedRequests;
  return requests > 0 ? c.passedRequests / requests : null;
}

function Card({ label, value, detail, tone }: { label: string; value: React.ReactNode; detail?: React.ReactNode; tone?: "success" | "destructive" | "muted" }) {
  return (
    <div className="flex flex-col gap-0.5 rounded-lg border bg-card px-4 py-3">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className={cn("text-2xl font-semibold tabular-nums", tone === "success" && "text-success", tone === "destructive" && "text-destructive", tone === "muted" && "text-muted-foreground")}>{value}</dd>
      {detail ? <dd className="text-xs text-muted-foreground">{detail}</dd> : null}
    </div>
  );
}

export function RunSummary({ run, progress }: { run: TestRunDetail; progress?: { done: number; total: number } | null }) {
  const c = run.counts;
  const rate = passRate(run);
  const live = run.status === "running" || run.status === "queued";
  const pct = progress && progress.total > 0 ? Math.min(100, (progress.done / progress.total) * 100) : 0;
  return (
    <div className="flex flex-col gap-3">
      {live && progress ? (
        <div className="flex flex-col gap-1">
          <div className="flex justify-between text-xs text-muted-foreground">
            <span>Running…</span>
            <span className="tabular-nums">
              {progress.done} of {progress.total} requests
            </span>
          </div>
          <div role="progressbar" aria-label="Run progress" aria-valuemin={0} aria-valuemax={progress.total} aria-valuenow={progress.done} className="h-2 overflow-hidden rounded-full bg-muted">
            <div className={cn("h-full rounded-full transition-[width] duration-300", c.failedTests || c.failedRequests ? "bg-destructive" : "bg-success")} style={{ width: `${pct}%` }} />
          </div>
        </div>
      ) : null}
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-6">
        <Card label="Requests" value={c.requests} detail={`${c.failedRequests} failed · ${c.skippedRequests} skipped`} />
        <Card label="Tests passed" value={c.passedTests} tone={c.passedTests ? "success" : "muted"} detail={`of ${c.tests}`} />
        <Card label="Tests failed" value={c.failedTests} tone={c.failedTests ? "destructive" : "muted"} />
        <Card label="Tests skipped" value={c.skippedTests} tone="muted" />
        <Card label="Duration" value={run.durationMs === null ? "—" : formatMs(run.durationMs)} detail={run.iterations > 1 ? `${run.iterations} iterations` : undefined} />
        <Card label="Pass rate" value={rate === null ? "—" : `${Math.round(rate * 1000) / 10}%`} tone={rate === null ? "muted" : rate === 1 ? "success" : "destructive"} />
      </dl>
    </div>
  );
}
