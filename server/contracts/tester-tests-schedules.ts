// Standalone tests and cron schedules of the API tester (spec 02-modules,
// "API tester: tests, schedules, import, helpers"). A standalone test is a
// saved run configuration over collections — what Newman is given on its
// command line — and running it makes an ordinary functional test run. A
// schedule runs collections on a cron expression in an IANA time zone.
import { z } from "zod";
import { cronError, timezoneError } from "./cron-schedule";
import { IdParams, OkResponse } from "./common";
import { endpoint } from "./endpoint";
import { TestRunDetail, RunStatus } from "./tester-run";

const Selection = z.union([z.string().uuid(), z.object({ collectionId: z.string().uuid(), requestIds: z.array(z.string().uuid()).max(10_000).optional() }).strict()]);
export type TestSelection = z.infer<typeof Selection>;

const environmentId = z.string().uuid().nullable().describe("null: run without an environment");

const TestFields = {
  name: z.string().trim().min(1).max(200),
  description: z.string().max(10_000).default(""),
  collectionIds: z.array(Selection).min(1).max(100).describe("ids, or {collectionId, requestIds} selections; run in this order"),
  environmentId: environmentId.default(null),
  iterations: z.number().int().min(1).max(10_000).nullable().default(null).describe("null: one per data row, else 1"),
  // A union with null (not .nullable()): the OpenAPI document keeps `nullable` beside a type only.
  data: z
    .union([z.string().max(10 * 1024 * 1024), z.array(z.record(z.string(), z.unknown())).max(100_000), z.null()])
    .default(null)
    .describe("iteration data: CSV text (header row) or a JSON array of objects (or its text)"),
  delayMs: z.number().int().min(0).max(60_000).default(0),
  bail: z.boolean().default(false).describe("stop at the first failed test or request error"),
};

export const CreateTestInput = z.object(TestFields).strict();
export type CreateTestInput = z.infer<typeof CreateTestInput>;
export const UpdateTestInput = z
  .object({
    name: TestFields.name.optional(),
    description: z.string().max(10_000).optional(),
    collectionIds: TestFields.collectionIds.optional(),
    environmentId: environmentId.optional(),
    iterations: z.number().int().min(1).max(10_000).nullable().optional(),
    data: TestFields.data.removeDefault().optional(),
    delayMs: z.number().int().min(0).max(60_000).optional(),
    bail: z.boolean().optional(),
  })
  .strict();
export type UpdateTestInput = z.infer<typeof UpdateTestInput>;

const LastRun = z.object({ id: z.string(), status: RunStatus, createdAt: z.string(), finishedAt: z.string().nullable() }).nullable();

export const TestView = z.object({
  id: z.string(),
  namespace: z.string(),
  name: z.string(),
  description: z.string(),
  collectionIds: z.array(Selection),
  environmentId: z.string().nullable(),
  iterations: z.number().int().nullable(),
  data: TestFields.data,
  delayMs: z.number().int(),
  bail: z.boolean(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastRun: LastRun.describe("the newest run of this test"),
});
export type TestView = z.infer<typeof TestView>;
export const TestListQuery = z.object({ search: z.string().max(200).optional().describe("part of the name or description, any case") });
export const TestList = z.object({ tests: z.array(TestView), total: z.number().int() });

const useSSE = z.boolean().default(false).describe("answer with server-sent events: progress, each result, then the run");
export const RunTestInput = z.object({ useSSE }).strict();
export const RunInlineTestInput = CreateTestInput.extend({ name: TestFields.name.default("Inline test"), useSSE }).strict();
export type RunInlineTestInput = z.infer<typeof RunInlineTestInput>;

// ---- Schedules ------------------------------------------------------------------

const cron = z
  .string()
  .max(200)
  .superRefine((v, ctx) => {
    const problem = cronError(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .describe("five-field cron (minute hour day-of-month month day-of-week) or @hourly/@daily/@weekly/@monthly/@yearly");
const timezone = z
  .string()
  .max(100)
  .superRefine((v, ctx) => {
    const problem = timezoneError(v);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  })
  .describe("IANA time zone the cron expression is read in");

export const CreateScheduleInput = z
  .object({
    name: z.string().trim().min(1).max(200),
    cron,
    timezone: timezone.default("UTC"),
    collectionIds: z.array(z.string().uuid()).min(1).max(100).describe("run in this order, as one test run"),
    environmentId: environmentId.default(null),
    enabled: z.boolean().default(true),
  })
  .strict();
export type CreateScheduleInput = z.infer<typeof CreateScheduleInput>;
export const UpdateScheduleInput = z
  .object({
    name: z.string().trim().min(1).max(200).optional(),
    cron: cron.optional(),
    timezone: timezone.optional(),
    collectionIds: z.array(z.string().uuid()).min(1).max(100).optional(),
    environmentId: environmentId.optional(),
    enabled: z.boolean().optional(),
  })
  .strict();
export type UpdateScheduleInput = z.infer<typeof UpdateScheduleInput>;

export const ScheduleView = z.object({
  id: z.string(),
  namespace: z.string(),
  name: z.string(),
  cron: z.string(),
  timezone: z.string(),
  collectionIds: z.array(z.string()),
  environmentId: z.string().nullable(),
  enabled: z.boolean(),
  owner: z.string().describe("username of the owner, the only one who sees and runs it"),
  nextRunAt: z.string().nullable().describe("the next occurrence; null while disabled"),
  nextOccurrences: z.array(z.string()).describe("the next five occurrences (UTC instants) computed in the schedule's time zone"),
  lastRunAt: z.string().nullable(),
  lastRunId: z.string().nullable(),
  lastRunStatus: z.string().nullable(),
  lastError: z.string().nullable().describe("why the last occurrence did not run (access revoked, skipped while down), cleared by the next run"),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ScheduleView = z.infer<typeof ScheduleView>;
export const ScheduleList = z.object({ schedules: z.array(ScheduleView), total: z.number().int() });
export const TriggerScheduleInput = z.object({ useSSE }).strict();

const tag = "API tester: tests and schedules";
const ns = { auth: "user", namespaced: true } as const;
const runStatuses = { 403: "a collection shared from another Space cannot be run here" } as const;
const scheduleStatuses = { 403: "a collection shared from another Space cannot be scheduled", 503: "access cannot be verified because the database is unavailable; nothing starts" } as const;
const runProduces = ["application/json", "text/event-stream"] as const;

export const testerTestEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/api-tester/tests", tag, summary: "Standalone tests of the namespace by name, each with its newest run", ...ns, permission: "read", query: TestListQuery, response: TestList }),
  create: endpoint({ method: "POST", path: "/api/v1/api-tester/tests", tag, summary: "Save a standalone test: collections (in order), environment, iterations, data, delay, bail", ...ns, permission: "write", body: CreateTestInput, response: TestView, successStatus: 201, statuses: { 404: "a referenced collection or environment is not in the namespace" } }),
  runInline: endpoint({ method: "POST", path: "/api/v1/api-tester/tests/run", tag, summary: "Run a test definition without saving it; JSON run or server-sent events", ...ns, permission: "write", body: RunInlineTestInput, response: TestRunDetail, produces: runProduces, statuses: runStatuses }),
  get: endpoint({ method: "GET", path: "/api/v1/api-tester/tests/{id}", tag, summary: "One standalone test", ...ns, permission: "read", params: IdParams, response: TestView }),
  update: endpoint({ method: "PUT", path: "/api/v1/api-tester/tests/{id}", tag, summary: "Change the fields given", ...ns, permission: "write", params: IdParams, body: UpdateTestInput, response: TestView }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/api-tester/tests/{id}", tag, summary: "Delete a standalone test (its runs stay)", ...ns, permission: "delete", params: IdParams, response: OkResponse }),
  run: endpoint({ method: "POST", path: "/api/v1/api-tester/tests/{id}/run", tag, summary: "Run a saved test: a functional test run whose referenceId is the test; JSON run or server-sent events", ...ns, permission: "write", params: IdParams, body: RunTestInput, response: TestRunDetail, produces: runProduces, statuses: runStatuses }),
} as const;

export const testerScheduleEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/api-tester/schedules", tag, summary: "The caller's cron schedules in the namespace, with their next occurrences", ...ns, permission: "read", response: ScheduleList }),
  create: endpoint({ method: "POST", path: "/api/v1/api-tester/schedules", tag, summary: "Create a cron schedule of collection runs (owned by the caller)", ...ns, permission: "write", body: CreateScheduleInput, response: ScheduleView, successStatus: 201, statuses: scheduleStatuses }),
  get: endpoint({ method: "GET", path: "/api/v1/api-tester/schedules/{id}", tag, summary: "One schedule (its owner only)", ...ns, permission: "read", params: IdParams, response: ScheduleView }),
  update: endpoint({ method: "PUT", path: "/api/v1/api-tester/schedules/{id}", tag, summary: "Change the fields given (enable, disable, cron, zone, references)", ...ns, permission: "write", params: IdParams, body: UpdateScheduleInput, response: ScheduleView, statuses: scheduleStatuses }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/api-tester/schedules/{id}", tag, summary: "Delete a schedule (its runs stay)", ...ns, permission: "delete", params: IdParams, response: OkResponse }),
  run: endpoint({ method: "POST", path: "/api/v1/api-tester/schedules/{id}/run", tag, summary: "Trigger the schedule now: a functional test run whose referenceId is the schedule; JSON run or server-sent events", ...ns, permission: "write", params: IdParams, body: TriggerScheduleInput, response: TestRunDetail, produces: runProduces, statuses: scheduleStatuses }),
} as const;
