// Collection runs (mode functional): load the collections and the
// environment, create the test run, run it with the pure runner, store the
// results in batches as they come (so a crash loses at most a second of
// them), answer the finished run or stream it as server-sent events. A
// cancel — asked through the API in any process — stops the run within a
// second: this process aborts at once, others see the flag on their poll.
import type { Actor } from "@/server/auth/actor";
import type { ExecuteCollectionInput, ExecuteMultipleInput } from "@/server/contracts/tester-execute-endpoints";
import type { RunRequestResult, TestRunDetail, TestRunSummary } from "@/server/contracts/tester-run";
import { AppError, errors } from "@/server/errors";
import { logger } from "@/server/lib/logger";
import { sseResponse } from "@/server/lib/sse-response";
import { runCollections, type RunCollection, type RunEvent } from "@/server/tester/collection-runner";
import { DataFileError, parseDataFile } from "@/server/tester/data-file";
import { countResults, runStatusFrom } from "@/server/tester/run-counts";
import { emptyScopes } from "@/server/tester/scopes";
import type { NamespaceScope } from "../namespace-access";
import { loadCollectionForRun, type CollectionForRun } from "./collection-tree";
import { collectionSecrets, collectionVariables, resolveEnvironment } from "./execution-context";
import { persistScriptVariables } from "./persist-variables";
import { appendRunResults, createTestRun, finishTestRun, type FinalRunStatus, getTestRun, heartbeatRun, isCancelRequested, markRunStarted, requestCancel, RUN_HEARTBEAT_INTERVAL_MS, updateRunProgress } from "./test-runs";

const CANCEL_POLL_MS = 500;
const FLUSH_MS = 1000;
const FLUSH_RESULTS = 100;

/** Runs executing in this process, so a cancel here stops them without waiting for the poll. */
const local = new Map<string, AbortController>();

type RunInput = Omit<ExecuteCollectionInput, "requestIds">;
export interface Selection {
  collectionId: string;
  requestIds?: string[];
}

function iterationData(data: RunInput["data"]) {
  if (data === undefined) return undefined;
  try {
    // Newman casts CSV numbers and booleans; collections moved from Postman rely on it.
    return parseDataFile(data, { csvValues: "newman" });
  } catch (err) {
    if (err instanceof DataFileError) {
      throw errors.validation(`The data file is not usable: ${err.message}`, [{ location: "body", field: "data", message: err.message, ...(err.row !== undefined ? { row: err.row } : {}), ...(err.line !== undefined ? { line: err.line } : {}) }]);
    }
    throw err;
  }
}

function toRunCollection(c: CollectionForRun, requestIds?: string[]): RunCollection {
  if (requestIds) {
    const known = new Set(c.requests.map((r) => r.id));
    const unknown = requestIds.find((id) => !known.has(id));
    if (unknown) throw errors.validation(`Request '${unknown}' is not in collection '${c.name}'`, [{ location: "body", field: "requestIds", message: `${unknown} is not in ${c.id}` }]);
  }
  return { id: c.id, name: c.name, auth: c.auth, scripts: c.scripts, variables: collectionVariables(c), folders: c.folders, requests: c.requests, requestIds };
}

export function executeCollection(actor: Actor, scope: NamespaceScope, id: string, input: ExecuteCollectionInput) {
  return executeSelections(actor, scope, [{ collectionId: id, requestIds: input.requestIds }], input);
}

export function executeMultiple(actor: Actor, scope: NamespaceScope, input: ExecuteMultipleInput) {
  const selections = input.collectionIds.map((s) => (typeof s === "string" ? { collectionId: s } : s));
  return executeSelections(actor, scope, selections, input);
}

/** Who or what started a run besides the caller: a saved test or a schedule (referenceId), and a hook once the run row exists. */
export interface RunOrigin {
  referenceId?: string;
  trigger?: "manual" | "test" | "schedule";
  /** Username kept on the run; null for a schedule's occurrence. */
  createdBy?: string | null;
  onCreated?: (run: TestRunSummary) => void | Promise<void>;
}

/** A saved run configuration (standalone test, schedule) run like execute-multiple. */
export function executeConfiguredRun(actor: Actor, scope: NamespaceScope, selections: Selection[], input: RunInput, origin: RunOrigin) {
  return executeSelections(actor, scope, selections, input, origin);
}

async function executeSelections(actor: Actor, scope: NamespaceScope, selections: Selection[], input: RunInput, origin: RunOrigin = {}): Promise<TestRunDetail | Response> {
  // Everything that can be refused is checked before the run exists: no half-made runs.
  const loaded = await Promise.all(selections.map((s) => loadCollectionForRun(scope, s.collectionId)));
  const collections = loaded.map((c, i) => toRunCollection(c, selections[i].requestIds));
  const data = iterationData(input.data);
  const environment = await resolveEnvironment(actor, scope, input);
  const iterations = Math.max(1, input.iterations ?? (data?.length || 1));
  const run = await createTestRun(scope, {
    name: input.name ?? (loaded.length === 1 ? loaded[0].name : `${loaded.length} collections`),
    mode: "functional",
    status: "queued",
    collectionIds: loaded.map((c) => c.id),
    environmentId: environment.id,
    iterations,
    options: { delayMs: input.delayMs, bail: input.bail, dataRows: data?.length ?? 0, persistVariables: input.persistVariables, trigger: origin.trigger ?? "manual" },
    referenceId: origin.referenceId ?? null,
    createdBy: origin.createdBy !== undefined ? origin.createdBy : actor.user.username,
  });
  await origin.onCreated?.(run);
  const execute = (onEvent: (e: RunEvent | { type: "started"; runId: string }) => void) =>
    performRun(actor, scope, run.id, collections, loaded, environment, { ...input, iterations }, data, onEvent);
  if (input.useSSE) {
    return sseResponse(
      async (send) => {
        send("started", { id: run.id, name: run.name, iterations, total: collections.reduce((n, c) => n + (c.requestIds?.length ?? c.requests.length), 0) * iterations });
        const detail = await execute((e) => {
          if (e.type === "result") send("result", e.result);
          else if (e.type === "request") send("progress", { iteration: e.iteration, index: e.index, total: e.total, name: e.name });
          else if (e.type === "iteration") send("iteration", { iteration: e.iteration, iterationCount: e.iterationCount });
        });
        send("finished", detail);
      },
      (err) => ({ error: err instanceof AppError ? err.message : "the run failed", code: err instanceof AppError ? err.code : "internal" }),
    );
  }
  return execute(() => {});
}

async function performRun(
  actor: Actor,
  scope: NamespaceScope,
  runId: string,
  collections: RunCollection[],
  loaded: CollectionForRun[],
  environment: Awaited<ReturnType<typeof resolveEnvironment>>,
  input: RunInput & { iterations: number },
  data: Record<string, unknown>[] | undefined,
  onEvent: (e: RunEvent) => void,
): Promise<TestRunDetail> {
  if (!(await markRunStarted(runId))) return getTestRun(scope, runId); // cancelled before it began
  const controller = new AbortController();
  local.set(runId, controller);
  const results: RunRequestResult[] = [];
  let pending: RunRequestResult[] = [];
  let lastFlush = Date.now();
  let flushing = Promise.resolve();
  const flush = () => {
    if (!pending.length) return flushing;
    const batch = pending;
    pending = [];
    lastFlush = Date.now();
    flushing = flushing.then(async () => {
      await appendRunResults(runId, batch);
      const { cancelRequested } = await updateRunProgress(runId, countResults(results));
      if (cancelRequested) controller.abort();
    });
    return flushing;
  };
  const poll = setInterval(() => {
    isCancelRequested(runId)
      .then((yes) => yes && controller.abort())
      .catch(() => {});
  }, CANCEL_POLL_MS);
  const beat = setInterval(() => void heartbeatRun(runId).catch(() => {}), RUN_HEARTBEAT_INTERVAL_MS);
  const scopes = emptyScopes();
  scopes.environment = { ...environment.values };
  try {
    const outcome = await runCollections(
      collections,
      scopes,
      {
        iterations: input.iterations,
        data,
        delayMs: input.delayMs,
        bail: input.bail,
        signal: controller.signal,
        secrets: [...environment.secretValues, ...loaded.flatMap(collectionSecrets)],
      },
      (e) => {
        if (e.type === "result") {
          results.push(e.result);
          pending.push(e.result);
          if (pending.length >= FLUSH_RESULTS || Date.now() - lastFlush >= FLUSH_MS) void flush().catch((err) => logger().warn({ err, runId }, "storing run results failed"));
        }
        onEvent(e);
      },
    );
    await flush();
    if (input.persistVariables && !outcome.cancelled) {
      const before = emptyScopes();
      before.environment = { ...environment.values };
      const after = { ...outcome.scopes, collection: {} };
      await persistScriptVariables(actor, scope, { environment, collection: null, environmentOverridden: environment.overridden }, before, after);
    }
    const counts = countResults(results);
    const status = runStatusFrom(counts, { cancelled: outcome.cancelled }) as FinalRunStatus;
    const reason = outcome.cancelled ? "cancelled" : outcome.bailed ? "stopped at the first failure (bail)" : outcome.stopReason;
    await finishTestRun(runId, status, counts, reason);
  } catch (err) {
    await flush().catch(() => {});
    await finishTestRun(runId, "error", countResults(results), `the run stopped: ${(err as Error).message}`).catch(() => {});
    logger().error({ err, runId }, "collection run failed");
  } finally {
    clearInterval(poll);
    clearInterval(beat);
    local.delete(runId);
  }
  return getTestRun(scope, runId);
}

export async function cancelTestRun(scope: NamespaceScope, id: string) {
  const summary = await requestCancel(scope, id);
  local.get(id)?.abort();
  return summary;
}
