// Where a load run goes when runner agents are online: split into as few
// parts as the online runners can hold at once (k6 execution segments), a
// runner task and the parts stored in one transaction, then one job per part
// in the PostgreSQL job queue (server/services/runners/queue.ts). A part the
// queue would not take fails the task and withdraws the parts already sent,
// so nothing half-queued is left for a runner to find.
import { randomUUID } from "node:crypto";
import { db, type Prisma } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { logger } from "@/server/lib/logger";
import type { RunPlan } from "@/server/perf/k6/plan";
import type { NamespaceScope } from "../namespace-access";
import { cancelParts, namespaceQueue, runnerOnlyQueue, sendPart } from "../runners/queue";
import { onlineRunnersWhere, servingWhere } from "../runners/registry";
import { planSplit } from "../runners/split";
import { transaction } from "../tester/access";

export { RUNNER_ONLINE_WITHIN_MS } from "../runners/registry";

/** Whether any runner agent may take this namespace's load runs now. */
export async function runnersAvailable(scope: NamespaceScope): Promise<boolean> {
  return (await db().runner.count({ where: { ...onlineRunnersWhere(), ...(await servingWhere(scope.id)) } })) > 0;
}

export interface Dispatch {
  resultId: string;
  plan: RunPlan;
  preferredRunnerId?: string;
  createdBy: string | null;
  configId: string | null;
  /** __ENV values and files of the run: they travel in the parts' jobs only. */
  environment?: Record<string, string>;
  files?: Record<string, string>;
}

/** The queue a task's parts wait in. */
export function queueOfTask(task: { preferredRunnerId: string | null; namespaceId: string }): string {
  return task.preferredRunnerId ? runnerOnlyQueue(task.preferredRunnerId) : namespaceQueue(task.namespaceId);
}

async function capacities(scope: NamespaceScope, preferredRunnerId?: string): Promise<number[]> {
  const runners = await db().runner.findMany({ where: { ...onlineRunnersWhere(), ...(await servingWhere(scope.id)), ...(preferredRunnerId ? { id: preferredRunnerId } : {}) }, select: { capacityVus: true } });
  if (!runners.length) {
    throw new AppError("unavailable", preferredRunnerId ? `Runner '${preferredRunnerId}' is not online, or may not serve namespace '${scope.name}'` : `No runner agent that may serve namespace '${scope.name}' is online (start one with npx polymock runner)`);
  }
  return runners.map((r) => r.capacityVus);
}

/** Queues the run's parts for runner agents; answers the runner task's id. */
export async function dispatchToRunners(scope: NamespaceScope, run: Dispatch): Promise<{ taskId: string }> {
  const caps = await capacities(scope, run.preferredRunnerId);
  const split = planSplit(run.plan.scenarios, caps);
  if (!split.fits) {
    throw new AppError("unavailable", `This run holds up to ${run.plan.maxVus} VUs at once; the online runners that may serve namespace '${scope.name}' hold ${split.total} together (the largest ${split.largest}). Start more runners, raise their --capacity, or lower the VUs.`);
  }
  const taskId = randomUUID();
  const parts = split.vus.map((vus, index) => ({ id: randomUUID(), index, vus }));
  await transaction(async (tx) => {
    await tx.runnerTask.create({
      data: { id: taskId, namespaceId: scope.id, type: "performance", configId: run.configId, options: run.plan.options as Prisma.InputJsonValue, status: "queued", resultId: run.resultId, preferredRunnerId: run.preferredRunnerId ?? null, vus: run.plan.maxVus, parts: split.count, createdBy: run.createdBy },
    });
    await tx.perfRunPart.createMany({ data: parts.map((p) => ({ id: p.id, resultId: run.resultId, index: p.index, count: split.count })) });
    // Set here, not after: a part may end before the caller would set it, and its end finalises the task through it.
    await tx.perfResult.update({ where: { id: run.resultId }, data: { taskId } });
  });

  const queue = queueOfTask({ preferredRunnerId: run.preferredRunnerId ?? null, namespaceId: scope.id });
  try {
    for (const p of parts) {
      await sendPart(queue, { partId: p.id, resultId: run.resultId, namespaceId: scope.id, vus: p.vus, segment: { index: p.index, count: split.count }, maxDurationMs: run.plan.maxDurationMs, env: run.environment ?? {}, files: run.files ?? {} });
    }
    // A part is claimable once it has its job (the claim checks jobId): all at once, so none starts before the others are queued.
    await db().$executeRaw`UPDATE "PerfRunPart" SET "jobId" = id::text WHERE "resultId" = ${run.resultId}::uuid AND status = 'queued'`;
  } catch (e) {
    await cancelParts(queue, parts.map((p) => p.id)).catch((err) => logger().warn({ err, taskId }, "queued parts not withdrawn"));
    const error = `The job queue did not take the run: ${(e as Error).message}`;
    await db().runnerTask.update({ where: { id: taskId }, data: { status: "failed", error, finishedAt: new Date() } });
    throw new AppError("unavailable", error);
  }
  logger().info({ taskId, resultId: run.resultId, parts: split.count, vus: split.vus }, "load run queued for runners");
  return { taskId };
}
