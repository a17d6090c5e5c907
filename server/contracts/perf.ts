// Performance testing's resources (spec 02-modules, "Performance"): what a
// load run is given, what it answers, and the shapes of its stored result.
// The k6 vocabulary is kept on purpose (metric names, `p(95)`, thresholds with
// `ok`, the summary's `root_group`): people compare these with k6's own output.
import { z } from "zod";

/** k6 `options` as the script would export them; the engine checks every field and answers 400 naming it. */
export const K6Options = z.record(z.string(), z.unknown()).describe("k6 options (vus, duration, iterations, stages, scenarios, thresholds, …); given here they override the script's");
export type K6Options = z.infer<typeof K6Options>;

export const MAX_SCRIPT_BYTES = 1024 * 1024;
export const K6Script = z.string().min(1, "the script is empty").max(MAX_SCRIPT_BYTES, "at most 1 MiB").describe("k6 script (ES module: import http from 'k6/http' …)");

export const PerfEnvironment = z.record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "letters, digits and _"), z.string().max(64 * 1024)).describe("__ENV values");
export const PerfFiles = z
  .record(z.string().min(1).max(255), z.string().max(10 * 1024 * 1024))
  .refine((f) => Object.keys(f).length <= 50, "at most 50 files")
  .describe("files the script may open(): name → text");

export const PERF_STATUSES = ["queued", "running", "passed", "failed", "aborted", "stopped", "error"] as const;
export const PerfStatus = z.enum(PERF_STATUSES).describe("aborted: a threshold with abortOnFail failed; stopped: stopped by a user (partial results kept); error: the run could not start or its runner failed");
export type PerfStatus = z.infer<typeof PerfStatus>;

export const PerfRunInput = z
  .object({
    script: K6Script,
    name: z.string().trim().min(1).max(200).default("Load test"),
    options: K6Options.optional(),
    configId: z.string().uuid().optional().describe("the saved config this run belongs to (its history and trend)"),
    environment: PerfEnvironment.optional(),
    files: PerfFiles.optional(),
    runnerId: z.string().uuid().optional().describe("run on this runner agent (503 when it is not available)"),
  })
  .strict();
export type PerfRunInput = z.infer<typeof PerfRunInput>;

export const PerfRunStarted = z.object({
  id: z.string().describe("the result's id (also its test run's)"),
  status: PerfStatus,
  taskId: z.string().describe("stop it with POST /perf/stop/{taskId}; the runner task when queued for runners"),
});

/** A few headline numbers of a result, for lists and trends. */
export const PerfHeadline = z.object({
  requests: z.number(),
  rps: z.number(),
  failedRate: z.number().describe("http_req_failed's rate, 0–1"),
  avgMs: z.number(),
  p95Ms: z.number(),
  p99Ms: z.number().nullable(),
  iterations: z.number(),
  vusMax: z.number(),
  checksPassed: z.number(),
  checksFailed: z.number(),
  thresholdsOk: z.boolean().nullable().describe("null: the run declared no thresholds"),
  durationMs: z.number(),
});
export type PerfHeadline = z.infer<typeof PerfHeadline>;

export const PerfResultRow = z.object({
  id: z.string(),
  name: z.string(),
  status: PerfStatus,
  reason: z.string().nullable(),
  configId: z.string().nullable(),
  runGroupId: z.string(),
  taskId: z.string().nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  summary: PerfHeadline.nullable().describe("null until the run has numbers"),
});
export type PerfResultRow = z.infer<typeof PerfResultRow>;

export const PerfSummaryMetric = z.object({
  type: z.enum(["counter", "gauge", "rate", "trend"]),
  contains: z.enum(["time", "data", "default"]),
  values: z.record(z.string(), z.number()).describe("k6's values: count/rate, value/min/max, rate/passes/fails, or avg/min/med/max/p(90)/p(95)"),
  thresholds: z.record(z.string(), z.object({ ok: z.boolean() })).optional(),
});

export const PerfCheck = z.object({ name: z.string(), path: z.string(), passes: z.number(), fails: z.number() });
export type PerfGroup = { name: string; path: string; groups: PerfGroup[]; checks: z.infer<typeof PerfCheck>[] };
// Named (meta id): the OpenAPI document gives a recursive schema a component of its own.
export const PerfGroup: z.ZodType<PerfGroup> = z.lazy(() => z.object({ name: z.string(), path: z.string(), groups: z.array(PerfGroup), checks: z.array(PerfCheck) })).meta({ id: "PerfGroup" });

export const PerfThreshold = z.object({ key: z.string().describe("metric, with tag filter: http_req_duration{status:200}"), source: z.string().describe("the expression: p(95)<200"), ok: z.boolean(), actual: z.number().nullable() });

export const PerfSeriesPoint = z.object({
  t: z.number().describe("seconds since the start"),
  vus: z.number(),
  requests: z.number().describe("requests so far"),
  rps: z.number().describe("requests in this second"),
  failed: z.number(),
  avgMs: z.number(),
  p95Ms: z.number(),
  iterations: z.number(),
  checksFailed: z.number(),
  dataReceived: z.number(),
  dataSent: z.number(),
});
export type PerfSeriesPoint = z.infer<typeof PerfSeriesPoint>;

export const PerfPartView = z.object({
  index: z.number().int(),
  count: z.number().int(),
  status: z.string(),
  reason: z.string().nullable(),
  runnerId: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  requests: z.number().describe("http_reqs this part reported"),
});

export const PerfResultDetail = PerfResultRow.extend({
  script: z.string(),
  options: K6Options,
  envNames: z.array(z.string()).describe("names of the __ENV values the run had (values are not kept)"),
  metrics: z.record(z.string(), PerfSummaryMetric).describe("k6's end-of-test metrics, as handleSummary gets them"),
  // A union with null (not .nullable()): the OpenAPI document keeps `nullable` beside a type only.
  rootGroup: z.union([PerfGroup, z.null()]).describe("k6's root_group: groups and checks"),
  checks: z.array(PerfCheck).describe("every check, flattened from the groups"),
  thresholds: z.array(PerfThreshold),
  series: z.array(PerfSeriesPoint),
  errors: z.array(z.object({ message: z.string(), count: z.number() })),
  logs: z.array(z.string()),
  summaryText: z.string().nullable().describe("k6's end-of-test summary, text layout"),
  handleSummary: z.record(z.string(), z.string()).nullable().describe("what the script's handleSummary() returned: output name → content"),
  parts: z.array(PerfPartView).describe("one per runner when the run was split"),
});
export type PerfResultDetail = z.infer<typeof PerfResultDetail>;
