// The life of a load run's parts, whoever runs them (the web process or a
// runner agent): progress reports, the final report, the sweep that marks a
// silent part lost, and the finalisation that merges the parts into the
// result and ends its test run. Reports carry cumulative snapshots and a
// sequence number: a report applied twice, or out of order, changes nothing,
// so a request is counted exactly once.
import type { PartialSnapshot, SeriesPoint } from "@/server/perf/k6/engine";
import { type MergedRun, mergeRunParts, type PartStatus, type RunPart } from "@/server/perf/merge";
import type { PerfStatus } from "@/server/contracts/perf";
import type { RunCounts, RunStatus } from "@/server/contracts/tester-run";
import { db, type Prisma } from "@/server/db/client";
import { logger } from "@/server/lib/logger";
import { finishTestRun, markRunStarted } from "../tester/test-runs";

/** A part that has not reported for this long is lost (its runner or process died). */
export const PART_STALE_AFTER_MS = 15_000;
export const FINAL_PART_STATUSES = ["passed", "failed", "aborted", "stopped", "lost", "cancelled", "error"] as const;
const MAX_LOGS_PER_PART = 1000;

export interface PartSnapshotExtras {
  /** handleSummary()'s outputs (a single part only; they cannot be merged). */
  handleSummary?: Record<string, string>;
}
type StoredSnapshot = PartialSnapshot & PartSnapshotExtras;

export interface ProgressReport {
  seq: number;
  /** New points since the last report. */
  points: SeriesPoint[];
  snapshot?: PartialSnapshot;
  thresholds?: { key: string; source: string }[];
  logs?: string[];
}

export interface FinalReport {
  status: Exclude<PartStatus, "lost" | "cancelled"> | "error";
  reason?: string;
  snapshot?: StoredSnapshot;
  /** The whole series of the part (replaces what the progress reports built). */
  series?: SeriesPoint[];
  thresholds?: { key: string; source: string }[];
  logs?: string[];
}

const isFinal = (s: string) => (FINAL_PART_STATUSES as readonly string[]).includes(s);

/** Marks the part running (and its result and test run, the first time). */
export async function markPartStarted(partId: string, runnerId: string | null): Promise<void> {
  const now = new Date();
  const part = await db().perfRunPart.update({ where: { id: partId }, data: { status: "running", runnerId, startedAt: now, heartbeatAt: now }, select: { resultId: true } });
  const { count } = await db().perfResult.updateMany({ where: { id: part.resultId, status: "queued" }, data: { status: "running", startedAt: now } });
  if (count) await markRunStarted(part.resultId);
}

/** Applies a progress report; answers whether the run was asked to stop. */
export async function recordPartProgress(partId: string, report: ProgressReport): Promise<{ stop: boolean }> {
  const part = await db().perfRunPart.findUnique({ where: { id: partId }, select: { seq: true, status: true, result: { select: { stopRequested: true } } } });
  if (!part) return { stop: true };
  if (isFinal(part.status)) return { stop: true };
  if (report.seq > part.seq) {
    // Appends in SQL: the series grows by a point a second and is not rewritten whole.
    const points = JSON.stringify(report.points);
    const logs = JSON.stringify((report.logs ?? []).slice(0, MAX_LOGS_PER_PART));
    await db().$executeRaw`
      UPDATE "PerfRunPart" SET
        seq = ${report.seq},
        series = series || ${points}::jsonb,
        logs = CASE WHEN jsonb_array_length(logs) < ${MAX_LOGS_PER_PART} THEN logs || ${logs}::jsonb ELSE logs END,
        snapshot = COALESCE(${report.snapshot ? JSON.stringify(report.snapshot) : null}::jsonb, snapshot),
        thresholds = COALESCE(${report.thresholds ? JSON.stringify(report.thresholds) : null}::jsonb, thresholds),
        "heartbeatAt" = now()
      WHERE id = ${partId}::uuid AND seq < ${report.seq}`;
  } else {
    await db().perfRunPart.update({ where: { id: partId }, data: { heartbeatAt: new Date() } });
  }
  return { stop: part.result.stopRequested };
}

/** The part's last word; the result is finalised when it was the last part running. */
export async function finishPart(partId: string, report: FinalReport): Promise<void> {
  const data: Prisma.PerfRunPartUpdateManyMutationInput = {
    status: report.status,
    reason: report.reason?.slice(0, 2000) ?? null,
    finishedAt: new Date(),
    heartbeatAt: new Date(),
  };
  if (report.snapshot) data.snapshot = report.snapshot as unknown as Prisma.InputJsonValue;
  if (report.series) data.series = report.series as unknown as Prisma.InputJsonValue;
  if (report.thresholds) data.thresholds = report.thresholds as unknown as Prisma.InputJsonValue;
  if (report.logs) data.logs = report.logs.slice(0, MAX_LOGS_PER_PART) as unknown as Prisma.InputJsonValue;
  const { count } = await db().perfRunPart.updateMany({ where: { id: partId, status: { notIn: [...FINAL_PART_STATUSES] } }, data });
  if (!count) return;
  const part = await db().perfRunPart.findUniqueOrThrow({ where: { id: partId }, select: { resultId: true } });
  await finalizeIfDone(part.resultId);
}

/**
 * Ends parts that will never report again: queued ones of a stopped run
 * (cancelled), silent running ones (lost), queued ones no runner will ever
 * start (error: they could not run).
 */
export async function endParts(resultId: string, status: "cancelled" | "lost" | "error", reason: string, where: Prisma.PerfRunPartWhereInput = {}): Promise<number> {
  const { count } = await db().perfRunPart.updateMany({ where: { resultId, status: { notIn: [...FINAL_PART_STATUSES] }, ...where }, data: { status, reason, finishedAt: new Date() } });
  await finalizeIfDone(resultId);
  return count;
}

/** Marks running parts that stopped reporting as lost; returns how many. Called every few seconds by the web process. */
export async function sweepLostParts(now = new Date()): Promise<number> {
  const threshold = new Date(now.getTime() - PART_STALE_AFTER_MS);
  const stale = await db().perfRunPart.findMany({ where: { status: "running", heartbeatAt: { lt: threshold } }, select: { id: true, resultId: true, runnerId: true } });
  for (const p of stale) {
    const who = p.runnerId ? `runner ${p.runnerId}` : "the web process running it";
    await endParts(p.resultId, "lost", `${who} stopped reporting for ${PART_STALE_AFTER_MS / 1000} s`, { id: p.id, status: "running", heartbeatAt: { lt: threshold } });
  }
  return stale.length;
}

function runPartOf(p: { status: string; reason: string | null; snapshot: unknown; series: unknown; thresholds: unknown; logs: unknown }): RunPart {
  return {
    status: (p.status === "error" ? "failed" : p.status) as PartStatus,
    reason: p.reason ?? undefined,
    snapshot: (p.snapshot as StoredSnapshot | null) ?? undefined,
    series: (p.series as SeriesPoint[]) ?? [],
    thresholds: (p.thresholds as { key: string; source: string }[]) ?? [],
    logs: (p.logs as string[]) ?? [],
  };
}

/** The merge of a result's parts as they stand (live while running, final after). */
export async function mergedPartsOf(resultId: string): Promise<MergedRun> {
  const parts = await db().perfRunPart.findMany({ where: { resultId }, orderBy: { index: "asc" } });
  return mergeRunParts(parts.map(runPartOf));
}

function testRunStatus(s: PerfStatus): RunStatus {
  switch (s) {
    case "stopped":
      return "cancelled";
    case "aborted":
      return "failed";
    case "queued":
    case "running":
      return "error";
    default:
      return s;
  }
}

/** A load run in the test runs' terms: requests and their failures, checks as tests. */
export function loadRunCounts(merged: Pick<MergedRun, "summary">): RunCounts {
  const m = merged.summary.metrics;
  const requests = m.http_reqs?.values.count ?? 0;
  const failedRequests = m.http_req_failed?.values.passes ?? 0;
  const passedTests = m.checks?.values.passes ?? 0;
  const failedTests = m.checks?.values.fails ?? 0;
  return { requests, passedRequests: requests - failedRequests, failedRequests, skippedRequests: 0, tests: passedTests + failedTests, passedTests, failedTests, skippedTests: 0 };
}

/** When every part has ended: merges them into the result (once) and ends the test run. */
export async function finalizeIfDone(resultId: string): Promise<void> {
  const parts = await db().perfRunPart.findMany({ where: { resultId }, orderBy: { index: "asc" } });
  if (!parts.length || parts.some((p) => !isFinal(p.status))) return;
  const merged = mergeRunParts(parts.map(runPartOf));
  let status: PerfStatus = merged.status;
  let reason = merged.reason;
  if (parts.every((p) => p.status === "error")) {
    status = "error";
    reason = parts[0].reason ?? "the run could not start";
  } else if (parts.every((p) => p.status === "cancelled")) {
    status = "stopped";
    reason = "stopped before it started";
  }
  const handleSummary = parts.length === 1 ? ((parts[0].snapshot as StoredSnapshot | null)?.handleSummary ?? null) : null;
  const now = new Date();
  const { count } = await db().perfResult.updateMany({
    where: { id: resultId, status: { in: ["queued", "running"] } },
    data: {
      status,
      reason: reason?.slice(0, 2000) ?? null,
      summary: merged.summary as unknown as Prisma.InputJsonValue,
      summaryText: merged.summaryText,
      thresholds: merged.thresholds as unknown as Prisma.InputJsonValue,
      series: merged.series as unknown as Prisma.InputJsonValue,
      errors: merged.errors as unknown as Prisma.InputJsonValue,
      logs: merged.logs as unknown as Prisma.InputJsonValue,
      metrics: merged.metrics as unknown as Prisma.InputJsonValue,
      handleSummary: handleSummary ?? undefined,
      finishedAt: now,
    },
  });
  if (!count) return;
  await finishTestRun(resultId, testRunStatus(status) as Exclude<RunStatus, "queued" | "running">, loadRunCounts(merged), reason ?? null);
  const result = await db().perfResult.findUnique({ where: { id: resultId }, select: { taskId: true } });
  if (result?.taskId) {
    const taskStatus = status === "passed" || status === "failed" || status === "aborted" ? "completed" : status === "stopped" ? "cancelled" : "failed";
    await db().runnerTask.updateMany({ where: { id: result.taskId, status: { in: ["queued", "running"] } }, data: { status: taskStatus, finishedAt: now, error: status === "error" ? reason : null } });
  }
  logger().info({ resultId, status }, "load run finished");
}
