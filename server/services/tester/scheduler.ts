// The scheduler of the web process: finds due schedule occurrences and starts
// them, once across every web process sharing the database.
//
// Claim: an occurrence is taken by moving the schedule's nextRunAt from the
// due instant to the following one with a compare-and-set
// (UPDATE … WHERE id = $1 AND nextRunAt = $due AND enabled). Exactly one
// process's UPDATE matches; the others see zero rows and leave it. The claim
// is the lease: a process that dies between the claim and creating the run
// loses that one occurrence (at most once), it never runs twice.
//
// Missed occurrences (docs/decisions.md, "API tester: standalone tests and
// schedules"): when a schedule is found with nextRunAt in the past — the
// service was down — the newest occurrence within GRACE_MS of now runs once
// ("catch up once"); older ones are skipped and said so in lastError; a
// backlog never runs.
//
// The machinery is shared by every kind of schedule (API tester collection
// runs here, load tests in services/perf/perf-scheduler.ts): a ScheduleKind
// says where its due rows are, how its claim is written and what an
// occurrence runs.
import { nextOccurrence, occurrencesBetween } from "@/server/contracts/cron-schedule";
import { db, type TesterSchedule } from "@/server/db/client";
import { logger } from "@/server/lib/logger";
import { type Clock, runOccurrence, systemClock } from "./schedules";

export const GRACE_MS = 60 * 60 * 1000;
export const TICK_MS = 15_000;
const CLAIM_BATCH = 50;

export interface SchedulerClock extends Clock {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemSchedulerClock: SchedulerClock = {
  now: systemClock.now,
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface TickOutcome {
  scheduleId: string;
  occurrence: string | null;
  action: "dispatched" | "skipped" | "lost";
  runId?: string | null;
  error?: string | null;
}

interface Plan {
  run: Date | null;
  next: Date | null;
  skippedSince: Date | null;
}

/** What to do with a schedule found due at `now`. */
export function planOccurrence(row: Pick<DueSchedule, "cron" | "timezone" | "nextRunAt">, now: Date, graceMs = GRACE_MS): Plan {
  const due = row.nextRunAt!;
  const windowStart = new Date(Math.max(due.getTime() - 1, now.getTime() - graceMs));
  // Bounded: within one grace window a five-field cron has at most 60 occurrences per hour.
  const recent = occurrencesBetween(row.cron, row.timezone, windowStart, now, 10_000);
  const run = recent.at(-1) ?? null;
  const skippedSince = due.getTime() < now.getTime() - graceMs ? due : null;
  let next: Date | null = null;
  try {
    next = nextOccurrence(row.cron, row.timezone, now);
  } catch {}
  return { run, next, skippedSince };
}

/** The fields the claim and the catch-up rule read. */
export type DueSchedule = Pick<TesterSchedule, "id" | "cron" | "timezone" | "nextRunAt">;

/** One kind of schedule: its due rows, its compare-and-set claim and its occurrence. */
export interface ScheduleKind<Row extends DueSchedule = DueSchedule> {
  /** Enabled rows whose nextRunAt is at or before `now`, oldest first. */
  due(now: Date, take: number): Promise<Row[]>;
  /**
   * Moves nextRunAt from row.nextRunAt to `next` only if it is still
   * row.nextRunAt and the row is enabled; true when this process won. When
   * `skipped` is given (nothing runs), it is recorded as the row's last error.
   */
  claim(row: Row, next: Date | null, skipped: string | null): Promise<boolean>;
  /** Checks access as the schedule's owner and starts the run, or records why not. */
  run(row: Row, occurrence: Date): Promise<{ runId: string | null; error: string | null }>;
}

export const testerSchedules: ScheduleKind<TesterSchedule> = {
  due: (now, take) => db().testerSchedule.findMany({ where: { enabled: true, nextRunAt: { lte: now } }, orderBy: { nextRunAt: "asc" }, take }),
  async claim(row, next, skipped) {
    const { count } = await db().testerSchedule.updateMany({
      where: { id: row.id, enabled: true, nextRunAt: row.nextRunAt },
      data: { nextRunAt: next, ...(skipped ? { lastError: skipped, lastRunStatus: "skipped" } : {}) },
    });
    return count === 1;
  },
  run: runOccurrence,
};

export interface SchedulerOptions {
  clock?: SchedulerClock;
  tickMs?: number;
  graceMs?: number;
  /** The kinds of schedule it claims; the API tester's by default. */
  kinds?: ScheduleKind[];
}

export class Scheduler {
  private readonly clock: SchedulerClock;
  private readonly tickMs: number;
  private readonly graceMs: number;
  private readonly kinds: ScheduleKind[];
  private timer: unknown = null;
  private stopped = true;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(opts: SchedulerOptions = {}) {
    this.clock = opts.clock ?? systemSchedulerClock;
    this.tickMs = opts.tickMs ?? TICK_MS;
    this.graceMs = opts.graceMs ?? GRACE_MS;
    this.kinds = opts.kinds ?? [testerSchedules];
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.loop();
  }

  private loop() {
    if (this.stopped) return;
    this.tick()
      .catch((err) => logger().warn({ err }, "schedule tick failed"))
      .finally(() => {
        if (!this.stopped) this.timer = this.clock.setTimeout(() => this.loop(), this.tickMs);
      });
  }

  /** Stops claiming; waits for the runs it started. */
  async stop() {
    this.stopped = true;
    if (this.timer) this.clock.clearTimeout(this.timer);
    await Promise.allSettled([...this.inFlight]);
  }

  /** Claims every due occurrence and starts them; resolves once they are claimed (runs go on). */
  async tick(): Promise<TickOutcome[]> {
    const now = this.clock.now();
    const outcomes: TickOutcome[] = [];
    for (const kind of this.kinds) {
      for (const row of await kind.due(now, CLAIM_BATCH)) outcomes.push(await this.claim(kind, row, now));
    }
    return outcomes;
  }

  /** tick(), then waits for the runs it started: what tests drive. */
  async tickAndWait(): Promise<TickOutcome[]> {
    const outcomes = await this.tick();
    await Promise.allSettled([...this.inFlight]);
    return outcomes;
  }

  private async claim(kind: ScheduleKind, row: DueSchedule, now: Date): Promise<TickOutcome> {
    const plan = planOccurrence(row, now, this.graceMs);
    const skipped = plan.skippedSince ? `occurrences from ${plan.skippedSince.toISOString()} were missed while no scheduler ran and skipped (older than the ${Math.round(this.graceMs / 60_000)} min catch-up window)` : null;
    if (!(await kind.claim(row, plan.next, skipped && !plan.run ? skipped : null))) return { scheduleId: row.id, occurrence: null, action: "lost" };
    if (!plan.run) return { scheduleId: row.id, occurrence: null, action: "skipped", error: skipped };
    const occurrence = plan.run;
    const outcome: TickOutcome = { scheduleId: row.id, occurrence: occurrence.toISOString(), action: "dispatched" };
    const work = kind
      .run(row, occurrence)
      .then((r) => {
        outcome.runId = r.runId;
        outcome.error = r.error;
        if (r.error) logger().info({ scheduleId: row.id, reason: r.error }, "scheduled occurrence not run");
      })
      .catch((err) => logger().error({ err, scheduleId: row.id }, "scheduled occurrence failed"));
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
    return outcome;
  }
}

let running: Scheduler | null = null;

/** The web process's scheduler, for the API tester's schedules and any `more` kinds (off with POLYMOCK_SCHEDULER=off, e.g. for a replica that only serves). */
export function startScheduler(more: ScheduleKind[] = []): Scheduler | null {
  if (process.env.POLYMOCK_SCHEDULER === "off") return null;
  running ??= new Scheduler({ kinds: [testerSchedules, ...more] });
  running.start();
  return running;
}

export async function stopScheduler() {
  await running?.stop();
  running = null;
}
