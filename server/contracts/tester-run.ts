// A test run: one execution of collections (mode functional) or, later, of a
// load test, fuzz campaign, chaos experiment or contract verification (the
// spec's `mode` table). Per-request results carry the assertions, so a report
// (JUnit, HTML, JSON) is written from this shape alone.
import { z } from "zod";
import { ScriptTest, ScriptLog, ScriptError } from "./tester-execution";

export const RUN_MODES = ["functional", "load", "fuzz", "chaos", "contract"] as const;
export const RunMode = z.enum(RUN_MODES);
export const RUN_STATUSES = ["queued", "running", "passed", "failed", "cancelled", "error"] as const;
export const RunStatus = z.enum(RUN_STATUSES).describe("passed: every test passed; failed: a test failed or a request could not be sent; error: the run itself could not go on; a run whose process stopped (a restart) ends failed with a reason");
export type RunStatus = z.infer<typeof RunStatus>;

export const RunRequestResult = z.object({
  iteration: z.number().int().describe("0-based"),
  collectionId: z.string().nullable(),
  requestId: z.string().nullable(),
  name: z.string(),
  path: z.array(z.string()).describe("folder names from the collection down to the request"),
  method: z.string(),
  url: z.string().describe("as sent (secrets masked)"),
  status: z.enum(["passed", "failed", "skipped", "error"]).describe("error: the request was not sent or its script failed to run"),
  responseCode: z.number().int().nullable(),
  responseTimeMs: z.number().nullable(),
  responseSize: z.number().int().nullable(),
  tests: z.array(ScriptTest),
  logs: z.array(ScriptLog),
  error: z.string().nullable().describe("why the request or a script failed, when it did"),
  scriptError: ScriptError.optional(),
  startedAt: z.string(),
});
export type RunRequestResult = z.infer<typeof RunRequestResult>;

export const RunCounts = z.object({
  requests: z.number().int(),
  passedRequests: z.number().int(),
  failedRequests: z.number().int(),
  skippedRequests: z.number().int(),
  tests: z.number().int(),
  passedTests: z.number().int(),
  failedTests: z.number().int(),
  skippedTests: z.number().int(),
});
export type RunCounts = z.infer<typeof RunCounts>;

export const TestRunSummary = z.object({
  id: z.string(),
  namespace: z.string(),
  name: z.string(),
  mode: RunMode,
  status: RunStatus,
  referenceId: z.string().nullable(),
  collectionIds: z.array(z.string()),
  environmentId: z.string().nullable(),
  iterations: z.number().int(),
  counts: RunCounts,
  statusReason: z.string().nullable().describe("why a run ended failed, error or cancelled, when the counts do not say"),
  createdBy: z.string().nullable(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  durationMs: z.number().nullable(),
  createdAt: z.string(),
  source: z.enum(["run", "import"]).describe("import: a report brought in through reports/import"),
});
export type TestRunSummary = z.infer<typeof TestRunSummary>;

export const TestRunDetail = TestRunSummary.extend({ results: z.array(RunRequestResult) });
export type TestRunDetail = z.infer<typeof TestRunDetail>;
