// tRPC for the UI's runner pages: runner agents, their status per
// integration token, and runner tasks (submit, list, status, queue position,
// cancel); the same services as /api/v1/runners and /api/v1/runner-tasks.
import { z } from "zod";
import { IdParams } from "@/server/contracts/common";
import { RunnerTaskListQuery, SubmitRunnerTaskInput } from "@/server/contracts/runner-endpoints";
import { integrationStatus, listRunners } from "@/server/services/runners/registry";
import { cancelRunnerTask, getRunnerTask, listRunnerTasks, queuePosition, submitRunnerTask } from "@/server/services/runners/tasks";
import { nsRead, nsWrite } from "../namespaced";
import { createTRPCRouter, permissionProcedure } from "../trpc";

export const runnersRouter = createTRPCRouter({
  list: nsRead.query(({ ctx }) => listRunners(ctx.scope)),
  integrationStatus: permissionProcedure("read").query(({ ctx }) => integrationStatus(ctx.actor)),
  tasks: createTRPCRouter({
    list: nsRead.input(RunnerTaskListQuery).query(({ ctx, input }) => listRunnerTasks(ctx.scope, input)),
    get: nsRead.input(IdParams).query(({ ctx, input }) => getRunnerTask(ctx.scope, input.id)),
    queuePosition: nsRead.input(IdParams).query(({ ctx, input }) => queuePosition(ctx.scope, input.id)),
    // Wrapped in one key: the task's fields never meet the namespace selector.
    submit: nsWrite.input(z.object({ task: SubmitRunnerTaskInput })).mutation(({ ctx, input }) => submitRunnerTask(ctx.actor, ctx.scope, input.task)),
    cancel: nsWrite.input(IdParams).mutation(({ ctx, input }) => cancelRunnerTask(ctx.scope, input.id)),
  }),
});
