// The load test editor's form and the saved config's `options`, both ways.
// People edit the common k6 options as fields (VUs and duration, or a ramp of
// stages; thresholds as metric + expression rows; __ENV values as rows); every
// other option the config holds (scenarios, iterations, summaryTrendStats…)
// is kept untouched. "From the script" leaves the load shape to the script's
// own `export const options`, since options given here override the script's.
import { z } from "zod";
import { parseDuration } from "@/server/perf/duration";

export const LOAD_SHAPES = ["script", "fixed", "ramp"] as const;
export type LoadShape = (typeof LOAD_SHAPES)[number];

/** The options the form edits as fields; the rest are carried over as they are. */
const FORM_KEYS = new Set(["vus", "duration", "stages", "thresholds"]);

const durationText = z
  .string()
  .trim()
  .min(1, "e.g. 30s, 1m30s")
  .refine((s) => {
    try {
      return parseDuration(s) > 0;
    } catch {
      return false;
    }
  }, "a duration such as 30s, 1m30s or 500ms");

/** k6 threshold expressions: an aggregation, an operator and a number ("p(95)<500", "rate<0.01", "count>100"). */
export const THRESHOLD_EXPRESSION = /^\s*(avg|min|max|med|count|rate|value|p\(\d+(\.\d+)?\))\s*(<=|>=|<|>|===|==|!=)\s*-?\d+(\.\d+)?\s*$/;

const integerText = (min: number, what: string) =>
  z
    .string()
    .trim()
    .refine((s) => /^\d+$/.test(s) && Number(s) >= min, `${what}: a whole number from ${min}`);

export const ConfigFormSchema = z
  .object({
    name: z.string().trim().min(1, "Give the load test a name").max(200),
    description: z.string().max(10_000),
    script: z.string().min(1, "The script is empty"),
    load: z.enum(LOAD_SHAPES),
    vus: z.string(),
    duration: z.string(),
    stages: z.array(z.object({ duration: z.string(), target: z.string() })),
    thresholds: z.array(z.object({ metric: z.string(), expression: z.string(), abortOnFail: z.boolean() })),
    environment: z.array(z.object({ name: z.string(), value: z.string() })),
    environmentId: z.string().nullable(),
  })
  .superRefine((v, ctx) => {
    const issue = (path: (string | number)[], message: string) => ctx.addIssue({ code: "custom", path, message });
    if (v.load === "fixed") {
      const vus = integerText(1, "VUs").safeParse(v.vus);
      if (!vus.success) issue(["vus"], "A whole number of VUs, at least 1");
      if (!durationText.safeParse(v.duration).success) issue(["duration"], "A duration such as 30s, 1m30s or 500ms");
    }
    if (v.load === "ramp") {
      if (!v.stages.length) issue(["stages"], "Add at least one stage");
      v.stages.forEach((s, i) => {
        if (!durationText.safeParse(s.duration).success) issue(["stages", i, "duration"], "e.g. 30s");
        if (!integerText(0, "Target").safeParse(s.target).success) issue(["stages", i, "target"], "0 or more VUs");
      });
    }
    v.thresholds.forEach((t, i) => {
      if (!t.metric.trim()) issue(["thresholds", i, "metric"], "A metric, e.g. http_req_duration");
      else if (!/^[A-Za-z_][A-Za-z0-9_]*(\{[^{}]+\})?$/.test(t.metric.trim())) issue(["thresholds", i, "metric"], "A metric name, optionally with a tag filter: http_req_duration{status:200}");
      if (!THRESHOLD_EXPRESSION.test(t.expression)) issue(["thresholds", i, "expression"], "e.g. p(95)<500 or rate<0.01");
    });
    const seen = new Set<string>();
    v.environment.forEach((e, i) => {
      if (!/^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(e.name)) issue(["environment", i, "name"], "Letters, digits and _, not starting with a digit");
      else if (seen.has(e.name)) issue(["environment", i, "name"], "Named twice");
      seen.add(e.name);
    });
  });
export type ConfigFormValues = z.infer<typeof ConfigFormSchema>;

type Options = Record<string, unknown>;

/** A sample that runs as it is against any URL given in __ENV.BASE_URL (the empty state and "New load test" start from it). */
export function sampleScript(baseUrl = "https://test.k6.io"): string {
  return `import http from "k6/http";
import { check, sleep } from "k6";

// VUs, duration and thresholds come from the form beside the editor;
// an \`export const options = { … }\` here is used for anything the form leaves out.
const BASE_URL = __ENV.BASE_URL || "${baseUrl}";

export default function () {
  const res = http.get(\`\${BASE_URL}/\`);
  check(res, {
    "status is 200": (r) => r.status === 200,
  });
  sleep(1);
}
`;
}

export function emptyForm(script = sampleScript()): ConfigFormValues {
  return {
    name: "",
    description: "",
    script,
    load: "fixed",
    vus: "10",
    duration: "30s",
    stages: [
      { duration: "10s", target: "10" },
      { duration: "20s", target: "10" },
      { duration: "10s", target: "0" },
    ],
    thresholds: [
      { metric: "http_req_duration", expression: "p(95)<500", abortOnFail: false },
      { metric: "http_req_failed", expression: "rate<0.01", abortOnFail: false },
    ],
    environment: [],
    environmentId: null,
  };
}

/** The form's fields from a saved config (its options as k6 takes them). */
export function formFromConfig(config: { name: string; description: string; script: string; options: Options; environment: Record<string, string>; environmentId: string | null }): ConfigFormValues {
  const o = config.options ?? {};
  const stages = Array.isArray(o.stages) ? (o.stages as { duration?: unknown; target?: unknown }[]) : null;
  const load: LoadShape = stages ? "ramp" : o.vus !== undefined || o.duration !== undefined ? "fixed" : "script";
  return {
    name: config.name,
    description: config.description,
    script: config.script,
    load,
    vus: o.vus === undefined ? (load === "script" ? "10" : "1") : String(o.vus),
    duration: o.duration === undefined ? (load === "script" ? "30s" : "") : String(o.duration),
    stages: (stages ?? emptyForm().stages).map((s) => ({ duration: String(s.duration ?? ""), target: String(s.target ?? "") })),
    thresholds: thresholdRows(o.thresholds),
    environment: Object.entries(config.environment ?? {}).map(([name, value]) => ({ name, value })),
    environmentId: config.environmentId,
  };
}

function thresholdRows(raw: unknown): ConfigFormValues["thresholds"] {
  if (!raw || typeof raw !== "object") return [];
  const rows: ConfigFormValues["thresholds"] = [];
  for (const [metric, value] of Object.entries(raw as Record<string, unknown>)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === "string") rows.push({ metric, expression: item, abortOnFail: false });
      else if (item && typeof item === "object" && typeof (item as { threshold?: unknown }).threshold === "string") {
        rows.push({ metric, expression: (item as { threshold: string }).threshold, abortOnFail: (item as { abortOnFail?: unknown }).abortOnFail === true });
      }
    }
  }
  return rows;
}

/**
 * The options to save: the config's other options as they were, with the
 * form's load shape and thresholds over them. Threshold objects keep fields
 * the form does not show (delayAbortEval) when their expression is unchanged.
 */
export function optionsFromForm(v: ConfigFormValues, previous: Options = {}): Options {
  const out: Options = {};
  for (const [k, val] of Object.entries(previous)) if (!FORM_KEYS.has(k)) out[k] = val;
  if (v.load === "fixed") {
    out.vus = Number(v.vus.trim());
    out.duration = v.duration.trim();
  } else if (v.load === "ramp") {
    out.stages = v.stages.map((s) => ({ duration: s.duration.trim(), target: Number(s.target.trim()) }));
    if (previous.vus !== undefined && previous.stages !== undefined) out.vus = previous.vus;
  }
  const before = previous.thresholds && typeof previous.thresholds === "object" ? (previous.thresholds as Record<string, unknown>) : {};
  const thresholds: Record<string, unknown[]> = {};
  for (const t of v.thresholds) {
    const metric = t.metric.trim();
    const expression = t.expression.trim();
    const old = (Array.isArray(before[metric]) ? (before[metric] as unknown[]) : []).find((x) => x && typeof x === "object" && (x as { threshold?: string }).threshold === expression) as Record<string, unknown> | undefined;
    const entry = t.abortOnFail || old ? { ...(old ?? {}), threshold: expression, abortOnFail: t.abortOnFail } : expression;
    (thresholds[metric] ??= []).push(entry);
  }
  if (Object.keys(thresholds).length) out.thresholds = thresholds;
  return out;
}

export function environmentFromForm(v: ConfigFormValues): Record<string, string> {
  return Object.fromEntries(v.environment.map((e) => [e.name, e.value]));
}

/** The ramp as points for the chart: VUs at each stage's end, from the start VUs (k6: `vus`, else 1). */
export function rampPoints(stages: { duration: string; target: string }[], startVus = 1): { t: number; vus: number }[] {
  const points = [{ t: 0, vus: startVus }];
  let at = 0;
  for (const s of stages) {
    let ms: number;
    try {
      ms = parseDuration(s.duration.trim());
    } catch {
      continue;
    }
    const target = Number(s.target);
    if (!Number.isFinite(target) || target < 0) continue;
    at += ms / 1000;
    points.push({ t: Math.round(at * 10) / 10, vus: target });
  }
  return points;
}
