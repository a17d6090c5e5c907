// The few numbers a load run is judged on, as cards at the top of its
// result: requests and their rate, p(95) latency, failed requests, checks,
// VUs and duration. Live while the run goes.
import { formatCount, formatElapsed, formatMs, formatPercent, formatRate } from "@/components/perf/format";
import type { PerfHeadline, PerfSeriesPoint } from "@/server/contracts/perf";
import { cn } from "@/components/lib/cn";

function Stat({ label, value, sub, tone }: { label: string; value: string; sub?: string; tone?: "good" | "bad" }) {
  return (
    <div className="flex flex-col gap-0.5 rounded-lg border bg-card px-4 py-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className={cn("font-mono text-xl font-semibold tabular-nums", tone === "bad" && "text-destructive", tone === "good" && "text-success")}>{value}</dd>
      {sub ? <dd className="text-xs text-muted-foreground">{sub}</dd> : null}
    </div>
  );
}

/** While a run goes and has no summary yet: what its points per second already say. */
export function headlineFromSeries(series: readonly PerfSeriesPoint[]): PerfHeadline | null {
  const last = series.at(-1);
  if (!last) return null;
  const failed = series.reduce((n, p) => n + p.failed, 0);
  return {
    requests: last.requests,
    rps: last.t > 0 ? last.requests / last.t : last.rps,
    failedRate: last.requests ? failed / last.requests : 0,
    avgMs: last.avgMs,
    p95Ms: last.p95Ms,
    p99Ms: null,
    iterations: series.reduce((n, p) => n + p.iterations, 0),
    vusMax: series.reduce((m, p) => Math.max(m, p.vus), 0),
    // Passes are only counted in the summary; the Errors chart shows failed checks as they happen.
    checksPassed: 0,
    checksFailed: 0,
    thresholdsOk: null,
    durationMs: last.t * 1000,
  };
}

export function ResultHeadline({ summary, live = false }: { summary: PerfHeadline | null; live?: boolean }) {
  const s = summary;
  const checks = s ? s.checksPassed + s.checksFailed : 0;
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6" aria-label="Headline numbers">
      <Stat label="Requests" value={formatCount(s?.requests)} sub={s ? formatRate(s.rps) : undefined} />
      <Stat label="p(95) latency" value={formatMs(s?.p95Ms)} sub={s ? `avg ${formatMs(s.avgMs)}${s.p99Ms !== null ? ` · p(99) ${formatMs(s.p99Ms)}` : ""}` : undefined} />
      <Stat label="Failed requests" value={formatPercent(s?.failedRate)} tone={s ? (s.failedRate > 0 ? "bad" : "good") : undefined} />
      <Stat label="Checks" value={checks ? formatPercent(s!.checksPassed / checks, 1) : "—"} sub={checks ? `✓ ${s!.checksPassed} ✗ ${s!.checksFailed}` : live ? "counted at the end" : "none ran"} tone={checks ? (s!.checksFailed ? "bad" : "good") : undefined} />
      <Stat label="VUs (max)" value={formatCount(s?.vusMax)} sub={s ? `${formatCount(s.iterations)} iterations` : undefined} />
      <Stat label="Duration" value={formatElapsed(s?.durationMs)} sub={live ? "so far" : s?.thresholdsOk === null || !s ? "no thresholds" : s.thresholdsOk ? "thresholds ✓" : "thresholds ✗"} tone={s?.thresholdsOk === false ? "bad" : undefined} />
    </dl>
  );
}
