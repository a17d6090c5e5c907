// Reading a comparison of load runs (the API's rows carry each value, its
// delta against the first run and which direction is better): a label and a
// number format per headline field, and whether each change is good. Lower
// latency and fewer failures are better, more requests per second is better;
// changes under 1 % are noise ("same"), and counts that only follow from the
// run's length (requests, iterations) get no verdict.
import type { PerfHeadline } from "@/server/contracts/perf";
import { formatCount, formatMetricValue, formatMs, formatPercent, formatRate } from "./format";

export type Verdict = "better" | "worse" | "same" | "neutral";
type Delta = { absolute: number; percent: number | null } | null;

const FIELDS: Partial<Record<keyof PerfHeadline, { label: string; format: (n: number) => string }>> = {
  rps: { label: "Requests/s", format: formatRate },
  p95Ms: { label: "p(95) latency", format: formatMs },
  p99Ms: { label: "p(99) latency", format: formatMs },
  avgMs: { label: "Average latency", format: formatMs },
  failedRate: { label: "Failed requests", format: (n) => formatPercent(n) },
  checksFailed: { label: "Failed checks", format: formatCount },
  checksPassed: { label: "Passed checks", format: formatCount },
  requests: { label: "Requests", format: formatCount },
  iterations: { label: "Iterations", format: formatCount },
  vusMax: { label: "Max VUs", format: formatCount },
  durationMs: { label: "Duration", format: formatMs },
  thresholdsOk: { label: "Thresholds", format: (n) => (n ? "✓ held" : "✗ failed") },
};

export function fieldLabel(field: string): string {
  return FIELDS[field as keyof PerfHeadline]?.label ?? field;
}

export function formatField(field: string, value: number | null): string {
  if (value === null) return "—";
  if (field === "thresholdsOk") return value ? "✓ held" : "✗ failed";
  return (FIELDS[field as keyof PerfHeadline]?.format ?? formatCount)(value);
}

/** A metric's value formatted as k6 would, from the metric's name (time metrics end in _duration or are http_req_*). */
export function formatMetricStat(metric: string, stat: string, value: number | null): string {
  if (value === null) return "—";
  const base = metric.split("{")[0]!;
  const type = stat === "rate" && (base.endsWith("_failed") || base === "checks") ? "rate" : stat === "rate" || stat === "count" ? "counter" : "trend";
  const contains = base.startsWith("data_") ? "data" : /duration|_req_(blocked|connecting|tls|sending|waiting|receiving)/.test(base) ? "time" : "default";
  return formatMetricValue({ type, contains }, stat, value);
}

const NOISE = 0.01;

export function verdictOf(delta: Delta, better: "lower" | "higher" | null): Verdict {
  if (!delta || !better) return "neutral";
  const { absolute, percent } = delta;
  if (percent !== null ? Math.abs(percent) < NOISE * 100 : absolute === 0) return "same";
  return (better === "lower" ? absolute < 0 : absolute > 0) ? "better" : "worse";
}

/** "+12ms (+5.3%)" with a real minus sign; null without a delta. */
export function formatDelta(delta: Delta, format: (n: number) => string): string | null {
  if (!delta) return null;
  const sign = delta.absolute > 0 ? "+" : delta.absolute < 0 ? "−" : "±";
  const pct = delta.percent === null ? "" : ` (${sign}${Math.round(Math.abs(delta.percent) * 10) / 10}%)`;
  return `${sign}${format(Math.abs(delta.absolute))}${pct}`;
}
