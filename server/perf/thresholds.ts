// k6 thresholds: `options.thresholds` maps a metric (optionally filtered by
// tags, `http_req_duration{status:200}`) to expressions such as
// `p(95)<200`, `rate<0.01`, `count>10`, or objects
// `{threshold, abortOnFail, delayAbortEval}`. Parsed once when a run starts,
// so a typo is a 400 naming the key and the expression before any VU starts,
// and evaluated against metric snapshots both live and at the end.
import { DurationError, parseDuration } from "./duration";

export type MetricType = "counter" | "gauge" | "rate" | "trend";
export type Operator = "<" | "<=" | ">" | ">=" | "==" | "===" | "!=";
export type Aggregation = { kind: "avg" | "min" | "max" | "med" | "count" | "rate" | "value" } | { kind: "p"; p: number };

export interface Threshold {
  /** The key as written, `http_req_duration{status:200}`. */
  key: string;
  metric: string;
  tags: Record<string, string>;
  /** The expression as written, `p(95)<200`. */
  source: string;
  aggregation: Aggregation;
  op: Operator;
  value: number;
  abortOnFail: boolean;
  delayAbortEvalMs: number;
}

/** Which aggregations each metric type offers (k6's table). */
const AGGREGATIONS: Record<MetricType, readonly string[]> = {
  counter: ["count", "rate"],
  gauge: ["value"],
  rate: ["rate"],
  trend: ["avg", "min", "max", "med", "p(N)"],
};

export class ThresholdError extends Error {
  constructor(
    readonly key: string,
    readonly expression: string | undefined,
    message: string,
  ) {
    super(expression === undefined ? `threshold "${key}": ${message}` : `threshold "${key}": "${expression}": ${message}`);
  }
}

const METRIC_NAME = /^[a-zA-Z_][a-zA-Z0-9_.-]{0,127}$/;

/** `name{tag:value,other:v}` → the metric and its tag filter. Tag values may hold colons (`group:::main`). */
export function parseThresholdKey(key: string): { metric: string; tags: Record<string, string> } {
  const brace = key.indexOf("{");
  const metric = (brace < 0 ? key : key.slice(0, brace)).trim();
  if (!METRIC_NAME.test(metric)) throw new ThresholdError(key, undefined, `"${metric}" is not a metric name`);
  const tags: Record<string, string> = {};
  if (brace < 0) return { metric, tags };
  if (!key.endsWith("}")) throw new ThresholdError(key, undefined, "the tag filter must end with }");
  const inner = key.slice(brace + 1, -1).trim();
  if (inner === "") throw new ThresholdError(key, undefined, "empty tag filter {}");
  for (const pair of inner.split(",")) {
    const colon = pair.indexOf(":");
    if (colon <= 0) throw new ThresholdError(key, undefined, `tag filter "${pair.trim()}" must be name:value`);
    tags[pair.slice(0, colon).trim()] = pair.slice(colon + 1).trim();
  }
  return { metric, tags };
}

const EXPRESSION = /^\s*(avg|min|max|med|count|rate|value|p\(\s*(\d+(?:\.\d+)?)\s*\))\s*(===|==|!=|<=|>=|<|>)\s*(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*$/i;

/** `p(95)<200` → its parts; throws ThresholdError saying what is wrong. */
export function parseThresholdExpression(key: string, source: string): Pick<Threshold, "aggregation" | "op" | "value"> {
  const m = EXPRESSION.exec(source);
  if (!m) {
    const hint = /^\s*p\s*\d/.test(source) ? " (percentiles are written p(95))" : "";
    throw new ThresholdError(key, source, `expected <aggregation> <operator> <number>, e.g. p(95)<200 or rate<0.01${hint}`);
  }
  const name = m[1].toLowerCase();
  let aggregation: Aggregation;
  if (name.startsWith("p(")) {
    const p = Number(m[2]);
    if (!(p >= 0 && p <= 100)) throw new ThresholdError(key, source, `percentile ${m[2]} must be between 0 and 100`);
    aggregation = { kind: "p", p };
  } else aggregation = { kind: name as Exclude<Aggregation["kind"], "p"> };
  return { aggregation, op: m[3] as Operator, value: Number(m[4]) };
}

/**
 * `options.thresholds` → every threshold, in the order written. `typeOf`
 * tells the type of a known metric (built-in or declared by the script);
 * unknown metrics and aggregations the type lacks are refused, as k6 does.
 */
export function parseThresholds(input: unknown, typeOf: (metric: string) => MetricType | undefined): Threshold[] {
  if (input === undefined || input === null) return [];
  if (typeof input !== "object" || Array.isArray(input)) throw new ThresholdError("thresholds", undefined, "must be an object of metric → expressions");
  const out: Threshold[] = [];
  for (const [key, raw] of Object.entries(input as Record<string, unknown>)) {
    const { metric, tags } = parseThresholdKey(key);
    const type = typeOf(metric);
    if (!type) throw new ThresholdError(key, undefined, `no metric named "${metric}" (a custom metric must be created in the init code)`);
    const entries = Array.isArray(raw) ? raw : [raw];
    for (const entry of entries) {
      const spec = typeof entry === "string" ? { threshold: entry } : entry;
      if (!spec || typeof spec !== "object" || typeof (spec as { threshold?: unknown }).threshold !== "string") {
        throw new ThresholdError(key, undefined, "each threshold is a string or {threshold, abortOnFail, delayAbortEval}");
      }
      const { threshold: source, abortOnFail, delayAbortEval } = spec as { threshold: string; abortOnFail?: unknown; delayAbortEval?: unknown };
      const parts = parseThresholdExpression(key, source);
      const allowed = AGGREGATIONS[type];
      const aggName = parts.aggregation.kind === "p" ? "p(N)" : parts.aggregation.kind;
      if (!allowed.includes(aggName)) throw new ThresholdError(key, source, `a ${type} metric has ${allowed.join(", ")}, not ${aggName}`);
      let delayAbortEvalMs = 0;
      if (delayAbortEval !== undefined) {
        try {
          delayAbortEvalMs = parseDuration(delayAbortEval as string | number);
        } catch (e) {
          throw new ThresholdError(key, source, `delayAbortEval: ${(e as DurationError).message}`);
        }
      }
      out.push({ key, metric, tags, source, ...parts, abortOnFail: abortOnFail === true, delayAbortEvalMs });
    }
  }
  return out;
}

/** The figures a threshold reads from one metric (filtered by its tags). */
export interface MetricValues {
  count?: number;
  rate?: number;
  value?: number;
  avg?: number;
  min?: number;
  max?: number;
  med?: number;
  percentile?: (p: number) => number;
}

/** The aggregation's figure, or undefined when the metric has no samples yet. */
export function aggregate(t: Pick<Threshold, "aggregation">, v: MetricValues): number | undefined {
  const a = t.aggregation;
  return a.kind === "p" ? v.percentile?.(a.p) : v[a.kind];
}

/**
 * Whether the threshold holds. A metric with no samples passes, as in k6
 * (a threshold on requests that never happened does not fail the run).
 */
export function thresholdHolds(t: Pick<Threshold, "aggregation" | "op" | "value">, v: MetricValues): boolean {
  const x = aggregate(t, v);
  if (x === undefined || Number.isNaN(x)) return true;
  switch (t.op) {
    case "<":
      return x < t.value;
    case "<=":
      return x <= t.value;
    case ">":
      return x > t.value;
    case ">=":
      return x >= t.value;
    case "==":
    case "===":
      return x === t.value;
    case "!=":
      return x !== t.value;
  }
}
