// Cron schedules of saved load tests (perf-schedules). A schedule belongs to
// its namespace: readers see it, writers change it. Each occurrence runs its
// config as the user who last saved the schedule, checked again at that
// moment (perf-scheduler.ts), so someone who has left the namespace or lost
// write access stops running anything; whoever saves the schedule next takes
// it over. The claim, catch-up and clock are the API tester's scheduler's.
import type { Actor } from "@/server/auth/actor";
import { nextOccurrence, nextOccurrences } from "@/server/contracts/cron-schedule";
import type { CreatePerfScheduleInput, PerfScheduleView, UpdatePerfScheduleInput } from "@/server/contracts/perf-configs";
import { db, type PerfSchedule } from "@/server/db/client";
import { AppError } from "@/server/errors";
import type { NamespaceScope } from "../namespace-access";
import { type Clock, systemClock, UPCOMING_SHOWN } from "../tester/schedules";
import { configNotFound } from "./configs";

function scheduleNotFound(scope: NamespaceScope, id: string) {
  return new AppError("not_found", `Performance schedule '${id}' not found in namespace '${scope.name}'`);
}

function upcoming(row: Pick<PerfSchedule, "cron" | "timezone" | "enabled">, now: Date): string[] {
  if (!row.enabled) return [];
  try {
    return nextOccurrences(row.cron, row.timezone, now, UPCOMING_SHOWN).map((d) => d.toISOString());
  } catch {
    return [];
  }
}

function firstRun(cron: string, timezone: string, enabled: boolean, now: Date): Date | null {
  return enabled ? nextOccurrence(cron, timezone, now) : null;
}

/** What a view needs besides the row: config names, usernames and live result statuses, in three queries. */
async function lookups(rows: PerfSchedule[]) {
  const ids = (pick: (r: PerfSchedule) => string | null) => [...new Set(rows.map(pick).filter((v): v is string => !!v))];
  const [configs, users, results] = await Promise.all([
    db().perfConfig.findMany({ where: { id: { in: ids((r) => r.configId) } }, select: { id: true, name: true } }),
    db().user.findMany({ where: { id: { in: ids((r) => r.createdBy) } }, select: { id: true, username: true } }),
    db().perfResult.findMany({ where: { id: { in: ids((r) => r.lastResultId) } }, select: { id: true, status: true } }),
  ]);
  return {
    configName: new Map(configs.map((c) => [c.id, c.name])),
    username: new Map(users.map((u) => [u.id, u.username])),
    status: new Map(results.map((r) => [r.id, r.status])),
  };
}

function view(row: PerfSchedule, now: Date, l: Awaited<ReturnType<typeof lookups>>): PerfScheduleView {
  return {
    id: row.id,
    name: row.name,
    configId: row.configId,
    configName: l.configName.get(row.configId) ?? null,
    cron: row.cron,
    timezone: row.timezone,
    enabled: row.enabled,
    runsAs: (row.createdBy && l.username.get(row.createdBy)) || null,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    nextOccurrences: upcoming(row, now),
    lastRunAt: row.lastRunAt?.toISOString() ?? null,
    lastResultId: row.lastResultId,
    lastStatus: (row.lastResultId && l.status.get(row.lastResultId)) || row.lastStatus,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function viewOf(row: PerfSchedule, clock: Clock) {
  return view(row, clock.now(), await lookups([row]));
}

async function assertConfig(scope: NamespaceScope, configId: string) {
  const c = await db().perfConfig.findFirst({ where: { id: configId, namespaceId: scope.id }, select: { id: true } });
  if (!c) throw configNotFound(scope, configId);
}

export async function listPerfSchedules(scope: NamespaceScope, query: { configId?: string } = {}, clock: Clock = systemClock) {
  const rows = await db().perfSchedule.findMany({ where: { namespaceId: scope.id, ...(query.configId ? { configId: query.configId } : {}) }, orderBy: [{ name: "asc" }, { createdAt: "asc" }] });
  const l = await lookups(rows);
  const now = clock.now();
  return { schedules: rows.map((r) => view(r, now, l)), total: rows.length };
}

export async function getPerfSchedule(scope: NamespaceScope, id: string, clock: Clock = systemClock): Promise<PerfScheduleView> {
  const row = await db().perfSchedule.findFirst({ where: { id, namespaceId: scope.id } });
  if (!row) throw scheduleNotFound(scope, id);
  return viewOf(row, clock);
}

export async function createPerfSchedule(actor: Actor, scope: NamespaceScope, input: CreatePerfScheduleInput, clock: Clock = systemClock): Promise<PerfScheduleView> {
  await assertConfig(scope, input.configId);
  const cron = input.cron.trim();
  const row = await db().perfSchedule.create({
    data: {
      namespaceId: scope.id,
      configId: input.configId,
      name: input.name,
      cron,
      timezone: input.timezone,
      enabled: input.enabled,
      nextRunAt: firstRun(cron, input.timezone, input.enabled, clock.now()),
      // The user id (not the username): occurrences re-check this user's access.
      createdBy: actor.user.id,
    },
  });
  return viewOf(row, clock);
}

export async function updatePerfSchedule(actor: Actor, scope: NamespaceScope, id: string, input: UpdatePerfScheduleInput, clock: Clock = systemClock): Promise<PerfScheduleView> {
  const row = await db().perfSchedule.findFirst({ where: { id, namespaceId: scope.id } });
  if (!row) throw scheduleNotFound(scope, id);
  if (input.configId) await assertConfig(scope, input.configId);
  const cron = input.cron?.trim() ?? row.cron;
  const timezone = input.timezone ?? row.timezone;
  const enabled = input.enabled ?? row.enabled;
  const timing = cron !== row.cron || timezone !== row.timezone || enabled !== row.enabled;
  const { count } = await db().perfSchedule.updateMany({
    where: { id, namespaceId: scope.id },
    data: {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.configId !== undefined ? { configId: input.configId } : {}),
      cron,
      timezone,
      enabled,
      createdBy: actor.user.id,
      // Only a new timing moves the next occurrence; renaming keeps it.
      ...(timing ? { nextRunAt: firstRun(cron, timezone, enabled, clock.now()) } : {}),
    },
  });
  if (count === 0) throw scheduleNotFound(scope, id);
  return getPerfSchedule(scope, id, clock);
}

export async function deletePerfSchedule(scope: NamespaceScope, id: string): Promise<{ ok: true }> {
  const { count } = await db().perfSchedule.deleteMany({ where: { id, namespaceId: scope.id } });
  if (count === 0) throw scheduleNotFound(scope, id);
  return { ok: true };
}
