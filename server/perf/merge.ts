// One result from the parts of a split run (several runners, or several
// worker threads of one runner). Every count is a sum of the parts' own
// cumulative snapshots, so a request is counted exactly once however many
// times a part reported; histograms merge losslessly (HDR), so percentiles
// of the whole are exact, not averages of percentiles. A part that was lost
// (its runner died) contributes what it last reported.
import type { LiveThreshold, LoadRunResult, LoadRunStatus, PartialSnapshot, SeriesPoint } from "./k6/engine";
import { MetricRegistry } from "./metrics";
import { buildSummary, evaluateThresholds, GroupTree, summaryText } from "./summary";
import { parseThresholds } from "./thresholds";

export type PartStatus = LoadRunStatus | "lost" | "cancelled";

export interface RunPart {
  status: PartStatus;
  reason?: string;
  /** The part's last snapshot; absent when it never reported. */
  snapshot?: PartialSnapshot;
  series: SeriesPoint[];
  /** The thresholds the part evaluated (the same for every part of a run). */
  thresholds: Pick<LiveThreshold, "key" | "source">[];
  logs?: string[];
}

/** A merged run reads like one runner's result, without handleSummary's outputs (they cannot be merged). */
export type MergedRun = Omit<LoadRunResult, "handleSummary">;

const MAX_LOG_LINES = 1000;

/** Points of the same second added up: counts summed, the average weighted by requests, p95 the worst part's (an upper bound). */
export function mergeSeries(parts: SeriesPoint[][]): SeriesPoint[] {
  const byT = new Map<number, SeriesPoint & { weighted: number }>();
  for (const list of parts) {
    for (const p of list) {
      const m = byT.get(p.t);
      if (!m) {
        byT.set(p.t, { ...p, weighted: p.avgMs * p.rps });
        continue;
      }
      m.vus += p.vus;
      m.requests += p.requests;
      m.rps += p.rps;
      m.failed += p.failed;
      m.iterations += p.iterations;
      m.checksFailed += p.checksFailed;
      m.dataReceived += p.dataReceived;
      m.dataSent += p.dataSent;
      m.p95Ms = Math.max(m.p95Ms, p.p95Ms);
      m.weighted += p.avgMs * p.rps;
      m.avgMs = m.rps ? m.weighted / m.rps : 0;
    }
  }
  return [...byT.values()].sort((a, b) => a.t - b.t).map(({ weighted: _w, ...p }) => p);
}

function thresholdsOption(list: Pick<LiveThreshold, "key" | "source">[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const t of list) if (!(out[t.key] ??= []).includes(t.source)) out[t.key].push(t.source);
  return out;
}

function overallStatus(parts: RunPart[], thresholdsFailed: string[]): { status: LoadRunStatus; reason?: string } {
  const aborted = parts.find((p) => p.status === "aborted");
  if (aborted) return { status: "aborted", reason: aborted.reason };
  const stopped = parts.find((p) => p.status === "stopped" || p.status === "cancelled");
  if (stopped) return { status: "stopped", reason: stopped.reason ?? "stopped by the user" };
  const broken = parts.map((p, i) => ({ p, i })).filter(({ p }) => p.status === "failed" || p.status === "lost");
  if (broken.length) {
    const why = broken.map(({ p, i }) => `part ${i + 1} of ${parts.length} ${p.status === "lost" ? "was lost" : "failed"}${p.reason ? `: ${p.reason}` : ""}`);
    return { status: "failed", reason: why.join("; ") };
  }
  if (thresholdsFailed.length) return { status: "failed", reason: `thresholds crossed: ${thresholdsFailed.join(", ")}` };
  return { status: "passed" };
}

export function mergeRunParts(parts: RunPart[]): MergedRun {
  const registry = new MetricRegistry();
  const groups = new GroupTree();
  const errors = new Map<string, number>();
  let durationMs = 0;
  for (const p of parts) {
    if (!p.snapshot) continue;
    registry.merge(p.snapshot.metrics);
    groups.merge(p.snapshot.rootGroup);
    for (const e of p.snapshot.errors) errors.set(e.message, (errors.get(e.message) ?? 0) + e.count);
    durationMs = Math.max(durationMs, p.snapshot.durationMs);
  }
  const declared = parts.find((p) => p.thresholds.length)?.thresholds ?? [];
  // The parts parsed these already; a metric no part ever defined cannot occur.
  let thresholds: ReturnType<typeof parseThresholds> = [];
  try {
    thresholds = parseThresholds(thresholdsOption(declared), (name) => registry.typeOf(name));
  } catch {
    // Only when no part ever reported the custom metric a threshold names: nothing to evaluate it on.
  }
  const outcomes = evaluateThresholds(registry, thresholds, durationMs).map((o) => ({ key: o.threshold.key, source: o.threshold.source, ok: o.ok, actual: o.actual ?? null }));
  const { status, reason } = overallStatus(
    parts,
    outcomes.filter((t) => !t.ok).map((t) => `${t.key}: ${t.source}`),
  );
  const summary = buildSummary({ registry, groups, thresholds, durationMs });
  const logs = parts.flatMap((p, i) => (p.logs ?? []).map((l) => (parts.length > 1 ? `[part ${i + 1}] ${l}` : l))).slice(0, MAX_LOG_LINES);
  return {
    status,
    reason,
    durationMs,
    summary,
    summaryText: summaryText(summary),
    thresholds: outcomes,
    series: mergeSeries(parts.map((p) => p.series)),
    errors: [...errors].map(([message, count]) => ({ message, count })),
    logs,
    metrics: registry.snapshot(),
  };
}

/** Why a snapshot from outside (a runner's report) cannot be merged, or null when it can. */
export function snapshotProblem(snapshot: Pick<PartialSnapshot, "metrics">): string | null {
  try {
    new MetricRegistry().merge(snapshot.metrics);
    return null;
  } catch (e) {
    return `snapshot.metrics: ${(e as Error).message}`;
  }
}
