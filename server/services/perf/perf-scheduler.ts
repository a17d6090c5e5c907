// Load-test schedules as a kind of the web process's scheduler
// (services/tester/scheduler.ts: claim by compare-and-set on nextRunAt, one
// catch-up run within the grace window, a controllable clock). An occurrence
// checks, as the user the schedule runs as, that they may still write in the
// namespace and that the config is there, then starts the config's run; a
// refusal is recorded on the schedule instead (lastError, "not run").
import { db, type PerfSchedule } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { ownerAccess, verifyingAccess } from "../tester/schedules";
import type { ScheduleKind } from "../tester/scheduler";
import { runPerfConfig } from "./configs";

async function notRun(row: PerfSchedule, occurrence: Date, err: unknown) {
  const reason = `not run at ${occurrence.toISOString()}: ${(err as Error).message}`;
  // A database that cannot be reached leaves no trace; the next occurrence tries again.
  if (err instanceof AppError && err.code !== "unavailable") {
    await db().perfSchedule.updateMany({ where: { id: row.id }, data: { lastError: reason, lastStatus: "not run" } });
  }
  return { runId: null, error: reason };
}

/** One occurrence: access as the schedule's user, then the config's run (or why not). */
export async function runPerfOccurrence(row: PerfSchedule, occurrence: Date): Promise<{ runId: string | null; error: string | null }> {
  let access: Awaited<ReturnType<typeof ownerAccess>>;
  try {
    if (!row.createdBy) throw new AppError("forbidden", "the schedule has no user to run as; save it again to run it as yourself");
    access = await verifyingAccess(() => ownerAccess({ ownerId: row.createdBy!, namespaceId: row.namespaceId }));
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    return notRun(row, occurrence, err);
  }
  try {
    const started = await runPerfConfig(access.actor, access.scope, row.configId);
    await db().perfSchedule.updateMany({ where: { id: row.id }, data: { lastRunAt: occurrence, lastResultId: started.id, lastStatus: started.status, lastError: null } });
    return { runId: started.id, error: null };
  } catch (err) {
    // Refused before the run existed: the config is gone, the web process is busy, no runner can take it.
    if (!(err instanceof AppError)) throw err;
    return notRun(row, occurrence, err);
  }
}

export const perfSchedules: ScheduleKind<PerfSchedule> = {
  due: (now, take) => db().perfSchedule.findMany({ where: { enabled: true, nextRunAt: { lte: now } }, orderBy: { nextRunAt: "asc" }, take }),
  async claim(row, next, skipped) {
    const { count } = await db().perfSchedule.updateMany({
      where: { id: row.id, enabled: true, nextRunAt: row.nextRunAt },
      data: { nextRunAt: next, ...(skipped ? { lastError: skipped, lastStatus: "skipped" } : {}) },
    });
    return count === 1;
  },
  run: runPerfOccurrence,
};
