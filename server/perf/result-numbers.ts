// The numbers people read off a load result without opening it: the headline
// (requests, rate, failures, latency percentiles, checks, thresholds) and the
// side-by-side comparison of several results with deltas against the first.
// Pure: the services hand in a result's k6 summary and metrics snapshot.
// p99 is not among k6's default summary stats, so it is read from the HDR
// histogram the metrics snapshot carries, exactly as a summary would compute it.
import type { PerfHeadline } from "@/server/contracts/perf";
import { aggregateFromSnapshot, type MetricRegistry } from "./metrics";
import type { SummaryData, SummaryMetric } from "./summary";

export type MetricsSnapshot = ReturnType<MetricRegistry["snapshot"]>;

const finite = (n: number | undefined): number | null => (n === undefined || !Number.isFinite(n) ? null : n);

/** A percentile of a trend metric from its histogram; null without samples. */
export function percentileOf(metrics: MetricsSnapshot | null | undefined, metric: string, p: number): number | null {
  const s = metrics?.[metric]?.all;
  if (!s || s.type !== "trend" || s.count === 0) return null;
  return finite(aggregateFromSnapshot(s).values(0).percentile?.(p));
}

/** The headline of a result; null while it has no numbers yet (or never got any). */
export function headlineOf(summary: SummaryData | null | undefined, metrics: MetricsSnapshot | null | undefined, thresholds: { ok: boolean }[]): PerfHeadline | null {
  const m = summary?.metrics;
  if (!m || Object.keys(m).length === 0) return null;
  const v = (name: string, stat: string) => m[name]?.values[stat];
  const duration = m.http_req_duration?.values;
  return {
    requests: v("http_reqs", "count") ?? 0,
    rps: v("http_reqs", "rate") ?? 0,
    failedRate: v("http_req_failed", "rate") ?? 0,
    avgMs: duration?.avg ?? 0,
    p95Ms: duration?.["p(95)"] ?? percentileOf(metrics, "http_req_duration", 95) ?? 0,
    p99Ms: duration?.["p(99)"] ?? percentileOf(metrics, "http_req_duration", 99),
    iterations: v("iterations", "count") ?? 0,
    vusMax: v("vus_max", "value") ?? v("vus", "max") ?? 0,
    checksPassed: v("checks", "passes") ?? 0,
    checksFailed: v("checks", "fails") ?? 0,
    thresholdsOk: thresholds.length ? thresholds.every((t) => t.ok) : null,
    durationMs: summary.state?.testRunDurationMs ?? 0,
  };
}

// ---- Comparison ------------------------------------------------------------------

export type Better = "lower" | "higher" | null;
export interface Delta {
  absolute: number;
  percent: number | null;
}

const HEADLINE_BETTER: Record<keyof PerfHeadline, Better> = {
  requests: "higher",
  rps: "higher",
  failedRate: "lower",
  avgMs: "lower",
  p95Ms: "lower",
  p99Ms: "lower",
  iterations: "higher",
  vusMax: null,
  checksPassed: "higher",
  checksFailed: "lower",
  thresholdsOk: "higher",
  durationMs: null,
};

/** Which way a metric's value improves: faster, fewer failures, more throughput. */
export function betterOf(metric: string, m: Pick<SummaryMetric, "type" | "contains">, stat: string): Better {
  const base = metric.split("{", 1)[0];
  if (m.type === "trend") return m.contains === "time" ? "lower" : null;
  if (m.type === "rate") {
    if (stat !== "rate" && stat !== "passes" && stat !== "fails") return null;
    const goodWhenTrue = base === "checks" ? true : base === "http_req_failed" ? false : null;
    if (goodWhenTrue === null) return null;
    const up = stat === "fails" ? !goodWhenTrue : goodWhenTrue;
    return up ? "higher" : "lower";
  }
  if (m.type === "counter") {
    if (base === "dropped_iterations") return "lower";
    return base === "http_reqs" || base === "iterations" ? "higher" : null;
  }
  return null;
}

export function deltaOf(baseline: number | null, value: number | null): Delta | null {
  if (baseline === null || value === null) return null;
  const absolute = value - baseline;
  return { absolute, percent: baseline === 0 ? null : (absolute / Math.abs(baseline)) * 100 };
}

export interface Comparable {
  headline: PerfHeadline | null;
  metrics: Record<string, SummaryMetric>;
}

/** The headline fields side by side. */
export function compareHeadlines(results: Comparable[]) {
  return (Object.keys(HEADLINE_BETTER) as (keyof PerfHeadline)[]).map((field) => {
    const values = results.map((r) => {
      const v = r.headline?.[field];
      return typeof v === "boolean" ? (v ? 1 : 0) : (v ?? null);
    });
    return { field, values, deltas: values.map((v) => deltaOf(values[0], v)), better: HEADLINE_BETTER[field] };
  });
}

/** Every metric and stat any result has, side by side, in k6's order (by name, stats as they come). */
export function compareMetrics(results: Comparable[]) {
  const rows: { metric: string; stat: string; values: (number | null)[]; deltas: (Delta | null)[]; better: Better }[] = [];
  const names = [...new Set(results.flatMap((r) => Object.keys(r.metrics)))].sort((a, b) => a.localeCompare(b));
  for (const metric of names) {
    const defined = results.map((r) => r.metrics[metric]).find(Boolean)!;
    const stats = [...new Set(results.flatMap((r) => Object.keys(r.metrics[metric]?.values ?? {})))];
    for (const stat of stats) {
      const values = results.map((r) => finite(r.metrics[metric]?.values[stat]));
      rows.push({ metric, stat, values, deltas: values.map((v) => deltaOf(values[0], v)), better: betterOf(metric, defined, stat) });
    }
  }
  return rows;
}
