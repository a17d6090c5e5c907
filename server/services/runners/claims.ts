// A runner agent's side of a part: claiming the next one it may run (a long
// poll over the job queue), its progress reports and its final report. The
// part functions are the ones the web process's own runs use
// (server/services/perf/run-parts.ts), so a part counts the same wherever
// it ran, and a report repeated after a network error changes nothing.
import { setTimeout as sleep } from "node:timers/promises";
import type { Actor } from "@/server/auth/actor";
import type { ClaimedPart, ClaimInput, PartFinishInput, PartProgressInput } from "@/server/contracts/runner-endpoints";
import { db, type Runner } from "@/server/db/client";
import { errors } from "@/server/errors";
import { logger } from "@/server/lib/logger";
import type { PartialSnapshot } from "@/server/perf/k6/engine";
import { snapshotProblem } from "@/server/perf/merge";
import { type FinalReport, finishPart, markPartStarted, recordPartProgress } from "../perf/run-parts";
import { queueOfTask } from "../perf/runner-queue";
import { cancelParts, completePart, fetchPart, namespaceQueue, type PartJob, releasePart, runnerOnlyQueue } from "./queue";
import { ownRunner, runnerStatusOf, servedNamespaces, touchRunner } from "./registry";

const POLL_MS = 1000;

interface Candidate {
  namespaceId: string;
  preferredRunnerId: string | null;
}

/** Queues holding parts this runner may take, the oldest task's first. */
async function candidateQueues(runner: Runner, served: { all: boolean; ids: string[] }): Promise<string[]> {
  const rows = await db().$queryRaw<Candidate[]>`
    SELECT r."namespaceId", t."preferredRunnerId"
    FROM "PerfRunPart" p
    JOIN "PerfResult" r ON r.id = p."resultId"
    JOIN "RunnerTask" t ON t.id = r."taskId"
    WHERE p.status = 'queued' AND p."jobId" IS NOT NULL AND t.status IN ('queued', 'running')
      AND (${served.all} OR r."namespaceId" = ANY(${served.ids}::uuid[]))
      AND (t."preferredRunnerId" = ${runner.id}::uuid OR t."preferredRunnerId" IS NULL)
    ORDER BY t."createdAt", p.index
    LIMIT 200`;
  return [...new Set(rows.map((r) => (r.preferredRunnerId ? runnerOnlyQueue(r.preferredRunnerId) : namespaceQueue(r.namespaceId))))];
}

async function payloadOf(job: PartJob): Promise<ClaimedPart> {
  const result = await db().perfResult.findUniqueOrThrow({ where: { id: job.resultId }, select: { script: true, options: true, taskId: true, namespace: { select: { name: true } } } });
  return {
    partId: job.partId,
    resultId: job.resultId,
    taskId: result.taskId ?? job.resultId,
    namespace: result.namespace.name,
    segment: job.segment,
    vus: job.vus,
    script: result.script,
    options: (result.options ?? {}) as Record<string, unknown>,
    env: job.env,
    files: job.files,
    maxDurationMs: job.maxDurationMs,
  };
}

/**
 * One pass over the queues: the head job of each is leased from pg-boss; a
 * part larger than the runner's free VUs goes back (FIFO per queue: a large
 * task is not overtaken forever by small ones), a job whose part has ended
 * meanwhile (cancelled) is cancelled, and the first that fits is the runner's.
 */
async function tryClaim(runner: Runner, served: { all: boolean; ids: string[] }, freeVus: number): Promise<ClaimedPart | null> {
  for (const queue of await candidateQueues(runner, served)) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const job = await fetchPart(queue);
      if (!job) break;
      if (job.data.vus > freeVus) {
        await releasePart(queue, job.id);
        break;
      }
      const now = new Date();
      const { count } = await db().perfRunPart.updateMany({ where: { id: job.data.partId, status: "queued", jobId: { not: null } }, data: { status: "running", runnerId: runner.id, startedAt: now, heartbeatAt: now } });
      if (!count) {
        const part = await db().perfRunPart.findUnique({ where: { id: job.data.partId }, select: { status: true } });
        // Still queued: its task is being dispatched (not every part has its job yet); otherwise it ended without running.
        if (part?.status === "queued") {
          await releasePart(queue, job.id);
          break;
        }
        await cancelParts(queue, [job.id]);
        continue;
      }
      await markPartStarted(job.data.partId, runner.id);
      const payload = await payloadOf(job.data);
      await db().runnerTask.updateMany({ where: { id: payload.taskId, status: "queued" }, data: { status: "running", startedAt: now } });
      logger().info({ runnerId: runner.id, partId: job.data.partId, resultId: job.data.resultId, segment: job.data.segment }, "part claimed by a runner");
      return payload;
    }
  }
  return null;
}

/** The next part this runner may run, waiting up to `waitSeconds` for one. */
export async function claimPart(actor: Actor, runnerId: string, input: ClaimInput, signal?: AbortSignal): Promise<{ part: ClaimedPart | null }> {
  const runner = await ownRunner(actor, runnerId);
  const freeVus = Math.min(input.freeVus, runner.capacityVus);
  await touchRunner(runner.id, Math.max(0, runner.capacityVus - freeVus));
  if (runnerStatusOf(runner) === "draining" || freeVus <= 0) return { part: null };
  const served = await servedNamespaces(actor);
  const deadline = Date.now() + input.waitSeconds * 1000;
  for (;;) {
    const part = await tryClaim(runner, served, freeVus);
    if (part) return { part };
    const left = deadline - Date.now();
    if (left <= 0 || signal?.aborted) return { part: null };
    await sleep(Math.min(POLL_MS, left), undefined, { signal }).catch(() => {});
  }
}

async function ownPart(actor: Actor, runnerId: string, partId: string) {
  const runner = await ownRunner(actor, runnerId);
  const part = await db().perfRunPart.findFirst({ where: { id: partId, runnerId: runner.id }, select: { id: true, jobId: true, resultId: true } });
  if (!part) throw errors.notFound("Part");
  return part;
}

/** A report whose histograms do not decode would break the merge of the whole run: refused here. */
function assertMergeable(snapshot: { metrics: PartialSnapshot["metrics"] } | undefined) {
  const problem = snapshot && snapshotProblem(snapshot as PartialSnapshot);
  if (problem) throw errors.validation(problem, [{ location: "body", field: "snapshot.metrics", message: problem }]);
}

export async function reportPartProgress(actor: Actor, runnerId: string, partId: string, input: PartProgressInput) {
  await ownPart(actor, runnerId, partId);
  assertMergeable(input.snapshot as PartialSnapshot | undefined);
  return recordPartProgress(partId, { ...input, snapshot: input.snapshot as PartialSnapshot | undefined });
}

export async function finishRunnerPart(actor: Actor, runnerId: string, partId: string, input: PartFinishInput) {
  const part = await ownPart(actor, runnerId, partId);
  assertMergeable(input.snapshot as PartialSnapshot | undefined);
  await finishPart(partId, { ...input, snapshot: input.snapshot as FinalReport["snapshot"] });
  if (part.jobId) {
    const result = await db().perfResult.findUnique({ where: { id: part.resultId }, select: { namespaceId: true, taskId: true } });
    const task = result?.taskId ? await db().runnerTask.findUnique({ where: { id: result.taskId }, select: { preferredRunnerId: true, namespaceId: true } }) : null;
    if (task) await completePart(queueOfTask(task), part.jobId).catch((err) => logger().warn({ err, partId }, "job not completed in the queue"));
  }
  return { ok: true as const };
}
