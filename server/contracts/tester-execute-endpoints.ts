// The API tester's execution endpoints: sending one request (with or without
// its scripts, on the server or prepared for the browser), running a script
// alone, running collections, and the run's cancel, export and report import.
import { z } from "zod";
import { IdParams } from "./common";
import { endpoint } from "./endpoint";
import { ExecutedResponse, ScriptVerdict, SentRequest } from "./tester-execution";
import { RequestDefinition } from "./tester-request";
import { TestRunDetail, TestRunSummary } from "./tester-run";

/** Scripts' variable state carried between the browser's two stages; the spec caps it at 1 MiB. */
export const MAX_SCRIPT_STATE_BYTES = 1024 * 1024;

const EnvironmentChoice = {
  environmentId: z
    .string()
    .uuid()
    .or(z.literal(""))
    .nullable()
    .optional()
    .describe("absent: the caller's active environment; empty or null: none"),
  environmentVariables: z.record(z.string(), z.string()).optional().describe("a non-empty object replaces the environment's values for this execution"),
};

const RequestSource = {
  requestId: z.string().uuid().optional().describe("a saved request (its collection and folders give variables, auth and scripts)"),
  request: RequestDefinition.optional().describe("an inline request, when no requestId is given"),
  collectionId: z.string().uuid().optional().describe("inline requests: run in this collection's context"),
  variables: z.record(z.string(), z.string()).optional().describe("local variables for this execution"),
};
function oneSource(v: { requestId?: string; request?: unknown }, ctx: z.RefinementCtx) {
  if (!v.requestId && !v.request) ctx.addIssue({ code: "custom", path: ["requestId"], message: "give requestId or request" });
  if (v.requestId && v.request) ctx.addIssue({ code: "custom", path: ["request"], message: "give requestId or request, not both" });
}

export const ExecuteRequestInput = z
  .object({ ...RequestSource, ...EnvironmentChoice, saveHistory: z.boolean().default(true) })
  .strict()
  .superRefine(oneSource);
export type ExecuteRequestInput = z.infer<typeof ExecuteRequestInput>;

const SendFailure = z.object({
  code: z.string().describe("timeout, connection_refused, dns, tls, blocked, aborted, too_many_redirects, invalid_url, protocol, unresolved_variable, build"),
  message: z.string(),
});

export const ExecuteRequestResult = z.object({
  ok: z.boolean().describe("false when the request could not be sent (then `error` says why)"),
  request: SentRequest.optional(),
  response: ExecutedResponse.optional(),
  error: SendFailure.optional(),
  historyId: z.string().nullable(),
});

export const ExecuteWithScriptsInput = z
  .object({
    ...RequestSource,
    ...EnvironmentChoice,
    preScriptEnabled: z.boolean().default(true),
    testScriptEnabled: z.boolean().default(true),
    persistVariables: z.boolean().default(true).describe("write the environment and collection variables the scripts changed back, as Postman does"),
    saveHistory: z.boolean().default(true),
  })
  .strict()
  .superRefine(oneSource);
export type ExecuteWithScriptsInput = z.infer<typeof ExecuteWithScriptsInput>;

export const ExecuteWithScriptsResult = ScriptVerdict.extend({
  request: SentRequest.optional(),
  response: ExecutedResponse.optional(),
  sendError: SendFailure.optional(),
  historyId: z.string().nullable(),
  variables: z.object({ environment: z.record(z.string(), z.unknown()), collection: z.record(z.string(), z.unknown()) }).describe("values after the scripts (secrets masked)"),
});

export const ScriptState = z.object({
  environmentId: z.string().describe("empty: no environment"),
  environment: z.record(z.string(), z.unknown()),
  collectionVariables: z.record(z.string(), z.unknown()),
  requestVariables: z.record(z.string(), z.unknown()),
  runContext: z.record(z.string(), z.unknown()).default({}),
});
export type ScriptState = z.infer<typeof ScriptState>;

export const ExecuteClientInput = z
  .object({
    ...RequestSource,
    ...EnvironmentChoice,
    executionMode: z.literal("client"),
    stage: z.enum(["preRequest", "test"]).default("preRequest"),
    scriptState: ScriptState.optional().describe("test stage: what the pre-request stage returned"),
    responseData: ExecutedResponse.partial({ cookies: true, timings: true, redirects: true, size: true, bodyTruncated: true, bodyEncoding: true, httpVersion: true, url: true, statusText: true })
      .optional()
      .describe("test stage: the response the browser received"),
    preScriptEnabled: z.boolean().default(true),
    testScriptEnabled: z.boolean().default(true),
  })
  .strict()
  .superRefine(oneSource)
  .superRefine((v, ctx) => {
    if (v.stage === "test" && !v.responseData) ctx.addIssue({ code: "custom", path: ["responseData"], message: "required for the test stage" });
    if (v.scriptState && JSON.stringify(v.scriptState).length > MAX_SCRIPT_STATE_BYTES) ctx.addIssue({ code: "custom", path: ["scriptState"], message: "at most 1 MiB" });
  });
export type ExecuteClientInput = z.infer<typeof ExecuteClientInput>;

export const ExecuteClientResult = ScriptVerdict.extend({
  stage: z.enum(["preRequest", "test"]),
  requestData: SentRequest.optional().describe("pre-request stage: what the browser should send"),
  scriptState: ScriptState,
});

export const ScriptExecuteInput = z
  .object({
    script: z.string().max(256 * 1024).default(""),
    scriptType: z.enum(["preRequest", "test"]),
    requestId: z.string().uuid().optional().describe("keeps the request's collection context"),
    ...EnvironmentChoice,
    response: ExecutedResponse.partial({ cookies: true, timings: true, redirects: true, size: true, bodyTruncated: true, bodyEncoding: true, httpVersion: true, url: true, statusText: true })
      .optional()
      .describe("a test script run alone reads this as pm.response"),
    authorizeOnly: z.boolean().default(false).describe("only check that the caller may run this request's scripts: {success: true}, 403 or 404; nothing runs"),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.authorizeOnly && !v.requestId) ctx.addIssue({ code: "custom", path: ["requestId"], message: "required with authorizeOnly" });
  });
export type ScriptExecuteInput = z.infer<typeof ScriptExecuteInput>;

export const ScriptExecuteResult = ScriptVerdict.partial().extend({ success: z.boolean() });

const RunOptions = {
  ...EnvironmentChoice,
  name: z.string().min(1).max(200).optional(),
  iterations: z.number().int().min(1).max(10_000).optional().describe("default: one per data row, else 1"),
  data: z
    .union([z.string().max(10 * 1024 * 1024), z.array(z.record(z.string(), z.unknown())).max(100_000)])
    .optional()
    .describe("iteration data: CSV text (header row) or a JSON array of objects (or its text)"),
  delayMs: z.number().int().min(0).max(60_000).default(0),
  bail: z.boolean().default(false).describe("stop at the first failed test or request error"),
  useSSE: z.boolean().default(false).describe("answer with server-sent events: progress, each result, then the run"),
  persistVariables: z.boolean().default(false).describe("write variables the scripts changed back to the environment and collections"),
};

export const ExecuteCollectionInput = z
  .object({ ...RunOptions, requestIds: z.array(z.string().uuid()).max(10_000).optional().describe("only these requests, in tree order") })
  .strict();
export type ExecuteCollectionInput = z.infer<typeof ExecuteCollectionInput>;

const Selection = z.union([z.string().uuid(), z.object({ collectionId: z.string().uuid(), requestIds: z.array(z.string().uuid()).max(10_000).optional() }).strict()]);
export const ExecuteMultipleInput = z
  .object({ ...RunOptions, collectionIds: z.array(Selection).min(1).max(100).describe("ids, or {collectionId, requestIds} selections; run in this order") })
  .strict();
export type ExecuteMultipleInput = z.infer<typeof ExecuteMultipleInput>;

export const ExportQuery = z.object({ format: z.enum(["junit", "html", "json"]).default("json") });

export const ReportImportQuery = z.object({ format: z.enum(["junit", "json"]).optional().describe("detected when absent"), name: z.string().min(1).max(200).optional() });
/** The wrapped form of an imported document ({data} or {content}); the document may also be the body itself. */
export const WrappedDocument = z.object({
  data: z.string().optional(),
  content: z.string().optional(),
  name: z.string().min(1).max(200).optional(),
  format: z.string().max(20).optional(),
  namespace: z.string().max(63).optional(),
});

const tag = "API tester: execution";
const runStatuses = { 403: "a collection shared from another Space cannot be run here" } as const;
export const testerExecuteEndpoints = {
  execute: endpoint({ method: "POST", path: "/api/v1/api-tester/requests/execute", tag, summary: "Send a saved or inline request from the server (variables substituted, auth applied, outbound policy enforced)", auth: "user", namespaced: true, permission: "write", body: ExecuteRequestInput, response: ExecuteRequestResult, statuses: runStatuses }),
  executeClient: endpoint({ method: "POST", path: "/api/v1/api-tester/requests/execute-client", tag, summary: "Browser split: the pre-request stage returns requestData and scriptState; the test stage takes them with the browser's responseData", auth: "user", namespaced: true, permission: "write", body: ExecuteClientInput, response: ExecuteClientResult, statuses: runStatuses }),
  executeWithScripts: endpoint({ method: "POST", path: "/api/v1/api-tester/requests/execute-with-scripts", tag, summary: "Send a request with its collection, folder and own pre-request and test scripts", auth: "user", namespaced: true, permission: "write", body: ExecuteWithScriptsInput, response: ExecuteWithScriptsResult, statuses: runStatuses }),
  scriptExecute: endpoint({ method: "POST", path: "/api/v1/api-tester/scripts/execute", tag, summary: "Run one script alone (or, with authorizeOnly, only check the caller may)", auth: "user", namespaced: true, permission: "write", body: ScriptExecuteInput, response: ScriptExecuteResult, statuses: runStatuses }),
  executeCollection: endpoint({ method: "POST", path: "/api/v1/api-tester/collections/{id}/execute", tag, summary: "Run a collection: iterations, data file, delay, bail; JSON run or server-sent events", auth: "user", namespaced: true, permission: "write", params: IdParams, body: ExecuteCollectionInput, response: TestRunDetail, produces: ["application/json", "text/event-stream"], statuses: runStatuses }),
  executeMultiple: endpoint({ method: "POST", path: "/api/v1/api-tester/collections/execute-multiple", tag, summary: "Run several collections in one test run", auth: "user", namespaced: true, permission: "write", body: ExecuteMultipleInput, response: TestRunDetail, produces: ["application/json", "text/event-stream"], statuses: runStatuses }),
  cancelRun: endpoint({ method: "POST", path: "/api/v1/api-tester/test-runs/{id}/cancel", tag, summary: "Cancel a running test run; it stops within a second and is marked cancelled", auth: "user", namespaced: true, permission: "write", params: IdParams, response: TestRunSummary, statuses: { 409: "the run is not running" } }),
  exportRun: endpoint({ method: "GET", path: "/api/v1/api-tester/test-runs/{id}/export", tag, summary: "The run as a JUnit XML, HTML or JSON report (download)", auth: "user", namespaced: true, permission: "read", params: IdParams, query: ExportQuery, produces: ["application/xml", "text/html", "application/json"] }),
  importReport: endpoint({ method: "POST", path: "/api/v1/api-tester/reports/import", tag, summary: "Import a JUnit XML or JSON test report as a test run. Body: the report itself (application/xml, text/xml or application/json), or JSON {data|content: \"<report>\", name?, format?}", auth: "user", namespaced: true, permission: "write", query: ReportImportQuery, response: TestRunSummary, successStatus: 201 }),
} as const;
