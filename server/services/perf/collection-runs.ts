// Load tests of collections: `perf/run-collection` (asynchronous, like
// perf/run) and the API tester's `execute-perf` (the spec's rules: a local
// run answers the completed test run, or streams it with useSSE; a run queued
// for runner agents answers 202; a runner or CI selection without an
// execution service is 503; isDebug keeps nothing in the history).
import type { Actor } from "@/server/auth/actor";
import type { ExecutePerfInput, RunCollectionInput } from "@/server/contracts/perf-collection-endpoints";
import type { TestRunDetail } from "@/server/contracts/tester-run";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { sseResponse } from "@/server/lib/sse-response";
import type { NamespaceScope } from "../namespace-access";
import { getTestRun } from "../tester/test-runs";
import { type PerfRunStartedView, startPerfRun } from "./runs";
import { collectionsToLoadScript } from "./scripts";
import { watchPerfRun } from "./watch-run";

async function startCollectionRun(actor: Actor, scope: NamespaceScope, input: RunCollectionInput): Promise<PerfRunStartedView> {
  const generated = await collectionsToLoadScript(actor, scope, {
    collectionIds: input.collectionIds,
    environmentId: input.environmentId,
    environmentVariables: input.environmentVariables,
    perfOptions: input.perfOptions,
  });
  const collections = await db().testerCollection.findMany({ where: { id: { in: generated.collectionIds } }, select: { id: true, name: true } });
  const name = input.name ?? (collections.length === 1 ? `Load: ${collections[0].name}` : `Load: ${collections.length} collections`);
  return startPerfRun(actor, scope, {
    script: generated.script,
    name,
    environment: generated.env,
    configId: input.configId,
    runnerId: input.runnerId,
    collectionIds: generated.collectionIds,
    environmentId: generated.environmentId,
  });
}

export function runCollectionLoad(actor: Actor, scope: NamespaceScope, input: RunCollectionInput): Promise<PerfRunStartedView> {
  return startCollectionRun(actor, scope, input);
}

const queued = (started: PerfRunStartedView) => Response.json({ id: started.id, taskId: started.taskId, status: "queued" }, { status: 202 });

async function forget(scope: NamespaceScope, id: string): Promise<void> {
  await db().testRun.deleteMany({ where: { id, namespaceId: scope.id } });
}

export async function executePerf(actor: Actor, scope: NamespaceScope, input: ExecutePerfInput): Promise<TestRunDetail | Response> {
  if (input.ciTriggerId !== undefined) {
    throw new AppError("unavailable", `CI trigger '${input.ciTriggerId}' has no execution service: no CI integration is configured on this server`);
  }
  const started = await startCollectionRun(actor, scope, input);
  // A local run's task is the run itself; a runner task has an id of its own.
  if (started.taskId !== started.id) return queued(started);

  const finish = async (): Promise<TestRunDetail> => {
    const detail = await getTestRun(scope, started.id);
    if (input.isDebug) await forget(scope, started.id);
    return detail;
  };
  if (input.useSSE) {
    return sseResponse(
      async (send) => {
        send("started", { id: started.id, status: started.status });
        await watchPerfRun(started.id, {
          onStatus: (status) => send("status", { status }),
          onPoints: (points) => points.forEach((p) => send("progress", p)),
        });
        const result = await db().perfResult.findUnique({ where: { id: started.id }, select: { summaryText: true, thresholds: true, status: true, reason: true } });
        send("finished", { testRun: await finish(), result });
      },
      (err) => ({ error: err instanceof AppError ? err.message : "the load run failed", code: err instanceof AppError ? err.code : "internal" }),
    );
  }
  await watchPerfRun(started.id);
  return finish();
}
