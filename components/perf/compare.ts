// Two load runs side by side: each headline number with its change and
// whether the change is good. Direction matters: lower latency and fewer
// failures are better, more requests per second is better; counts that only
// follow from the run's length (requests, iterations) are shown without a verdict.
import type { PerfHeadline } from "@/server/contracts/perf";
import { formatCount, formatMs, formatPercent, formatRate } from "./format";

export type Verdict = "better" | "worse" | "same" | "neutral";

export interface CompareRow {
  key: keyof PerfHeadline;
  label: string;
  a: string;
  b: string;
  /** b − a, as text with its sign; null when either side has no number. */
  delta: string | null;
  /** The relative change, "+12.5%"; null when a is 0 or missing. */
  change: string | null;
  verdict: Verdict;
}

interface Row {
  key: keyof PerfHeadline;
  label: string;
  format: (n: number | null) => string;
  /** "lower": a drop is an improvement; "higher": a rise is; null: no verdict. */
  better: "lower" | "higher" | null;
}

const ROWS: Row[] = [
  { key: "rps", label: "Requests/s", format: formatRate, better: "higher" },
  { key: "p95Ms", label: "p(95) latency", format: formatMs, better: "lower" },
  { key: "p99Ms", label: "p(99) latency", format: formatMs, better: "lower" },
  { key: "avgMs", label: "Average latency", format: formatMs, better: "lower" },
  { key: "failedRate", label: "Failed requests", format: (n) => formatPercent(n), better: "lower" },
  { key: "checksFailed", label: "Failed checks", format: formatCount, better: "lower" },
  { key: "checksPassed", label: "Passed checks", format: formatCount, better: null },
  { key: "requests", label: "Requests", format: formatCount, better: null },
  { key: "iterations", label: "Iterations", format: formatCount, better: null },
  { key: "vusMax", label: "Max VUs", format: formatCount, better: null },
  { key: "durationMs", label: "Duration", format: formatMs, better: null },
];

/** Changes smaller than this share of the first value are "same": noise between two runs. */
const NOISE = 0.01;

export function compareHeadlines(a: PerfHeadline | null, b: PerfHeadline | null): CompareRow[] {
  return ROWS.map(({ key, label, format, better }) => {
    const x = num(a?.[key]);
    const y = num(b?.[key]);
    if (x === null || y === null) return { key, label, a: format(x), b: format(y), delta: null, change: null, verdict: "neutral" as Verdict };
    const d = y - x;
    const rel = x !== 0 ? d / Math.abs(x) : null;
    const same = rel === null ? d === 0 : Math.abs(rel) < NOISE;
    let verdict: Verdict = "neutral";
    if (better) verdict = same ? "same" : (better === "lower" ? d < 0 : d > 0) ? "better" : "worse";
    const sign = d > 0 ? "+" : d < 0 ? "−" : "±";
    return {
      key,
      label,
      a: format(x),
      b: format(y),
      delta: `${sign}${format(Math.abs(d))}`,
      change: rel === null ? null : `${sign}${Math.round(Math.abs(rel) * 1000) / 10}%`,
      verdict,
    };
  });
}

function num(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}
