// Starting and stopping load runs. A run is checked whole before anything is
// stored (the script compiles, its options and thresholds parse: a 400 naming
// what is wrong), then stored as a test run of mode "load" with its result
// row, then placed: on runner agents when any can take it, otherwise in this
// web process, which runs small runs itself.
import { randomUUID } from "node:crypto";
import type { PerfRunInput, PerfStatus } from "@/server/contracts/perf";
import { db, type Prisma } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { inspectLoadScript, LoadInputError, type RunPlan } from "@/server/perf/k6/plan";
import type { Actor } from "@/server/auth/actor";
import type { NamespaceScope } from "../namespace-access";
import { createTestRun } from "../tester/test-runs";
import { transaction } from "../tester/access";
import { endParts, finalizeIfDone } from "./run-parts";
import { localConcurrency, localRunsInProgress, runLocally, stopLocalRun } from "./local-runs";
import { dispatchToRunners, runnersAvailable } from "./runner-queue";

export interface StartPerfRun extends Omit<PerfRunInput, "name"> {
  name?: string;
  /** Set when the script was generated from collections. */
  collectionIds?: string[];
  environmentId?: string | null;
  /** Runner agents only (POST /runner-tasks): never run in the web process. */
  requireRunners?: boolean;
}

export interface PerfRunStartedView {
  id: string;
  status: PerfStatus;
  taskId: string;
}

/** The web process runs at most this many VUs itself; larger runs need a runner agent. */
export function localMaxVus(): number {
  const n = Number(process.env.PERF_LOCAL_MAX_VUS);
  return Number.isInteger(n) && n > 0 ? n : 200;
}

/** A LoadInputError as the API's 400, naming the field and, for the script, the line and column. */
export function loadInputProblem(e: LoadInputError): AppError {
  const { field, line, column, module } = e.location;
  return new AppError("validation", e.message, { details: [{ path: field, message: e.message, ...(line ? { line, column } : {}), ...(module ? { module } : {}) }] });
}

/** Compiles the script and reads its plan; a 400 for anything the run would refuse. */
export async function planOrProblem(input: { script: string; options?: Record<string, unknown>; environment?: Record<string, string>; files?: Record<string, string> }): Promise<RunPlan> {
  try {
    return await inspectLoadScript({ source: input.script, options: input.options, env: input.environment, files: input.files });
  } catch (e) {
    if (e instanceof LoadInputError) throw loadInputProblem(e);
    throw e;
  }
}

export async function startPerfRun(actor: Actor, scope: NamespaceScope, input: StartPerfRun): Promise<PerfRunStartedView> {
  const plan = await planOrProblem(input);
  if (input.configId) {
    const config = await db().perfConfig.findFirst({ where: { id: input.configId, namespaceId: scope.id }, select: { id: true } });
    if (!config) throw new AppError("not_found", `Performance config '${input.configId}' not found in namespace '${scope.name}'`);
  }
  const onRunners = input.runnerId !== undefined || input.requireRunners === true || (await runnersAvailable(scope));
  if (!onRunners && plan.maxVus > localMaxVus()) {
    throw new AppError("unavailable", `This run needs up to ${plan.maxVus} VUs; the web process runs at most ${localMaxVus()} itself. Register a runner agent (npx polymock runner) or lower the VUs.`);
  }

  if (!onRunners && localRunsInProgress() >= localConcurrency()) {
    throw new AppError("conflict", `${localRunsInProgress()} load runs are already running in the web process; wait for one to end, or register a runner agent (npx polymock runner)`);
  }

  const id = randomUUID();
  const name = input.name ?? "Load test";
  await transaction(async (tx) => {
    await createTestRun(scope, { name, mode: "load", status: "queued", referenceId: input.configId ?? null, collectionIds: input.collectionIds ?? [], environmentId: input.environmentId ?? null, createdBy: actor.user.username, options: plan.options, id }, tx);
    await tx.perfResult.create({
      data: {
        id,
        namespaceId: scope.id,
        configId: input.configId ?? null,
        runGroupId: id,
        name,
        status: "queued",
        script: input.script,
        options: (input.options ?? {}) as Prisma.InputJsonValue,
        envNames: Object.keys(input.environment ?? {}),
        createdBy: actor.user.username,
      },
    });
  });

  if (onRunners) {
    try {
      const { taskId } = await dispatchToRunners(scope, { resultId: id, plan, preferredRunnerId: input.runnerId, createdBy: actor.user.username, configId: input.configId ?? null, environment: input.environment, files: input.files });
      await db().perfResult.update({ where: { id }, data: { taskId } });
      return { id, status: "queued", taskId };
    } catch (e) {
      // Nothing was queued: the stored run must not linger as "queued".
      await db().testRun.delete({ where: { id } });
      throw e;
    }
  }
  const part = await db().perfRunPart.create({ data: { resultId: id, index: 0, count: 1 }, select: { id: true } });
  runLocally({ resultId: id, partId: part.id, namespace: scope.name, source: input.script, options: input.options, env: input.environment, files: input.files });
  return { id, status: "queued", taskId: id };
}

/** Stops a run (by its id or its runner task's id): within a second, its partial results kept. */
export async function stopPerfRun(scope: NamespaceScope, taskId: string): Promise<{ id: string; status: PerfStatus }> {
  const result = await db().perfResult.findFirst({ where: { namespaceId: scope.id, OR: [{ id: taskId }, { taskId }] }, select: { id: true, status: true } });
  if (!result) throw new AppError("not_found", `Load run or task '${taskId}' not found in namespace '${scope.name}'`);
  if (result.status !== "queued" && result.status !== "running") throw new AppError("conflict", `The run has already ended (${result.status})`);
  await db().perfResult.update({ where: { id: result.id }, data: { stopRequested: true } });
  await db().testRun.update({ where: { id: result.id }, data: { cancelRequested: true } });
  stopLocalRun(result.id);
  // Parts no runner has taken yet end now; running ones stop at their next report.
  await endParts(result.id, "cancelled", "stopped by the user before it started", { status: "queued" });
  await finalizeIfDone(result.id);
  const now = await db().perfResult.findUniqueOrThrow({ where: { id: result.id }, select: { status: true } });
  return { id: result.id, status: now.status as PerfStatus };
}
