// Queued load-run parts that nobody will ever start, found by the web
// process's sweep (maintenance.ts) and ended, so their runs and tasks do not
// wait forever. A part's row going queued → running decides who runs it, so
// a part still queued has run nowhere: ending it, or putting its job back in
// the queue, never runs anything twice. In order:
//  1. Its runner is not coming: the runner its task asked for is gone, may no
//     longer serve the namespace, or has been offline for longer than the
//     grace (RUNNER_WAIT_GRACE_SECONDS, 10 min); for a namespace's parts, no
//     runner that may serve the namespace has been online within the grace.
//     A runner that is draining (finishing its parts, taking none) is not
//     coming either once the task has waited longer than the grace.
//  2. Its dispatch died halfway (the web process stopped while sending the
//     jobs): after a minute without its job, the part ends.
//  3. Its job cannot be delivered: pg-boss failed it (the lease ran out: the
//     process that leased it stopped before the part started), completed or
//     cancelled it, or deleted it.
//  4. Its job has been leased (active) for over a minute by a claim that
//     never finished: it goes back to its place in the queue, as the claim
//     itself would have put it back.
//  5. A web-process run whose process stopped before starting it.
//  6. It needs more VUs at once than any runner that may take it has offered
//     within the grace (they went away or came back with a smaller
//     --capacity since the dispatch fitted it), and its task is older than
//     the grace: no runner will ever claim it.
// Such parts end `error` (they could not run): a task none of whose parts
// ran is then `failed` with that reason, as any task that could not run.
import { db } from "@/server/db/client";
import { logger } from "@/server/lib/logger";
import { cancelParts, partJobState, releasePart } from "../runners/queue";
import { runnerStatusOf, servingWhere } from "../runners/registry";
import { endParts } from "./run-parts";
import { queueOfTask } from "./runner-queue";

/** A claim or a dispatch takes milliseconds between its steps; one this old died halfway. */
export const HALFWAY_AFTER_MS = 60_000;

/** How long queued parts wait for a runner that is not there (RUNNER_WAIT_GRACE_SECONDS, default 10 min). */
export function runnerWaitGraceMs(): number {
  const s = Number(process.env.RUNNER_WAIT_GRACE_SECONDS);
  return (Number.isFinite(s) && s > 0 ? s : 600) * 1000;
}

const span = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`);

interface WaitingTask {
  id: string;
  namespaceId: string;
  preferredRunnerId: string | null;
  createdAt: Date;
  resultId: string;
  parts: { id: string; jobId: string | null }[];
}

export interface StrandedSweep {
  /** Parts ended (`error`). */
  ended: number;
  /** Leased jobs put back in the queue. */
  released: number;
}

/** One pass over every queued part; `now` is injectable for tests. */
export async function sweepStrandedParts(now = new Date()): Promise<StrandedSweep> {
  const out: StrandedSweep = { ended: await endUnstartedLocalParts(now), released: 0 };
  for (const task of await waitingTasks()) {
    const r = await sweepTask(task, now);
    out.ended += r.ended;
    out.released += r.released;
  }
  return out;
}

async function endUnstartedLocalParts(now: Date): Promise<number> {
  const parts = await db().perfRunPart.findMany({
    where: { status: "queued", jobId: null, result: { taskId: null, createdAt: { lt: new Date(now.getTime() - HALFWAY_AFTER_MS) } } },
    select: { id: true, resultId: true },
  });
  let ended = 0;
  for (const p of parts) ended += await endParts(p.resultId, "error", "the web process that was to run it stopped before it started", { id: p.id, status: "queued" });
  return ended;
}

async function waitingTasks(): Promise<WaitingTask[]> {
  const parts = await db().perfRunPart.findMany({
    where: { status: "queued", result: { taskId: { not: null } } },
    select: { id: true, jobId: true, resultId: true, result: { select: { taskId: true } } },
    orderBy: { index: "asc" },
  });
  const taskIds = [...new Set(parts.map((p) => p.result.taskId!))];
  const tasks = await db().runnerTask.findMany({ where: { id: { in: taskIds }, status: { in: ["queued", "running"] } }, select: { id: true, namespaceId: true, preferredRunnerId: true, createdAt: true, resultId: true } });
  return tasks
    .filter((t) => t.resultId)
    .map((t) => ({ ...t, resultId: t.resultId!, parts: parts.filter((p) => p.resultId === t.resultId).map(({ id, jobId }) => ({ id, jobId })) }));
}

/** Why the task's queued parts will never find a runner, or null while one may still come. */
async function runnerAbsence(task: WaitingTask, now: Date): Promise<string | null> {
  const grace = runnerWaitGraceMs();
  const waited = now.getTime() - task.createdAt.getTime();
  const serving = await servingWhere(task.namespaceId);
  const namespace = async () => (await db().namespace.findUnique({ where: { id: task.namespaceId }, select: { name: true } }))?.name ?? task.namespaceId;
  if (task.preferredRunnerId) {
    const runner = await db().runner.findUnique({ where: { id: task.preferredRunnerId } });
    if (!runner) return `runner ${task.preferredRunnerId}, which the task waited for, no longer exists`;
    if (!(await db().runner.count({ where: { AND: [serving, { id: runner.id }] } }))) return `runner '${runner.name}' (${runner.id}), which the task waited for, may no longer serve namespace '${await namespace()}'`;
    const silentFor = now.getTime() - runner.lastHeartbeatAt.getTime();
    const status = runnerStatusOf(runner, now.getTime());
    if (status === "offline" && silentFor > grace) {
      return `runner '${runner.name}' (${runner.id}), which the task waited for, has been offline for more than ${span(grace)} (last heartbeat ${runner.lastHeartbeatAt.toISOString()})`;
    }
    if (status === "draining" && waited > grace) {
      return `runner '${runner.name}' (${runner.id}), which the task waited for, is draining (it takes no new parts) and the task has waited more than ${span(grace)}`;
    }
    return null;
  }
  const recently = { AND: [serving, { lastHeartbeatAt: { gte: new Date(now.getTime() - grace) } }] };
  // A draining runner finishes its parts and takes none: it is no reason to keep waiting once the grace is over.
  if (await db().runner.count({ where: { AND: [recently, { status: { not: "draining" } }] } })) return null;
  if (await db().runner.count({ where: recently })) {
    if (waited <= grace) return null;
    return `every runner agent that may serve namespace '${await namespace()}' is draining (takes no new parts) and the task has waited more than ${span(grace)} (start another with npx polymock runner)`;
  }
  return `no runner agent that may serve namespace '${await namespace()}' has been online for ${span(grace)} (start one with npx polymock runner)`;
}

/** The most VUs at once a runner that may take the task's parts has offered within the grace (its capacity now). */
async function largestRecentCapacity(task: WaitingTask, now: Date): Promise<{ vus: number; who: string }> {
  const where = { AND: [await servingWhere(task.namespaceId), { lastHeartbeatAt: { gte: new Date(now.getTime() - runnerWaitGraceMs()) } }, task.preferredRunnerId ? { id: task.preferredRunnerId } : {}] };
  const top = await db().runner.findFirst({ where, orderBy: { capacityVus: "desc" }, select: { capacityVus: true, name: true } });
  return { vus: top?.capacityVus ?? 0, who: task.preferredRunnerId ? `runner '${top?.name ?? task.preferredRunnerId}', which the task waits for,` : "any runner that may serve the namespace" };
}

async function endWaiting(task: WaitingTask, partIds: string[], reason: string): Promise<number> {
  const ended = await endParts(task.resultId, "error", reason, { id: { in: partIds }, status: "queued" });
  // Their jobs carry __ENV values: out of the queue now rather than when pg-boss's retention ends.
  await cancelParts(queueOfTask(task), partIds).catch((err) => logger().warn({ err, taskId: task.id }, "stranded parts not withdrawn from the queue"));
  if (ended) logger().warn({ taskId: task.id, resultId: task.resultId, parts: ended, reason }, "queued parts ended: no runner will start them");
  return ended;
}

async function sweepTask(task: WaitingTask, now: Date): Promise<StrandedSweep> {
  const absence = await runnerAbsence(task, now);
  if (absence) return { ended: await endWaiting(task, task.parts.map((p) => p.id), absence), released: 0 };

  const old = (d: Date | null) => d !== null && now.getTime() - d.getTime() > HALFWAY_AFTER_MS;
  // jobId is set on every part at once when all jobs are in: none means the dispatch stopped halfway.
  if (task.parts.some((p) => !p.jobId)) {
    if (!old(task.createdAt)) return { ended: 0, released: 0 };
    return { ended: await endWaiting(task, task.parts.map((p) => p.id), "the web process stopped while queueing the run for runners"), released: 0 };
  }
  const out: StrandedSweep = { ended: 0, released: 0 };
  const queue = queueOfTask(task);
  const grace = runnerWaitGraceMs();
  const largest = now.getTime() - task.createdAt.getTime() > grace ? await largestRecentCapacity(task, now) : undefined;
  for (const part of task.parts) {
    const job = await partJobState(queue, part.jobId!);
    let problem: string | null = null;
    if (largest !== undefined && job && (job.state === "created" || job.state === "retry") && job.vus > largest.vus) {
      out.ended += await endWaiting(task, [part.id], `needs ${job.vus} VUs at once, more than ${largest.who} has offered in the last ${span(grace)} (${largest.vus}); raise a runner's --capacity or lower the VUs`);
      continue;
    }
    if (!job) problem = "its job is no longer in the queue";
    else if (job.state === "failed") problem = "its job in the queue failed (the process that leased it stopped before the part started)";
    else if (job.state === "completed") problem = "its job in the queue was completed before the part started";
    else if (job.state === "cancelled" && old(job.completedOn)) problem = "its job was withdrawn from the queue before the part started";
    else if (job.state === "active" && old(job.startedOn)) {
      // Still queued here: nobody runs it, so the lease is only in the way.
      await releasePart(queue, part.jobId!);
      logger().warn({ taskId: task.id, partId: part.id }, "a part's job leased by a claim that never finished was put back in the queue");
      out.released++;
    }
    if (problem) out.ended += await endWaiting(task, [part.id], `could not be handed to a runner: ${problem}`);
  }
  return out;
}
