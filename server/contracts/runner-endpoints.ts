// Runner agents and their tasks (spec 02-modules: "Performance" runner-tasks
// and runners, "Integrations" status and register). Users submit, list and
// cancel tasks; agents (`polymock runner`, authenticated with an integration
// token) register, send heartbeats, claim parts of queued tasks and report
// each part's progress and result. The reports carry the load engine's
// mergeable snapshots (server/perf/merge.ts), so their shapes are checked here.
import { z } from "zod";
import { CredentialStatus } from "./auth";
import { IdParams, OkResponse, Paging, Timestamp } from "./common";
import { endpoint } from "./endpoint";
import { K6Options, PerfPartView, PerfSeriesPoint, PerfStatus } from "./perf";

// ---- Tasks -----------------------------------------------------------------

export const RUNNER_TASK_STATUSES = ["queued", "running", "completed", "failed", "cancelled"] as const;
export const RunnerTaskStatus = z.enum(RUNNER_TASK_STATUSES).describe("completed: the run ended with its numbers (runStatus says passed, failed or aborted; a lost part makes it failed); failed: it could not run; cancelled: stopped by a user");

export const SubmitRunnerTaskInput = z
  .object({
    type: z.enum(["performance"]).default("performance"),
    configId: z.string().uuid().optional().describe("required for performance: the saved config (of the namespace) whose script and environment run"),
    options: K6Options.optional().describe("replaces the config's saved run options for this task"),
    runnerId: z.string().uuid().optional().describe("only this runner agent may take it (503 when it is not online)"),
    name: z.string().trim().min(1).max(200).optional().describe("default: the config's name"),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.type === "performance" && !v.configId) ctx.addIssue({ code: "custom", path: ["configId"], message: "required for type performance (inline scripts run with POST /api/v1/perf/run)" });
  });
export type SubmitRunnerTaskInput = z.infer<typeof SubmitRunnerTaskInput>;

export const RunnerTaskView = z.object({
  id: z.string(),
  namespace: z.string(),
  type: z.string(),
  name: z.string().nullable().describe("the load run's name"),
  status: RunnerTaskStatus,
  runStatus: PerfStatus.nullable().describe("the load run's own status (passed, failed, aborted, stopped, error…)"),
  configId: z.string().nullable(),
  resultId: z.string().nullable().describe("the load run's result (GET /api/v1/perf-results/{id}); also its runGroupId"),
  preferredRunnerId: z.string().nullable(),
  vus: z.number().int().describe("the most VUs the run holds at once, all parts together"),
  partCount: z.number().int().describe("how many runners share it"),
  parts: z.array(PerfPartView),
  error: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: Timestamp,
  startedAt: Timestamp.nullable(),
  finishedAt: Timestamp.nullable(),
});
export type RunnerTaskView = z.infer<typeof RunnerTaskView>;

export const RunnerTaskListQuery = Paging.extend({ status: RunnerTaskStatus.optional() });
export type RunnerTaskListQuery = z.infer<typeof RunnerTaskListQuery>;
export const RunnerTaskList = z.object({ tasks: z.array(RunnerTaskView), total: z.number().int() });

export const QueuePositionView = z.object({
  id: z.string(),
  status: RunnerTaskStatus,
  position: z.number().int().nullable().describe("1: the next task runners take; null once it has left the queue"),
  ahead: z.number().int().describe("queued tasks submitted before it, across the instance (runners are shared)"),
});

// ---- Runners ---------------------------------------------------------------

export const RunnerStatus = z.enum(["online", "draining", "offline"]).describe("offline: no heartbeat for 15 s or shut down; draining: finishes its parts, takes no new ones");

export const RunnerPartView = z.object({ partId: z.string(), resultId: z.string(), index: z.number().int(), count: z.number().int(), startedAt: Timestamp.nullable() });

export const RunnerView = z.object({
  id: z.string(),
  name: z.string(),
  hostname: z.string(),
  version: z.string(),
  labels: z.array(z.string()),
  namespace: z.string().nullable().describe("the namespace its integration token is pinned to; null: serves every namespace its token's owner reaches"),
  integrationId: z.string(),
  status: RunnerStatus,
  capacityVus: z.number().int(),
  activeVus: z.number().int(),
  lastHeartbeatAt: Timestamp,
  registeredAt: Timestamp,
  parts: z.array(RunnerPartView).describe("parts it is running now"),
});
export type RunnerView = z.infer<typeof RunnerView>;
export const RunnerList = z.object({ runners: z.array(RunnerView), total: z.number().int(), online: z.number().int() });

export const IntegrationRunnerStatus = z.object({
  id: z.string(),
  name: z.string(),
  namespace: z.string().nullable(),
  status: CredentialStatus,
  credentialExpiresAt: Timestamp,
  runners: z.number().int(),
  online: z.number().int(),
  capacityVus: z.number().int().describe("online runners together"),
  activeVus: z.number().int(),
  lastHeartbeatAt: Timestamp.nullable(),
});
export const IntegrationStatusOutput = z.object({
  integrations: z.array(IntegrationRunnerStatus).describe("each integration token the caller may manage, with the runner agents registered with it"),
  totals: z.object({ runners: z.number().int(), online: z.number().int(), capacityVus: z.number().int(), activeVus: z.number().int() }),
});

// ---- The agent's side ------------------------------------------------------

const Label = z.string().trim().min(1).max(64);
export const RegisterRunnerInput = z
  .object({
    name: z.string().trim().min(1).max(100).regex(/^[\w.@:-]+$/, "letters, digits, '.', '_', '@', ':' and '-' only").describe("unique per integration token; an agent registering the name of an offline one takes its place (its unfinished parts are lost)"),
    hostname: z.string().max(255).default(""),
    version: z.string().max(64).default(""),
    capacityVus: z.number().int().min(1).max(100_000).describe("VUs it runs at once"),
    labels: z.array(Label).max(20).default([]),
  })
  .strict();
export type RegisterRunnerInput = z.infer<typeof RegisterRunnerInput>;
export const RegisteredRunner = RunnerView.extend({ heartbeatIntervalMs: z.number().int(), claimWaitMaxSeconds: z.number().int() });

export const RunnerHeartbeatInput = z
  .object({
    activeVus: z.number().int().min(0).max(1_000_000),
    capacityVus: z.number().int().min(1).max(100_000).optional(),
    status: RunnerStatus.optional().describe("offline: the agent is shutting down"),
  })
  .strict();
export type RunnerHeartbeatInput = z.infer<typeof RunnerHeartbeatInput>;

export const ClaimInput = z
  .object({
    waitSeconds: z.number().int().min(0).max(25).default(20).describe("long poll: answer as soon as a part is there, at the latest after this"),
    freeVus: z.number().int().min(0).max(1_000_000).describe("VUs the agent can still start; a part larger than this is left for another runner"),
  })
  .strict();
export type ClaimInput = z.infer<typeof ClaimInput>;

export const ClaimedPart = z.object({
  partId: z.string(),
  resultId: z.string(),
  taskId: z.string(),
  namespace: z.string(),
  segment: z.object({ index: z.number().int(), count: z.number().int() }).describe("k6 execution segment: this part's share of VUs, iterations and rates"),
  vus: z.number().int(),
  script: z.string(),
  options: K6Options,
  env: z.record(z.string(), z.string()),
  files: z.record(z.string(), z.string()),
  maxDurationMs: z.number().int(),
});
export type ClaimedPart = z.infer<typeof ClaimedPart>;
export const ClaimOutput = z.object({ part: ClaimedPart.nullable().describe("null: nothing for this runner within the wait") });

const num = z.number();
// JSON has no Infinity: an aggregate that saw nothing travels with null bounds.
const bound = z.number().nullable();
const AggregateSnapshot = z.discriminatedUnion("type", [
  z.object({ type: z.literal("counter"), count: num }),
  z.object({ type: z.literal("gauge"), value: num, min: bound, max: bound, set: z.boolean() }),
  z.object({ type: z.literal("rate"), passes: num, fails: num }),
  z.object({ type: z.literal("trend"), count: num, sum: num, min: bound, max: bound, histogram: z.string().max(4 * 1024 * 1024) }),
]);
const MetricSnapshot = z.object({
  definition: z.object({ name: z.string().max(256), type: z.enum(["counter", "gauge", "rate", "trend"]), isTime: z.boolean() }),
  all: AggregateSnapshot,
  submetrics: z.record(z.string().max(1024), z.object({ filter: z.record(z.string(), z.string()), aggregate: AggregateSnapshot })),
});
const CheckReport = z.object({ name: z.string(), path: z.string(), passes: num, fails: num });
type GroupReport = { name: string; path: string; groups: GroupReport[]; checks: z.infer<typeof CheckReport>[] };
const GroupReport: z.ZodType<GroupReport> = z
  .object({
    name: z.string(),
    path: z.string(),
    get groups() {
      return z.array(GroupReport);
    },
    checks: z.array(CheckReport),
  })
  .meta({ id: "RunnerGroupReport" });
export const PartSnapshotReport = z.object({
  metrics: z.record(z.string().max(256), MetricSnapshot),
  rootGroup: GroupReport,
  errors: z.array(z.object({ message: z.string(), count: num })).max(1000),
  durationMs: num,
  handleSummary: z.record(z.string(), z.string()).optional().describe("the script's handleSummary() outputs (final report only)"),
});
const ThresholdReport = z.object({ key: z.string().max(1024), source: z.string().max(1024) });
const Logs = z.array(z.string().max(64 * 1024)).max(1000);

export const PartProgressInput = z
  .object({
    seq: z.number().int().min(1).describe("increases with each report; a repeated or older one changes nothing"),
    points: z.array(PerfSeriesPoint).max(3600).describe("the per-second points since the last report"),
    snapshot: PartSnapshotReport.optional().describe("cumulative metrics so far (what counts if the runner dies)"),
    thresholds: z.array(ThresholdReport).max(1000).optional(),
    logs: Logs.optional(),
  })
  .strict();
export type PartProgressInput = z.infer<typeof PartProgressInput>;
export const PartProgressOutput = z.object({ stop: z.boolean().describe("true: stop the part now (the run was stopped, or the part has ended)") });

export const PartFinishInput = z
  .object({
    status: z.enum(["passed", "failed", "aborted", "stopped", "error"]).describe("error: the part could not run"),
    reason: z.string().max(2000).optional(),
    snapshot: PartSnapshotReport.optional(),
    series: z.array(PerfSeriesPoint).max(100_000).optional().describe("the part's whole series (replaces what progress reports built)"),
    thresholds: z.array(ThresholdReport).max(1000).optional(),
    logs: Logs.optional(),
  })
  .strict();
export type PartFinishInput = z.infer<typeof PartFinishInput>;

// ---- Endpoints ---------------------------------------------------------------

const tag = "Runner agents";
const ns = { auth: "user", namespaced: true } as const;
const agent = { auth: "user", permission: "write" } as const;
const RunnerParams = z.object({ id: z.string().uuid({ message: "must be a UUID" }) });
const PartParams = RunnerParams.extend({ partId: z.string().uuid({ message: "must be a UUID" }) });
const agentOnly = { 403: "the credential is not an integration token, or lacks 'write'" } as const;

export const runnerTaskEndpoints = {
  submit: endpoint({ method: "POST", path: "/api/v1/runner-tasks", tag, summary: "Queue a saved performance config for runner agents (split over several when one is too small)", ...ns, permission: "write", body: SubmitRunnerTaskInput, response: RunnerTaskView, successStatus: 202, statuses: { 404: "the config is not in the namespace", 503: "no runner agent that may serve the namespace (or the one asked for) is online, or together they are too small for the run" } }),
  list: endpoint({ method: "GET", path: "/api/v1/runner-tasks", tag, summary: "Runner tasks of the namespace, newest first", ...ns, permission: "read", query: RunnerTaskListQuery, response: RunnerTaskList }),
  get: endpoint({ method: "GET", path: "/api/v1/runner-tasks/{id}", tag, summary: "A task's status and its parts", ...ns, permission: "read", params: IdParams, response: RunnerTaskView }),
  queuePosition: endpoint({ method: "GET", path: "/api/v1/runner-tasks/{id}/queue-position", tag, summary: "How many queued tasks are ahead of it", ...ns, permission: "read", params: IdParams, response: QueuePositionView }),
  cancel: endpoint({ method: "DELETE", path: "/api/v1/runner-tasks/{id}", tag, summary: "Cancel: queued parts never start, running ones stop within a second keeping what they measured", ...ns, permission: "write", params: IdParams, response: RunnerTaskView, statuses: { 409: "the task has already ended" } }),
} as const;

export const runnerEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/runners", tag, summary: "Runner agents that may serve the namespace, with their status, capacity and current parts", ...ns, permission: "read", response: RunnerList }),
  integrationStatus: endpoint({ method: "GET", path: "/api/v1/integrations/status", tag: "Integrations", summary: "Runner status per integration token the caller may manage", auth: "user", permission: "read", response: IntegrationStatusOutput }),
  register: endpoint({ method: "POST", path: "/api/v1/runners/register", tag: "Integrations", summary: "Register a runner agent (with an integration token)", ...agent, body: RegisterRunnerInput, response: RegisteredRunner, successStatus: 201, statuses: { ...agentOnly, 409: "an agent of that name is online with this token" } }),
  heartbeat: endpoint({ method: "POST", path: "/api/v1/runners/{id}/heartbeat", tag, summary: "The agent is alive: its active VUs (every 5 s)", ...agent, params: RunnerParams, body: RunnerHeartbeatInput, response: OkResponse, statuses: agentOnly }),
  claim: endpoint({ method: "POST", path: "/api/v1/runners/{id}/claim", tag, summary: "Take the next queued part this runner may run (long poll)", ...agent, params: RunnerParams, body: ClaimInput, response: ClaimOutput, statuses: agentOnly }),
  progress: endpoint({ method: "POST", path: "/api/v1/runners/{id}/parts/{partId}/progress", tag, summary: "A running part's new points and cumulative metrics (each second)", ...agent, params: PartParams, body: PartProgressInput, response: PartProgressOutput, statuses: agentOnly }),
  finish: endpoint({ method: "POST", path: "/api/v1/runners/{id}/parts/{partId}/finish", tag, summary: "A part's final result; the run is merged when its last part ends", ...agent, params: PartParams, body: PartFinishInput, response: OkResponse, statuses: agentOnly }),
} as const;
