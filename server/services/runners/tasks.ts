// Runner tasks as users see them (/api/v1/runner-tasks): submitting a saved
// performance config to the runner agents, the task's status and parts, its
// place in the queue, and cancelling it. A task is a load run queued for
// runners (its PerfResult's taskId), so submitting goes through the same
// startPerfRun as every load run: checked whole first, stored, then split.
import type { Actor } from "@/server/auth/actor";
import type { PerfStatus } from "@/server/contracts/perf";
import type { RunnerTaskListQuery, RunnerTaskView, SubmitRunnerTaskInput } from "@/server/contracts/runner-endpoints";
import { db, type PerfRunPart, type RunnerTask } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { logger } from "@/server/lib/logger";
import type { NamespaceScope } from "../namespace-access";
import { queueOfTask } from "../perf/runner-queue";
import { startPerfRun, stopPerfRun } from "../perf/runs";
import { cancelParts } from "./queue";

type PartRow = Pick<PerfRunPart, "index" | "count" | "status" | "reason" | "runnerId" | "startedAt" | "finishedAt" | "snapshot">;

/** http_reqs the part last reported. */
function requestsOf(snapshot: unknown): number {
  const m = (snapshot as { metrics?: Record<string, { all?: { count?: number } }> } | null)?.metrics;
  return m?.http_reqs?.all?.count ?? 0;
}

const iso = (d: Date | null) => d?.toISOString() ?? null;

async function views(scope: NamespaceScope, tasks: RunnerTask[]): Promise<RunnerTaskView[]> {
  const resultIds = tasks.map((t) => t.resultId).filter((x): x is string => Boolean(x));
  const results = await db().perfResult.findMany({
    where: { id: { in: resultIds } },
    select: { id: true, name: true, status: true, parts: { orderBy: { index: "asc" }, select: { index: true, count: true, status: true, reason: true, runnerId: true, startedAt: true, finishedAt: true, snapshot: true } } },
  });
  const byId = new Map(results.map((r) => [r.id, r]));
  return tasks.map((t) => {
    const result = t.resultId ? byId.get(t.resultId) : undefined;
    const parts: PartRow[] = result?.parts ?? [];
    return {
      id: t.id,
      namespace: scope.name,
      type: t.type,
      name: result?.name ?? null,
      status: t.status as RunnerTaskView["status"],
      runStatus: (result?.status as PerfStatus | undefined) ?? null,
      configId: t.configId,
      resultId: t.resultId,
      preferredRunnerId: t.preferredRunnerId,
      vus: t.vus,
      partCount: t.parts,
      parts: parts.map((p) => ({ index: p.index, count: p.count, status: p.status, reason: p.reason, runnerId: p.runnerId, startedAt: iso(p.startedAt), finishedAt: iso(p.finishedAt), requests: requestsOf(p.snapshot) })),
      error: t.error,
      createdBy: t.createdBy,
      createdAt: t.createdAt.toISOString(),
      startedAt: iso(t.startedAt),
      finishedAt: iso(t.finishedAt),
    };
  });
}

async function taskOf(scope: NamespaceScope, id: string): Promise<RunnerTask> {
  const task = await db().runnerTask.findFirst({ where: { id, namespaceId: scope.id } });
  if (!task) throw new AppError("not_found", `Runner task '${id}' not found in namespace '${scope.name}'`);
  return task;
}

export async function getRunnerTask(scope: NamespaceScope, id: string): Promise<RunnerTaskView> {
  const [view] = await views(scope, [await taskOf(scope, id)]);
  return view;
}

export async function listRunnerTasks(scope: NamespaceScope, query: RunnerTaskListQuery) {
  const where = { namespaceId: scope.id, ...(query.status ? { status: query.status } : {}) };
  const [rows, total] = await Promise.all([db().runnerTask.findMany({ where, orderBy: { createdAt: "desc" }, skip: query.offset, take: query.limit }), db().runnerTask.count({ where })]);
  return { tasks: await views(scope, rows), total };
}

/** A saved config's script and environment on the runners; `options` replaces its saved options. */
export async function submitRunnerTask(actor: Actor, scope: NamespaceScope, input: SubmitRunnerTaskInput): Promise<RunnerTaskView> {
  const config = await db().perfConfig.findFirst({ where: { id: input.configId, namespaceId: scope.id } });
  if (!config) throw new AppError("not_found", `Performance config '${input.configId}' not found in namespace '${scope.name}'`);
  const started = await startPerfRun(actor, scope, {
    name: input.name ?? config.name,
    script: config.script,
    options: input.options ?? (config.options as Record<string, unknown>),
    configId: config.id,
    environment: config.environment as Record<string, string>,
    files: config.files as Record<string, string>,
    collectionIds: config.collectionIds,
    environmentId: config.environmentId,
    runnerId: input.runnerId,
    requireRunners: true,
  });
  return getRunnerTask(scope, started.taskId);
}

/** Tasks ahead of it in the queue, across the instance: runners are shared by every namespace they serve. */
export async function queuePosition(scope: NamespaceScope, id: string) {
  const task = await taskOf(scope, id);
  if (task.status !== "queued") return { id: task.id, status: task.status as RunnerTaskView["status"], position: null, ahead: 0 };
  const ahead = await db().runnerTask.count({ where: { status: "queued", createdAt: { lt: task.createdAt } } });
  return { id: task.id, status: "queued" as const, position: ahead + 1, ahead };
}

/** Queued parts never start; running ones stop at their next report (within a second), keeping what they measured. */
export async function cancelRunnerTask(scope: NamespaceScope, id: string): Promise<RunnerTaskView> {
  const task = await taskOf(scope, id);
  if (task.status !== "queued" && task.status !== "running") throw new AppError("conflict", `The task has already ended (${task.status})`);
  const result = task.resultId ? await db().perfResult.findUnique({ where: { id: task.resultId }, select: { id: true } }) : null;
  if (result) {
    await stopPerfRun(scope, task.id);
  } else {
    // Its load run was deleted while it waited: nothing left to stop.
    await db().runnerTask.updateMany({ where: { id: task.id, status: { in: ["queued", "running"] } }, data: { status: "cancelled", finishedAt: new Date() } });
  }
  const withdrawn = task.resultId ? await db().perfRunPart.findMany({ where: { resultId: task.resultId, status: "cancelled", jobId: { not: null } }, select: { jobId: true } }) : [];
  await cancelParts(
    queueOfTask(task),
    withdrawn.map((p) => p.jobId!),
  ).catch((err) => logger().warn({ err, taskId: task.id }, "cancelled parts not withdrawn from the queue"));
  return getRunnerTask(scope, task.id);
}
