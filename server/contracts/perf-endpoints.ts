// The REST endpoints of performance testing (spec 02-modules, "Performance"):
// runs and stops, saved configs, results (list, detail, compare, a config's
// history and trend, run groups) and cron schedules. Script generation and
// runner agents have endpoint files of their own.
import { z } from "zod";
import { IdParams, OkResponse } from "./common";
import { endpoint } from "./endpoint";
import { PerfResultDetail, PerfRunInput, PerfRunStarted } from "./perf";
import {
  ConfigIdParams,
  PerfCompareQuery,
  PerfComparison,
  PerfHistory,
  PerfHistoryQuery,
  PerfResultList,
  PerfResultListQuery,
  PerfRunGroup,
  PerfStopped,
  PerfTrend,
  RunGroupParams,
} from "./perf-analysis";
import {
  CreatePerfConfigInput,
  CreatePerfScheduleInput,
  PerfConfigList,
  PerfConfigListQuery,
  PerfConfigView,
  PerfScheduleList,
  PerfScheduleView,
  RunPerfConfigInput,
  UpdatePerfConfigInput,
  UpdatePerfScheduleInput,
} from "./perf-configs";

export const TaskIdParams = z.object({ taskId: z.string().uuid({ message: "must be a UUID" }).describe("the run's taskId (or its result id)") });
export const PerfScheduleListQuery = z.object({ configId: z.string().uuid().optional().describe("only this config's schedules") });

const tag = "Performance";
const ns = { auth: "user", namespaced: true } as const;
const runStatuses = {
  409: "the web process is already running as many load runs as it may (PERF_LOCAL_CONCURRENCY) and no runner agent is registered",
  503: "the run needs more VUs than the web process runs itself and no runner agent is registered, or the chosen runner is not available",
} as const;
const references = { 404: "a referenced collection or environment is not in the namespace", 409: "a referenced collection is in the trash" } as const;

export const perfRunEndpoints = {
  run: endpoint({
    method: "POST",
    path: "/api/v1/perf/run",
    tag,
    summary: "Start a load test from a k6 script: checked whole first (400 naming the line, option or threshold), then queued; poll GET /perf-results/{id}",
    ...ns,
    permission: "write",
    body: PerfRunInput,
    response: PerfRunStarted,
    successStatus: 202,
    statuses: runStatuses,
  }),
  stop: endpoint({ method: "POST", path: "/api/v1/perf/stop/{taskId}", tag, summary: "Stop a queued or running load test within a second; what it measured is kept (status stopped)", ...ns, permission: "write", params: TaskIdParams, response: PerfStopped, statuses: { 409: "the run has already ended" } }),
} as const;

export const perfConfigEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/perf-configs", tag, summary: "Saved load tests of the namespace, newest change first, each with its last result", ...ns, permission: "read", query: PerfConfigListQuery, response: PerfConfigList }),
  create: endpoint({ method: "POST", path: "/api/v1/perf-configs", tag, summary: "Save a load test: k6 script, options overriding the script's, __ENV values, files; checked as a run would be", ...ns, permission: "write", body: CreatePerfConfigInput, response: PerfConfigView, successStatus: 201, statuses: references }),
  get: endpoint({ method: "GET", path: "/api/v1/perf-configs/{id}", tag, summary: "One saved load test", ...ns, permission: "read", params: IdParams, response: PerfConfigView }),
  update: endpoint({ method: "PUT", path: "/api/v1/perf-configs/{id}", tag, summary: "Change a saved load test (the fields given)", ...ns, permission: "write", params: IdParams, body: UpdatePerfConfigInput, response: PerfConfigView, statuses: references }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/perf-configs/{id}", tag, summary: "Delete a saved load test and its schedules; its results stay", ...ns, permission: "delete", params: IdParams, response: OkResponse }),
  run: endpoint({ method: "POST", path: "/api/v1/perf-configs/{id}/run", tag, summary: "Run a saved load test (its result joins the config's history)", ...ns, permission: "write", params: IdParams, body: RunPerfConfigInput, response: PerfRunStarted, successStatus: 202, statuses: runStatuses }),
} as const;

export const perfResultEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/perf-results", tag, summary: "Load results of the namespace, newest first, each with its headline numbers", ...ns, permission: "read", query: PerfResultListQuery, response: PerfResultList }),
  compare: endpoint({
    method: "GET",
    path: "/api/v1/perf-results/compare",
    tag,
    summary: "Two to five results side by side with deltas against the first: ids=a,b or id=a&id=b",
    ...ns,
    permission: "read",
    query: PerfCompareQuery,
    response: PerfComparison,
  }),
  history: endpoint({ method: "GET", path: "/api/v1/perf-results/history/{configId}", tag, summary: "A config's results, newest first", ...ns, permission: "read", params: ConfigIdParams, query: PerfHistoryQuery, response: PerfHistory }),
  trend: endpoint({ method: "GET", path: "/api/v1/perf-results/trend/{configId}", tag, summary: "A config's ended runs as chart points, oldest first: rps, latency percentiles, failure rate, thresholds", ...ns, permission: "read", params: ConfigIdParams, query: PerfHistoryQuery, response: PerfTrend }),
  group: endpoint({ method: "GET", path: "/api/v1/perf-results/group/{runGroupId}", tag, summary: "The results of one run group, each with its parts", ...ns, permission: "read", params: RunGroupParams, response: PerfRunGroup }),
  get: endpoint({ method: "GET", path: "/api/v1/perf-results/{id}", tag, summary: "One result: k6's metrics, checks, thresholds, series, logs and summary (live while it runs)", ...ns, permission: "read", params: IdParams, response: PerfResultDetail }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/perf-results/{id}", tag, summary: "Delete an ended result with its load test run", ...ns, permission: "delete", params: IdParams, response: OkResponse, statuses: { 409: "the run is queued or running (stop it first)" } }),
} as const;

export const perfScheduleEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/perf-schedules", tag, summary: "Cron schedules of saved load tests in the namespace", ...ns, permission: "read", query: PerfScheduleListQuery, response: PerfScheduleList }),
  create: endpoint({ method: "POST", path: "/api/v1/perf-schedules", tag, summary: "Schedule a saved load test on a cron expression; it runs as you", ...ns, permission: "write", body: CreatePerfScheduleInput, response: PerfScheduleView, successStatus: 201 }),
  get: endpoint({ method: "GET", path: "/api/v1/perf-schedules/{id}", tag, summary: "One schedule with its next occurrences and last run", ...ns, permission: "read", params: IdParams, response: PerfScheduleView }),
  update: endpoint({ method: "PUT", path: "/api/v1/perf-schedules/{id}", tag, summary: "Change a schedule (it then runs as you)", ...ns, permission: "write", params: IdParams, body: UpdatePerfScheduleInput, response: PerfScheduleView }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/perf-schedules/{id}", tag, summary: "Delete a schedule", ...ns, permission: "delete", params: IdParams, response: OkResponse }),
} as const;

/** Every endpoint of this file, for server/contracts/api.ts. */
export const perfEndpoints = [perfRunEndpoints, perfConfigEndpoints, perfResultEndpoints, perfScheduleEndpoints].flatMap((group) => Object.values(group));
