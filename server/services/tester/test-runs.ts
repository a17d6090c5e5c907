// Stored test runs of every mode and their per-request results: what the API
// lists and shows, and the functions the run executor writes through.
//
// Liveness rule (docs/decisions.md, "API tester: data"): the process running
// a run refreshes its heartbeat (appendRunResults, updateRunProgress and
// heartbeatRun do) at least every RUN_HEARTBEAT_INTERVAL_MS. A queued or
// running run whose heartbeat (or, before the first one, creation) is older
// than RUN_STALE_AFTER_MS is marked failed with INTERRUPTED_REASON by
// reapStaleRuns, which every read of runs calls first: after a restart, or
// with several web processes where none knows what another runs, no run
// stays "running" for ever, and no process has to be the one that reaps.
import type { z } from "zod";
import type { TestRunListQuery } from "@/server/contracts/api-tester";
import { RunCounts, RunRequestResult, type RunStatus, type TestRunDetail, type TestRunSummary } from "@/server/contracts/tester-run";
import { db, type Prisma, type TestRun, type TestRunResult } from "@/server/db/client";
import { AppError } from "@/server/errors";
import type { NamespaceScope } from "../namespace-access";
import { transaction } from "./access";

export const RUN_HEARTBEAT_INTERVAL_MS = 10_000;
export const RUN_STALE_AFTER_MS = 60_000;
export const INTERRUPTED_REASON = "interrupted: the process running it stopped";
/** What a run whose process stopped becomes. */
export const INTERRUPTED_STATUS: RunStatus = "failed";
export const ACTIVE_RUN_STATUSES = ["queued", "running"] as const;
export const FINAL_RUN_STATUSES = ["passed", "failed", "cancelled", "error"] as const;
export type FinalRunStatus = (typeof FINAL_RUN_STATUSES)[number];
/** Results written per INSERT by appendRunResults. */
const RESULT_BATCH = 500;

type Row = TestRun & { namespace: { name: string } };
const withNamespace = { namespace: { select: { name: true } } } as const;

export function emptyCounts(): RunCounts {
  return { requests: 0, passedRequests: 0, failedRequests: 0, skippedRequests: 0, tests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 };
}

function countsOf(json: unknown): RunCounts {
  const parsed = RunCounts.safeParse(json);
  return parsed.success ? parsed.data : emptyCounts();
}

/** PostgreSQL text cannot hold U+0000. */
const storable = (text: string) => text.replaceAll("\0", "\uFFFD");

function summary(row: Row): TestRunSummary {
  return {
    id: row.id,
    namespace: row.namespace.name,
    name: row.name,
    mode: row.mode as TestRunSummary["mode"],
    status: row.status as RunStatus,
    referenceId: row.referenceId,
    collectionIds: row.collectionIds,
    environmentId: row.environmentId,
    iterations: row.iterations,
    counts: countsOf(row.counts),
    statusReason: row.statusReason,
    createdBy: row.createdBy,
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
    durationMs: row.durationMs,
    createdAt: row.createdAt.toISOString(),
    source: row.source as TestRunSummary["source"],
  };
}

function resultView(row: TestRunResult): RunRequestResult {
  return {
    iteration: row.iteration,
    collectionId: row.collectionId,
    requestId: row.requestId,
    name: row.name,
    path: row.path,
    method: row.method,
    url: row.url,
    status: row.status as RunRequestResult["status"],
    responseCode: row.responseCode,
    responseTimeMs: row.responseTimeMs,
    responseSize: row.responseSize,
    tests: (row.tests ?? []) as RunRequestResult["tests"],
    logs: (row.logs ?? []) as RunRequestResult["logs"],
    error: row.error,
    ...(row.scriptError ? { scriptError: row.scriptError as RunRequestResult["scriptError"] } : {}),
    startedAt: row.startedAt,
  };
}

function runNotFound(scope: NamespaceScope, id: string) {
  return new AppError("not_found", `Test run '${id}' not found in namespace '${scope.name}'`);
}

async function findRun(scope: NamespaceScope, id: string): Promise<Row> {
  const row = await db().testRun.findFirst({ where: { id, namespaceId: scope.id }, include: withNamespace });
  if (!row) throw runNotFound(scope, id);
  return row;
}

// ---- For the run executor (and the report import) --------------------------------

export interface CreateTestRunInput {
  /** Given when another row shares the run's id (a load run's result). */
  id?: string;
  name: string;
  mode?: TestRunSummary["mode"];
  /** queued (default) or running; an imported report is created in its final status. */
  status?: RunStatus;
  referenceId?: string | null;
  collectionIds?: string[];
  environmentId?: string | null;
  iterations?: number;
  options?: Record<string, unknown>;
  /** Username of who started it; null for a schedule. */
  createdBy?: string | null;
  source?: "run" | "import";
  counts?: RunCounts;
  statusReason?: string | null;
  startedAt?: Date | null;
  finishedAt?: Date | null;
  durationMs?: number | null;
}

export async function createTestRun(scope: NamespaceScope, input: CreateTestRunInput, client: Prisma.TransactionClient = db()): Promise<TestRunSummary> {
  const status = input.status ?? "queued";
  const now = new Date();
  const active = (ACTIVE_RUN_STATUSES as readonly string[]).includes(status);
  const row = await client.testRun.create({
    data: {
      id: input.id,
      namespaceId: scope.id,
      name: storable(input.name),
      mode: input.mode ?? "functional",
      status,
      referenceId: input.referenceId ?? null,
      collectionIds: input.collectionIds ?? [],
      environmentId: input.environmentId ?? null,
      iterations: input.iterations ?? 1,
      counts: (input.counts ?? emptyCounts()) as Prisma.InputJsonValue,
      statusReason: input.statusReason ?? null,
      source: input.source ?? "run",
      createdBy: input.createdBy ?? null,
      options: (input.options ?? {}) as Prisma.InputJsonValue,
      startedAt: input.startedAt !== undefined ? input.startedAt : status === "running" ? now : null,
      finishedAt: input.finishedAt ?? null,
      durationMs: input.durationMs ?? null,
      heartbeatAt: active ? now : null,
    },
    include: withNamespace,
  });
  return summary(row);
}

/** queued → running. False when the run is no longer queued (cancelled meanwhile, or reaped): the executor must not run it. */
export async function markRunStarted(runId: string): Promise<boolean> {
  const now = new Date();
  const { count } = await db().testRun.updateMany({ where: { id: runId, status: "queued" }, data: { status: "running", startedAt: now, heartbeatAt: now } });
  return count === 1;
}

/**
 * Appends results after those already stored (seq continues), in batches,
 * in one transaction that also refreshes the heartbeat. Results of a run
 * that is gone are dropped (it was deleted meanwhile): returns 0 then.
 */
export async function appendRunResults(runId: string, results: RunRequestResult[]): Promise<number> {
  const checked = results.map((r) => RunRequestResult.parse(r));
  return transaction(async (tx) => {
    // The row lock orders concurrent appends to one run, so seq numbers never collide.
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM "TestRun" WHERE id = ${runId}::uuid FOR UPDATE`;
    if (locked.length === 0) return 0;
    const { _max } = await tx.testRunResult.aggregate({ where: { runId }, _max: { seq: true } });
    let seq = (_max.seq ?? -1) + 1;
    for (let i = 0; i < checked.length; i += RESULT_BATCH) {
      await tx.testRunResult.createMany({
        data: checked.slice(i, i + RESULT_BATCH).map((r) => ({
          runId,
          seq: seq++,
          iteration: r.iteration,
          collectionId: r.collectionId,
          requestId: r.requestId,
          name: storable(r.name),
          path: r.path.map(storable),
          method: storable(r.method),
          url: storable(r.url),
          status: r.status,
          responseCode: r.responseCode,
          responseTimeMs: r.responseTimeMs,
          responseSize: r.responseSize,
          tests: r.tests as Prisma.InputJsonValue,
          logs: r.logs as Prisma.InputJsonValue,
          error: r.error === null ? null : storable(r.error),
          ...(r.scriptError ? { scriptError: r.scriptError as Prisma.InputJsonValue } : {}),
          startedAt: storable(r.startedAt),
        })),
      });
    }
    await tx.testRun.updateMany({ where: { id: runId, status: { in: [...ACTIVE_RUN_STATUSES] } }, data: { heartbeatAt: new Date() } });
    return checked.length;
  });
}

/** New counts and a heartbeat for a queued or running run; says whether a cancel was asked for. */
export async function updateRunProgress(runId: string, counts: RunCounts): Promise<{ cancelRequested: boolean }> {
  await db().testRun.updateMany({ where: { id: runId, status: { in: [...ACTIVE_RUN_STATUSES] } }, data: { counts: RunCounts.parse(counts) as Prisma.InputJsonValue, heartbeatAt: new Date() } });
  return { cancelRequested: await isCancelRequested(runId) };
}

/** The heartbeat alone (a long request between results); says whether a cancel was asked for. */
export async function heartbeatRun(runId: string): Promise<{ cancelRequested: boolean }> {
  await db().testRun.updateMany({ where: { id: runId, status: { in: [...ACTIVE_RUN_STATUSES] } }, data: { heartbeatAt: new Date() } });
  return { cancelRequested: await isCancelRequested(runId) };
}

/**
 * Ends a queued or running run: final status, counts, why (when the counts
 * do not say), finish time and duration. Null when the run had already ended
 * (reaped or cancelled before it started) or is gone: nothing is changed then.
 */
export async function finishTestRun(runId: string, status: FinalRunStatus, counts: RunCounts, reason?: string | null): Promise<TestRunSummary | null> {
  const row = await db().testRun.findUnique({ where: { id: runId }, select: { startedAt: true, createdAt: true } });
  if (!row) return null;
  const now = new Date();
  const { count } = await db().testRun.updateMany({
    where: { id: runId, status: { in: [...ACTIVE_RUN_STATUSES] } },
    data: {
      status,
      counts: RunCounts.parse(counts) as Prisma.InputJsonValue,
      statusReason: reason == null ? null : storable(reason),
      finishedAt: now,
      durationMs: now.getTime() - (row.startedAt ?? row.createdAt).getTime(),
      heartbeatAt: null,
    },
  });
  if (count === 0) return null;
  return summary(await db().testRun.findUniqueOrThrow({ where: { id: runId }, include: withNamespace }));
}

/**
 * Asks a run to stop. A running one gets the flag its executor polls
 * (isCancelRequested, or the answer of updateRunProgress/heartbeatRun); a
 * queued one, which nothing runs yet, ends cancelled at once (markRunStarted
 * then refuses it). 409 when the run has already ended.
 */
export async function requestCancel(scope: NamespaceScope, id: string): Promise<TestRunSummary> {
  const row = await findRun(scope, id);
  const now = new Date();
  const queued = await db().testRun.updateMany({
    where: { id, namespaceId: scope.id, status: "queued" },
    data: { status: "cancelled", cancelRequested: true, statusReason: "cancelled before it started", finishedAt: now, durationMs: 0, heartbeatAt: null },
  });
  if (queued.count === 0) {
    const running = await db().testRun.updateMany({ where: { id, namespaceId: scope.id, status: "running" }, data: { cancelRequested: true } });
    if (running.count === 0) {
      throw new AppError("conflict", `Test run '${id}' has already ended (${row.status})`, { details: [{ location: "path", field: "id", message: `the run is ${row.status}` }] });
    }
  }
  return summary(await findRun(scope, id));
}

export async function isCancelRequested(runId: string): Promise<boolean> {
  const row = await db().testRun.findUnique({ where: { id: runId }, select: { cancelRequested: true } });
  return row?.cancelRequested ?? false;
}

/**
 * Marks queued and running runs whose heartbeat is older than `olderThanMs`
 * as INTERRUPTED_STATUS with INTERRUPTED_REASON; returns their ids. Each is
 * ended by a conditional update, so a heartbeat that arrives meanwhile wins.
 */
export async function reapStaleRuns(olderThanMs: number = RUN_STALE_AFTER_MS): Promise<string[]> {
  const threshold = new Date(Date.now() - olderThanMs);
  const stale: Prisma.TestRunWhereInput = {
    status: { in: [...ACTIVE_RUN_STATUSES] },
    // Load runs wait in the runner queue and end through their parts' heartbeats (services/perf/run-parts.ts).
    mode: { not: "load" },
    OR: [{ heartbeatAt: { lt: threshold } }, { heartbeatAt: null, createdAt: { lt: threshold } }],
  };
  const rows = await db().testRun.findMany({ where: stale, select: { id: true, startedAt: true, createdAt: true } });
  const reaped: string[] = [];
  for (const row of rows) {
    const now = new Date();
    const { count } = await db().testRun.updateMany({
      where: { id: row.id, ...stale },
      data: { status: INTERRUPTED_STATUS, statusReason: INTERRUPTED_REASON, finishedAt: now, durationMs: now.getTime() - (row.startedAt ?? row.createdAt).getTime(), heartbeatAt: null },
    });
    if (count === 1) reaped.push(row.id);
  }
  return reaped;
}

// ---- For the API --------------------------------------------------------------------

export async function listTestRuns(scope: NamespaceScope, query: z.output<typeof TestRunListQuery>) {
  await reapStaleRuns();
  const where: Prisma.TestRunWhereInput = {
    namespaceId: scope.id,
    ...(query.mode ? { mode: query.mode } : {}),
    ...(query.referenceId ? { referenceId: query.referenceId } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
  const [rows, total] = await db().$transaction([
    db().testRun.findMany({ where, include: withNamespace, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: query.offset, take: query.limit }),
    db().testRun.count({ where }),
  ]);
  return { testRuns: rows.map(summary), total, limit: query.limit, offset: query.offset };
}

/** A run with every result in order: the run's detail and its report. */
export async function getTestRun(scope: NamespaceScope, id: string): Promise<TestRunDetail> {
  await reapStaleRuns();
  const row = await findRun(scope, id);
  const results = await db().testRunResult.findMany({ where: { runId: id }, orderBy: { seq: "asc" } });
  return { ...summary(row), results: results.map(resultView) };
}

export async function deleteTestRun(scope: NamespaceScope, id: string) {
  await reapStaleRuns();
  const row = await findRun(scope, id);
  const { count } = await db().testRun.deleteMany({ where: { id, namespaceId: scope.id, status: { notIn: [...ACTIVE_RUN_STATUSES] } } });
  if (count === 0) {
    throw new AppError("conflict", `Test run '${id}' is ${row.status}; cancel it before deleting it`, { details: [{ location: "path", field: "id", message: `the run is ${row.status}` }] });
  }
  return { ok: true as const };
}

/** Queued and running runs of every mode in the namespace, oldest first. */
export async function listActiveRuns(scope: NamespaceScope) {
  await reapStaleRuns();
  const rows = await db().testRun.findMany({ where: { namespaceId: scope.id, status: { in: [...ACTIVE_RUN_STATUSES] } }, include: withNamespace, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return { testRuns: rows.map(summary), count: rows.length };
}
