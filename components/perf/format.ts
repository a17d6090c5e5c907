// Numbers of a load run as people read them in k6's summary: durations in
// ms/s, rates per second, byte sizes, percentages. One place, so the list,
// the result page and the compare view agree.
import { formatDuration } from "@/server/perf/duration";

/** "12.34ms", "1.2s" as k6 prints trend values of time metrics. */
export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  // k6 prints a zero duration as "0s", not "0µs".
  return ms === 0 ? "0s" : formatDuration(ms);
}

/** "123.4/s". */
export function formatRate(perSecond: number | null | undefined): string {
  if (perSecond === null || perSecond === undefined || !Number.isFinite(perSecond)) return "—";
  return `${trim(perSecond, perSecond >= 100 ? 0 : perSecond >= 10 ? 1 : 2)}/s`;
}

/** "0.52%" for a 0–1 rate. */
export function formatPercent(rate: number | null | undefined, digits = 2): string {
  if (rate === null || rate === undefined || !Number.isFinite(rate)) return "—";
  return `${trim(rate * 100, digits)}%`;
}

const BYTE_UNITS = ["B", "kB", "MB", "GB", "TB"];

/** "1.2 MB" in k6's decimal units. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "—";
  let n = bytes;
  let unit = 0;
  while (Math.abs(n) >= 1000 && unit < BYTE_UNITS.length - 1) {
    n /= 1000;
    unit++;
  }
  return `${trim(n, unit === 0 ? 0 : 1)} ${BYTE_UNITS[unit]}`;
}

export function formatCount(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return "—";
  return Number.isInteger(n) ? n.toLocaleString("en-US") : trim(n, 2);
}

/** One value of a k6 metric as its summary prints it: a Rate's rate as a percentage, a Counter's as per second, durations for time metrics, sizes for data ones. */
export function formatMetricValue(metric: { type: "counter" | "gauge" | "rate" | "trend"; contains: "time" | "data" | "default" }, stat: string, value: number): string {
  if (metric.type === "rate" && stat === "rate") return formatPercent(value);
  if (metric.type === "counter" && stat === "rate") return metric.contains === "data" ? `${formatBytes(value)}/s` : formatRate(value);
  if (stat === "count" || stat === "passes" || stat === "fails") return metric.contains === "data" ? formatBytes(value) : formatNumber(value);
  if (metric.contains === "time") return formatMs(value);
  if (metric.contains === "data") return formatBytes(value);
  return formatNumber(value);
}

function formatNumber(n: number): string {
  return Number.isInteger(n) ? n.toLocaleString("en-US") : trim(n, n >= 100 ? 1 : 4);
}

/** A run's length: "5s", "1m30s". */
export function formatElapsed(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return "—";
  return formatDuration(Math.round(ms / 100) * 100);
}

function trim(n: number, digits: number): string {
  return String(Math.round(n * 10 ** digits) / 10 ** digits);
}
