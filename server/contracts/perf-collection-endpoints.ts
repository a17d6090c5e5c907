// Load tests of API-tester collections (spec 02-modules: `perf/run-collection`
// under "Performance", and `api-tester/collections/execute-perf` with its
// body and rules under "API tester: scripts and execution"). The requests are
// turned into a k6 script (server/perf/scripts) and run like any load test.
import { z } from "zod";
import { endpoint } from "./endpoint";
import { PerfRunStarted } from "./perf";
import { PerfLoadOptions } from "./perf-script-endpoints";
import { TestRunDetail } from "./tester-run";

const Selection = z.union([z.string().uuid(), z.object({ collectionId: z.string().uuid(), requestIds: z.array(z.string().uuid()).max(10_000).optional() }).strict()]);

const Common = {
  collectionIds: z.array(Selection).min(1).max(100).describe("ids, or {collectionId, requestIds} selections"),
  perfOptions: PerfLoadOptions.optional().describe("absent: 10 virtual users for 30 seconds; rps 0: no target rate"),
  name: z.string().trim().min(1).max(200).optional(),
  environmentId: z.string().uuid().nullable().optional().describe("absent: the caller's active environment; null: none"),
  environmentVariables: z.record(z.string(), z.string()).optional().describe("a non-empty object replaces the environment's values for this run"),
  runnerId: z.string().uuid().optional().describe("run on this runner agent (503 when it is not available)"),
};

export const RunCollectionInput = z
  .object({ ...Common, configId: z.string().uuid().optional().describe("the saved config the run belongs to (history, trend)") })
  .strict();
export type RunCollectionInput = z.infer<typeof RunCollectionInput>;

export const ExecutePerfInput = z
  .object({
    ...Common,
    useSSE: z.boolean().default(false).describe("a local run answers with server-sent events: started, each second's point, finished"),
    ciTriggerId: z.string().min(1).max(200).optional().describe("run through a saved CI trigger"),
    isDebug: z.boolean().default(false).describe("run without keeping the run in the history"),
  })
  .strict();
export type ExecutePerfInput = z.infer<typeof ExecutePerfInput>;

export const PerfQueued = z.object({ id: z.string().describe("the result's id"), taskId: z.string(), status: z.literal("queued") });

const tag = "Performance";
const ns = { auth: "user", namespaced: true } as const;
const statuses = {
  403: "a collection shared from another Space cannot be run here",
  409: "a collection is in the trash, or the web process already runs as many load runs as it may",
  503: "a runner or CI selection has no available execution service, or the run needs more VUs than the web process runs itself",
} as const;

export const perfCollectionEndpoints = {
  runCollection: endpoint({
    method: "POST",
    path: "/api/v1/perf/run-collection",
    tag,
    summary: "Load test collections: their HTTP, GraphQL and SOAP requests become a k6 script (400 naming each request that needs a dedicated load script); answers like perf/run",
    ...ns,
    permission: "write",
    body: RunCollectionInput,
    response: PerfRunStarted,
    successStatus: 202,
    statuses,
  }),
  executePerf: endpoint({
    method: "POST",
    path: "/api/v1/api-tester/collections/execute-perf",
    tag: "API tester: execution",
    summary: "Run collections as a load test: a local run answers the completed test run (or server-sent events with useSSE); a run queued for runner agents answers 202 with taskId",
    ...ns,
    permission: "write",
    body: ExecutePerfInput,
    response: z.union([TestRunDetail, PerfQueued]),
    produces: ["application/json", "text/event-stream"],
    statuses: { 202: "queued for runner agents: {id, taskId, status: queued}", ...statuses },
  }),
} as const;
