// Generated k6 scripts (spec 02-modules, "Performance"): from a small load
// configuration (requests + options), from a saved API tester request, from
// a HAR recording, and the editor's snippets. Each answers the script with
// the options written into it, the __ENV names it reads and warnings for
// what did not carry over. Choices: docs/decisions.md, "Performance:
// generated scripts".
import { z } from "zod";
import { endpoint } from "./endpoint";
import { K6Options } from "./perf";

const K6Duration = z
  .string()
  .trim()
  .regex(/^(\d+(\.\d+)?(ms|s|m|h))+$/, 'a k6 duration such as "30s", "1m30s" or "500ms"');

const ThresholdEntry = z.union([
  z.string().min(1).max(200),
  z.object({ threshold: z.string().min(1).max(200), abortOnFail: z.boolean().optional(), delayAbortEval: K6Duration.optional() }).strict(),
]);

/** The load shape of a generated script; the same fields as execute-perf's `perfOptions` (vus, duration, rps) and a few more of k6's. */
export const PerfLoadOptions = z
  .object({
    vus: z.number().int().min(1).max(5000).optional().describe("virtual users (default 10); with rps, the most VUs the rate may use"),
    duration: K6Duration.optional().describe("default 30s, unless iterations or stages are given"),
    iterations: z.number().int().min(1).max(10_000_000).optional().describe("iterations shared by the VUs, instead of a duration"),
    stages: z
      .array(z.object({ duration: K6Duration, target: z.number().int().min(0).max(5000) }).strict())
      .min(1)
      .max(100)
      .optional()
      .describe("ramp the VUs (k6 stages) instead of vus and duration"),
    rps: z.number().int().min(0).max(100_000).optional().describe("target requests per second, held by a constant-arrival-rate scenario; 0 or absent: no target rate"),
    thresholds: z
      .record(z.string().min(1).max(200), z.array(ThresholdEntry).min(1).max(20))
      .refine((t) => Object.keys(t).length <= 50, "at most 50 metrics")
      .optional()
      .describe('k6 thresholds: metric (with tag filter) → expressions, e.g. {"http_req_duration": ["p(95)<500"]}'),
    sleep: z.number().min(0).max(300).optional().describe("seconds each VU pauses at the end of an iteration"),
  })
  .strict()
  .superRefine((o, ctx) => {
    const clash = (field: string, message: string) => ctx.addIssue({ code: "custom", path: [field], message });
    if (o.stages && (o.duration !== undefined || o.iterations !== undefined)) clash("stages", "stages replace duration and iterations: give one of them");
    if (o.stages && o.rps) clash("rps", "rps cannot be combined with stages (use a ramping-arrival-rate scenario in the script)");
    if (o.iterations !== undefined && o.rps) clash("rps", "rps runs for a duration: give duration instead of iterations");
    if (o.iterations !== undefined && o.duration !== undefined) clash("iterations", "give iterations or duration, not both");
  });
export type PerfLoadOptions = z.infer<typeof PerfLoadOptions>;

const Status = z.number().int().min(100).max(599);

export const PerfScriptRequest = z
  .object({
    name: z.string().trim().max(200).optional().describe("names the request in metrics (tag name) and checks; default: method and path"),
    method: z
      .string()
      .max(20)
      .regex(/^[A-Za-z]+$/, "letters only")
      .transform((m) => m.toUpperCase())
      .default("GET"),
    url: z.string().trim().min(1).max(8000).describe("http(s) URL; {{name}} placeholders read __ENV.name"),
    headers: z
      .record(z.string().min(1).max(1000), z.string().max(100_000))
      .refine((h) => Object.keys(h).length <= 200, "at most 200 headers")
      .default({}),
    body: z
      .union([z.string().max(10 * 1024 * 1024), z.record(z.string(), z.unknown()), z.array(z.unknown())])
      .optional()
      .describe("a string is sent as written; an object or array as JSON (Content-Type application/json unless a header says otherwise)"),
    checks: z
      .object({
        status: z.union([Status, z.array(Status).min(1).max(20)]).optional().describe("the expected status, or any of several"),
        bodyIncludes: z.string().min(1).max(1000).optional(),
        maxDurationMs: z.number().positive().max(600_000).optional(),
      })
      .strict()
      .optional()
      .describe("default: the status is 2xx"),
  })
  .strict();
export type PerfScriptRequest = z.infer<typeof PerfScriptRequest>;

export const PerfScriptFromConfigInput = z
  .object({
    name: z.string().trim().min(1).max(200).default("Load test"),
    options: PerfLoadOptions.optional().describe("default: 10 VUs for 30 s, 1 s of sleep per iteration"),
    variables: z
      .record(z.string().min(1).max(255), z.string().max(100_000))
      .refine((v) => Object.keys(v).length <= 500, "at most 500 variables")
      .default({})
      .describe("defaults of the {{name}} placeholders (the script reads __ENV.name and falls back to these)"),
    requests: z.array(PerfScriptRequest).min(1).max(500).describe("sent in this order in every iteration"),
  })
  .strict();
export type PerfScriptFromConfigInput = z.infer<typeof PerfScriptFromConfigInput>;

export const PerfScriptFromRequestInput = z
  .object({
    requestId: z.string().uuid(),
    environmentId: z.string().uuid().nullable().optional().describe("absent: the caller's active environment; null: none"),
    environmentVariables: z.record(z.string().min(1).max(255), z.string().max(100_000)).optional().describe("a non-empty object replaces the environment's values"),
    perfOptions: PerfLoadOptions.optional().describe("default: 10 VUs for 30 s"),
  })
  .strict();
export type PerfScriptFromRequestInput = z.infer<typeof PerfScriptFromRequestInput>;

export const PerfScriptFromHarInput = z
  .object({
    har: z.union([z.string().min(1), z.record(z.string(), z.unknown())]).describe("the HAR 1.2 recording: its JSON text or the value"),
    options: PerfLoadOptions.optional().describe("default: 10 VUs for 30 s"),
    includeStatic: z.boolean().default(false).describe("keep images, style sheets, scripts, fonts and media (left out by default)"),
    thinkTime: z.boolean().default(true).describe("sleep() between pages for as long as the recorded user paused"),
  })
  .strict();
export type PerfScriptFromHarInput = z.infer<typeof PerfScriptFromHarInput>;

export const PerfScriptVariable = z.object({
  name: z.string().describe("the __ENV name"),
  from: z.string().describe("the {{name}} it stands for"),
  default: z.string().nullable().describe("the value written into the script; null: a secret, or a name nobody defined, that the run must be given"),
  secret: z.boolean(),
});

export const PerfScriptWarning = z.object({
  message: z.string(),
  pointer: z.string().optional().describe("where in the input (JSON pointer)"),
});

export const PerfScriptResult = z.object({
  script: z.string(),
  options: K6Options.describe("the options written into the script"),
  variables: z.array(PerfScriptVariable).describe("the __ENV names the script reads"),
  warnings: z.array(PerfScriptWarning).describe("what did not carry over, and why"),
});
export type PerfScriptResult = z.infer<typeof PerfScriptResult>;

export const PerfSnippet = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  code: z.string().describe("a complete k6 script this engine runs"),
});
export type PerfSnippet = z.infer<typeof PerfSnippet>;
export const PerfSnippetList = z.object({ snippets: z.array(PerfSnippet) });

const tag = "Performance: scripts";
const ns = { auth: "user", namespaced: true, permission: "read" } as const;

export const perfScriptEndpoints = {
  fromConfig: endpoint({
    method: "POST",
    path: "/api/v1/perf/scripts",
    tag,
    summary: "Generate a k6 script from requests and load options (nothing is saved; run it with POST /perf/run)",
    ...ns,
    body: PerfScriptFromConfigInput,
    response: PerfScriptResult,
  }),
  fromRequest: endpoint({
    method: "POST",
    path: "/api/v1/perf/scripts/from-request",
    tag,
    summary: "Generate a k6 script from a saved API tester request: its auth, folder and collection settings; {{variables}} become __ENV names",
    ...ns,
    body: PerfScriptFromRequestInput,
    response: PerfScriptResult,
    statuses: {
      403: "the request's collection is shared from another Space: it cannot be load tested here",
      404: "the request, or the environment named, is not reachable from this namespace",
      409: "the request's collection is in the trash",
    },
  }),
  fromHar: endpoint({
    method: "POST",
    path: "/api/v1/perf/scripts/from-har",
    tag,
    summary: "Convert a HAR recording into a k6 script: a group per page, think time between pages, static assets left out unless asked",
    ...ns,
    body: PerfScriptFromHarInput,
    response: PerfScriptResult,
  }),
  snippets: endpoint({ method: "GET", path: "/api/v1/perf/snippets", tag, summary: "k6 snippets for the script editor, each a complete script", auth: "user", response: PerfSnippetList }),
} as const;
