// Performance testing for the UI: saved load tests, runs and stops, results
// (detail, compare, history, trend, run groups) and cron schedules; the same
// services as the REST routes under /api/v1/perf*; `runCollection` is the API
// tester's "Load test…" (perf/run-collection).
import { z } from "zod";
import { IdParams } from "@/server/contracts/common";
import { PerfRunInput } from "@/server/contracts/perf";
import { ConfigIdParams, PerfCompareInput, PerfHistoryQuery, PerfResultListQuery, RunGroupParams } from "@/server/contracts/perf-analysis";
import { CreatePerfConfigInput, CreatePerfScheduleInput, PerfConfigListQuery, RunPerfConfigInput, UpdatePerfConfigInput, UpdatePerfScheduleInput } from "@/server/contracts/perf-configs";
import { RunCollectionInput } from "@/server/contracts/perf-collection-endpoints";
import { PerfScheduleListQuery, TaskIdParams } from "@/server/contracts/perf-endpoints";
import { runCollectionLoad } from "@/server/services/perf/collection-runs";
import { createPerfConfig, deletePerfConfig, getPerfConfig, listPerfConfigs, runPerfConfig, updatePerfConfig } from "@/server/services/perf/configs";
import { comparePerfResults, deletePerfResult, getPerfResult, listPerfResults, perfHistory, perfRunGroup, perfTrend } from "@/server/services/perf/results";
import { startPerfRun, stopPerfRun } from "@/server/services/perf/runs";
import { createPerfSchedule, deletePerfSchedule, getPerfSchedule, listPerfSchedules, updatePerfSchedule } from "@/server/services/perf/schedules";
import { nsDelete, nsRead, nsWrite } from "../namespaced";
import { createTRPCRouter } from "../trpc";

// Inputs are plain (not strict) objects: tRPC merges them with the namespace selector.
const configsRouter = createTRPCRouter({
  list: nsRead.input(PerfConfigListQuery).query(({ ctx, input }) => listPerfConfigs(ctx.scope, input)),
  get: nsRead.input(IdParams).query(({ ctx, input }) => getPerfConfig(ctx.scope, input.id)),
  create: nsWrite.input(z.object({ config: CreatePerfConfigInput })).mutation(({ ctx, input }) => createPerfConfig(ctx.actor, ctx.scope, input.config)),
  update: nsWrite.input(IdParams.extend({ patch: UpdatePerfConfigInput })).mutation(({ ctx, input }) => updatePerfConfig(ctx.scope, input.id, input.patch)),
  delete: nsDelete.input(IdParams).mutation(({ ctx, input }) => deletePerfConfig(ctx.scope, input.id)),
  run: nsWrite.input(IdParams.extend(RunPerfConfigInput.shape)).mutation(({ ctx, input }) => {
    const { id, ...rest } = input;
    return runPerfConfig(ctx.actor, ctx.scope, id, rest);
  }),
});

const resultsRouter = createTRPCRouter({
  list: nsRead.input(PerfResultListQuery).query(({ ctx, input }) => listPerfResults(ctx.scope, input)),
  get: nsRead.input(IdParams).query(({ ctx, input }) => getPerfResult(ctx.scope, input.id)),
  delete: nsDelete.input(IdParams).mutation(({ ctx, input }) => deletePerfResult(ctx.scope, input.id)),
  compare: nsRead.input(PerfCompareInput).query(({ ctx, input }) => comparePerfResults(ctx.scope, input.ids)),
  history: nsRead.input(ConfigIdParams.extend(PerfHistoryQuery.shape)).query(({ ctx, input }) => perfHistory(ctx.scope, input.configId, input)),
  trend: nsRead.input(ConfigIdParams.extend(PerfHistoryQuery.shape)).query(({ ctx, input }) => perfTrend(ctx.scope, input.configId, input)),
  group: nsRead.input(RunGroupParams).query(({ ctx, input }) => perfRunGroup(ctx.scope, input.runGroupId)),
});

const schedulesRouter = createTRPCRouter({
  list: nsRead.input(PerfScheduleListQuery).query(({ ctx, input }) => listPerfSchedules(ctx.scope, input)),
  get: nsRead.input(IdParams).query(({ ctx, input }) => getPerfSchedule(ctx.scope, input.id)),
  create: nsWrite.input(z.object({ schedule: CreatePerfScheduleInput })).mutation(({ ctx, input }) => createPerfSchedule(ctx.actor, ctx.scope, input.schedule)),
  update: nsWrite.input(IdParams.extend({ patch: UpdatePerfScheduleInput })).mutation(({ ctx, input }) => updatePerfSchedule(ctx.actor, ctx.scope, input.id, input.patch)),
  delete: nsDelete.input(IdParams).mutation(({ ctx, input }) => deletePerfSchedule(ctx.scope, input.id)),
});

export const perfRouter = createTRPCRouter({
  configs: configsRouter,
  results: resultsRouter,
  /** An ad-hoc script run (the editor's Run button). */
  run: nsWrite.input(z.object({ run: PerfRunInput })).mutation(({ ctx, input }) => startPerfRun(ctx.actor, ctx.scope, input.run)),
  /** Load test API-tester collections: their requests become the run's k6 script. */
  runCollection: nsWrite.input(z.object({ run: RunCollectionInput })).mutation(({ ctx, input }) => runCollectionLoad(ctx.actor, ctx.scope, input.run)),
  stop: nsWrite.input(TaskIdParams).mutation(({ ctx, input }) => stopPerfRun(ctx.scope, input.taskId)),
  schedules: schedulesRouter,
});
