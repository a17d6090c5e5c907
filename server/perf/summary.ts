// The end-of-test summary, as k6 prints it and as k6 hands it to
// `handleSummary(data)`: the JSON (`metrics` with `values` and each
// threshold's `ok`, `root_group` with groups and checks, `state`) and the
// text layout people know from k6's terminal output. Users paste these into
// tickets and CI logs, so the layout follows k6's closely.
import { formatDuration } from "./duration";
import type { Metric, MetricRegistry } from "./metrics";
import type { MetricValues, Threshold } from "./thresholds";
import { thresholdHolds } from "./thresholds";

export const DEFAULT_TREND_STATS = ["avg", "min", "med", "max", "p(90)", "p(95)"] as const;

export interface CheckResult {
  name: string;
  path: string;
  passes: number;
  fails: number;
}

export interface GroupResult {
  name: string;
  path: string;
  groups: GroupResult[];
  checks: CheckResult[];
}

/** Groups and checks as the script met them, in first-seen order (k6's `root_group`). */
export class GroupTree {
  readonly root: GroupResult = { name: "", path: "", groups: [], checks: [] };

  private group(path: string[]): GroupResult {
    let g = this.root;
    for (const name of path) {
      const childPath = `${g.path}::${name}`;
      let child = g.groups.find((c) => c.name === name);
      if (!child) {
        child = { name, path: childPath, groups: [], checks: [] };
        g.groups.push(child);
      }
      g = child;
    }
    return g;
  }

  /** Ensures a group shows even when it ran no check. */
  enter(path: string[]) {
    this.group(path);
  }

  check(groupPath: string[], name: string, passes: number, fails: number) {
    const g = this.group(groupPath);
    let c = g.checks.find((x) => x.name === name);
    if (!c) {
      c = { name, path: `${g.path}::${name}`, passes: 0, fails: 0 };
      g.checks.push(c);
    }
    c.passes += passes;
    c.fails += fails;
  }

  /** Adds another tree (another runner's) into this one. */
  merge(other: GroupResult, path: string[] = []) {
    for (const c of other.checks) this.check(path, c.name, c.passes, c.fails);
    for (const g of other.groups) {
      this.enter([...path, g.name]);
      this.merge(g, [...path, g.name]);
    }
  }
}

export interface SummaryMetric {
  type: "counter" | "gauge" | "rate" | "trend";
  contains: "time" | "data" | "default";
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

export interface SummaryData {
  root_group: GroupResult;
  options: { summaryTrendStats: string[]; summaryTimeUnit: string; noColor: boolean };
  state: { isStdOutTTY: boolean; isStdErrTTY: boolean; testRunDurationMs: number };
  metrics: Record<string, SummaryMetric>;
}

function statValue(stat: string, v: MetricValues): number | undefined {
  const p = /^p\((\d+(?:\.\d+)?)\)$/.exec(stat);
  if (p) return v.percentile?.(Number(p[1]));
  if (stat === "count") return v.count;
  return v[stat as "avg" | "min" | "med" | "max"];
}

function contains(m: Metric): SummaryMetric["contains"] {
  if (m.definition.isTime) return "time";
  return m.definition.name === "data_sent" || m.definition.name === "data_received" ? "data" : "default";
}

function valuesOf(m: Metric, v: MetricValues, trendStats: readonly string[]): Record<string, number> {
  switch (m.definition.type) {
    case "counter":
      return { count: v.count ?? 0, rate: v.rate ?? 0 };
    case "gauge":
      return { value: v.value ?? 0, min: v.min ?? 0, max: v.max ?? 0 };
    case "rate": {
      const snap = m.all.snapshot();
      const passes = snap.type === "rate" ? snap.passes : 0;
      const fails = snap.type === "rate" ? snap.fails : 0;
      return { rate: v.rate ?? 0, passes, fails };
    }
    case "trend": {
      const out: Record<string, number> = {};
      for (const s of trendStats) out[s] = statValue(s, v) ?? 0;
      return out;
    }
  }
}

function hasSamples(m: Metric): boolean {
  const s = m.all.snapshot();
  switch (s.type) {
    case "counter":
      return s.count !== 0;
    case "gauge":
      return s.set;
    case "rate":
      return s.passes + s.fails > 0;
    case "trend":
      return s.count > 0;
  }
}

/** Every threshold's outcome against the registry now (live during a run, final at its end). */
export function evaluateThresholds(registry: MetricRegistry, thresholds: Threshold[], durationMs: number): { threshold: Threshold; ok: boolean; actual: number | undefined }[] {
  return thresholds.map((t) => {
    const metric = registry.get(t.metric);
    const agg = metric && (Object.keys(t.tags).length ? metric.submetrics.get(t.key)?.aggregate : metric.all);
    const values = agg?.values(durationMs) ?? {};
    const actual = t.aggregation.kind === "p" ? values.percentile?.(t.aggregation.p) : values[t.aggregation.kind];
    return { threshold: t, ok: thresholdHolds(t, values), actual };
  });
}

export function buildSummary(input: { registry: MetricRegistry; groups: GroupTree; thresholds: Threshold[]; durationMs: number; trendStats?: readonly string[] }): SummaryData {
  const trendStats = input.trendStats ?? DEFAULT_TREND_STATS;
  const outcomes = evaluateThresholds(input.registry, input.thresholds, input.durationMs);
  const metrics: Record<string, SummaryMetric> = {};
  const emit = (name: string, m: Metric, v: MetricValues) => {
    metrics[name] = { type: m.definition.type, contains: contains(m), values: valuesOf(m, v, trendStats) };
  };
  for (const m of input.registry.entries()) {
    const withThreshold = outcomes.some((o) => o.threshold.metric === m.definition.name);
    if (!hasSamples(m) && !withThreshold) continue;
    emit(m.definition.name, m, m.all.values(input.durationMs));
    for (const [key, sub] of m.submetrics) {
      metrics[key] = { type: m.definition.type, contains: contains(m), values: valuesOf(m, sub.aggregate.values(input.durationMs), trendStats) };
    }
  }
  for (const o of outcomes) {
    const target = metrics[o.threshold.key] ?? metrics[o.threshold.metric];
    if (!target) continue;
    (target.thresholds ??= {})[o.threshold.source] = { ok: o.ok };
  }
  return {
    root_group: input.groups.root,
    options: { summaryTrendStats: [...trendStats], summaryTimeUnit: "", noColor: true },
    state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: input.durationMs },
    metrics,
  };
}

function formatBytes(n: number): string {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) {
    n /= 1000;
    i++;
  }
  return `${i === 0 ? n : Math.round(n * 10) / 10} ${units[i]}`;
}

function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 1e6) / 1e6);
}

function metricLine(name: string, m: SummaryMetric, trendStats: readonly string[]): string {
  const v = m.values;
  const time = m.contains === "time";
  const data = m.contains === "data";
  switch (m.type) {
    case "counter":
      return data ? `${formatBytes(v.count).padEnd(7)} ${formatBytes(v.rate)}/s` : `${formatNumber(v.count).padEnd(7)} ${formatNumber(v.rate)}/s`;
    case "gauge":
      return `${formatNumber(v.value).padEnd(7)} min=${formatNumber(v.min).padEnd(7)} max=${formatNumber(v.max)}`;
    case "rate":
      return `${`${(v.rate * 100).toFixed(2)}%`.padEnd(7)} ✓ ${String(v.passes).padEnd(8)} ✗ ${v.fails}`;
    case "trend":
      return trendStats.map((s) => `${s}=${time ? formatDuration(v[s] ?? 0) : formatNumber(v[s] ?? 0)}`.padEnd(s.length + 10)).join(" ").trimEnd();
  }
}

function groupLines(g: GroupResult, depth: number, out: string[]) {
  const indent = "     " + "  ".repeat(depth);
  for (const c of g.checks) {
    const total = c.passes + c.fails;
    if (c.fails === 0) out.push(`${indent}✓ ${c.name}`);
    else {
      out.push(`${indent}✗ ${c.name}`);
      out.push(`${indent} ↳  ${Math.floor((c.passes / total) * 100)}% — ✓ ${c.passes} / ✗ ${c.fails}`);
    }
  }
  for (const child of g.groups) {
    out.push("");
    out.push(`${indent}█ ${child.name}`);
    out.push("");
    groupLines(child, depth + 1, out);
  }
}

/** k6's classic end-of-test text summary. */
export function summaryText(data: SummaryData): string {
  const out: string[] = [];
  groupLines(data.root_group, 0, out);
  if (out.length) out.push("");
  const names = Object.keys(data.metrics).sort((a, b) => a.localeCompare(b));
  const width = Math.max(30, ...names.map((n) => n.length + 3));
  for (const name of names) {
    const m = data.metrics[name];
    const sub = name.includes("{");
    const label = sub ? `  { ${name.slice(name.indexOf("{") + 1, -1)} }` : name;
    const th = m.thresholds ? Object.values(m.thresholds) : [];
    const mark = th.length === 0 ? " " : th.every((t) => t.ok) ? "✓" : "✗";
    out.push(`   ${mark} ${`${label}`.padEnd(width, ".")}: ${metricLine(name, m, data.options.summaryTrendStats)}`);
  }
  return out.join("\n") + "\n";
}
