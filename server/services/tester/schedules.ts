// Cron schedules of collection runs (spec 02-modules, "Schedule rules"). A
// schedule belongs to its owner in one namespace: reading, changing,
// deleting and triggering it are for the owner in that exact namespace only
// (anyone else: 404). Creating, changing and triggering check that the
// collections and environment it names are reachable in the namespace; each
// occurrence checks again, as the owner, before it starts (scheduler.ts). When
// that check cannot be made because the database is unreachable the answer is
// 503 and nothing starts.
import type { Actor } from "@/server/auth/actor";
import { nextOccurrence, nextOccurrences } from "@/server/contracts/cron-schedule";
import type { CreateScheduleInput, ScheduleView, UpdateScheduleInput } from "@/server/contracts/tester-tests-schedules";
import { db, type TesterSchedule } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import { type NamespaceScope, requireNamespacePermission, resolveNamespace } from "../namespace-access";
import { reachCollection, refuseCrossSpace } from "./collection-access";
import { executeConfiguredRun } from "./run-collections";
import { assertReferencesInNamespace } from "./run-references";

export const UPCOMING_SHOWN = 5;

/** What a schedule's clock reads; tests pass their own. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

type Row = TesterSchedule & { owner: { username: string }; namespace: { name: string } };
const include = { owner: { select: { username: true } }, namespace: { select: { name: true } } } as const;

/** Prisma's "cannot reach / lost the database" errors, and the driver's own. */
const UNREACHABLE_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "57P01", "57P03"]);
export function isDatabaseUnavailable(err: unknown): boolean {
  if (err instanceof AppError) return false;
  const e = err as { name?: string; code?: string; cause?: { code?: string } } | null;
  if (!e) return false;
  if (e.name === "PrismaClientInitializationError") return true;
  return UNREACHABLE_CODES.has(String(e.code)) || UNREACHABLE_CODES.has(String(e.cause?.code));
}

/** Runs an access check; a database it cannot reach is the spec's 503, not a 500. */
export async function verifyingAccess<T>(check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (err) {
    if (isDatabaseUnavailable(err)) throw errors.unavailable("The schedule's access cannot be verified: the database is unavailable. Nothing was started; try again shortly.");
    throw err;
  }
}

/**
 * The one place that decides whether collections and an environment may be
 * scheduled in a namespace. Unknown and inaccessible ids answer the same 404.
 * Collections shared from another Space are refused with 403 (spec,
 * Cross-Space rules), decided from the share before anything is read.
 */
export async function assertSchedulableCollections(scope: NamespaceScope, collectionIds: string[], environmentId: string | null): Promise<void> {
  for (const id of new Set(collectionIds)) refuseCrossSpace(await reachCollection(scope, id), "schedule");
  await assertReferencesInNamespace(scope, collectionIds, environmentId);
}

function scheduleNotFound(scope: NamespaceScope, id: string) {
  return new AppError("not_found", `Schedule '${id}' not found in namespace '${scope.name}'`);
}

function upcoming(row: Pick<TesterSchedule, "cron" | "timezone" | "enabled">, now: Date): string[] {
  if (!row.enabled) return [];
  try {
    return nextOccurrences(row.cron, row.timezone, now, UPCOMING_SHOWN).map((d) => d.toISOString());
  } catch {
    return [];
  }
}

async function liveStatuses(rows: Row[]): Promise<Map<string, string>> {
  const ids = rows.map((r) => r.lastRunId).filter((id): id is string => !!id);
  if (!ids.length) return new Map();
  const runs = await db().testRun.findMany({ where: { id: { in: ids } }, select: { id: true, status: true } });
  return new Map(runs.map((r) => [r.id, r.status]));
}

function view(row: Row, now: Date, statuses: Map<string, string>): ScheduleView {
  return {
    id: row.id,
    namespace: row.namespace.name,
    name: row.name,
    cron: row.cron,
    timezone: row.timezone,
    collectionIds: row.collectionIds,
    environmentId: row.environmentId,
    enabled: row.enabled,
    owner: row.owner.username,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    nextOccurrences: upcoming(row, now),
    lastRunAt: row.lastRunAt?.toISOString() ?? null,
    lastRunId: row.lastRunId,
    lastRunStatus: (row.lastRunId && statuses.get(row.lastRunId)) || row.lastRunStatus,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function viewOf(row: Row, clock: Clock) {
  return view(row, clock.now(), await liveStatuses([row]));
}

/** The caller's own schedule in exactly this namespace; everyone else's is 404. */
async function findOwn(actor: Actor, scope: NamespaceScope, id: string): Promise<Row> {
  const row = await db().testerSchedule.findFirst({ where: { id, namespaceId: scope.id, ownerId: actor.user.id }, include });
  if (!row) throw scheduleNotFound(scope, id);
  return row;
}

function firstRun(cron: string, timezone: string, enabled: boolean, now: Date): Date | null {
  return enabled ? nextOccurrence(cron, timezone, now) : null;
}

export async function listSchedules(actor: Actor, scope: NamespaceScope, clock: Clock = systemClock) {
  const rows = await db().testerSchedule.findMany({ where: { namespaceId: scope.id, ownerId: actor.user.id }, include, orderBy: [{ name: "asc" }, { createdAt: "asc" }] });
  const statuses = await liveStatuses(rows);
  const now = clock.now();
  return { schedules: rows.map((r) => view(r, now, statuses)), total: rows.length };
}

export async function getSchedule(actor: Actor, scope: NamespaceScope, id: string, clock: Clock = systemClock) {
  return viewOf(await findOwn(actor, scope, id), clock);
}

export async function createSchedule(actor: Actor, scope: NamespaceScope, input: CreateScheduleInput, clock: Clock = systemClock): Promise<ScheduleView> {
  await verifyingAccess(() => assertSchedulableCollections(scope, input.collectionIds, input.environmentId));
  const row = await db().testerSchedule.create({
    data: {
      namespaceId: scope.id,
      ownerId: actor.user.id,
      name: input.name,
      cron: input.cron.trim(),
      timezone: input.timezone,
      collectionIds: input.collectionIds,
      environmentId: input.environmentId,
      enabled: input.enabled,
      nextRunAt: firstRun(input.cron, input.timezone, input.enabled, clock.now()),
    },
    include,
  });
  return viewOf(row, clock);
}

export async function updateSchedule(actor: Actor, scope: NamespaceScope, id: string, input: UpdateScheduleInput, clock: Clock = systemClock): Promise<ScheduleView> {
  const row = await verifyingAccess(async () => {
    const own = await findOwn(actor, scope, id);
    await assertSchedulableCollections(scope, input.collectionIds ?? own.collectionIds, input.environmentId !== undefined ? input.environmentId : own.environmentId);
    return own;
  });
  const cron = input.cron?.trim() ?? row.cron;
  const timezone = input.timezone ?? row.timezone;
  const enabled = input.enabled ?? row.enabled;
  const timing = cron !== row.cron || timezone !== row.timezone || enabled !== row.enabled;
  const updated = await db().testerSchedule.update({
    where: { id: row.id },
    data: {
      ...(input.name !== undefined ? { name: input.name } : {}),
      cron,
      timezone,
      enabled,
      ...(input.collectionIds ? { collectionIds: input.collectionIds } : {}),
      ...(input.environmentId !== undefined ? { environmentId: input.environmentId } : {}),
      // Only a new timing moves the next occurrence; renaming keeps it.
      ...(timing ? { nextRunAt: firstRun(cron, timezone, enabled, clock.now()) } : {}),
    },
    include,
  });
  return viewOf(updated, clock);
}

export async function deleteSchedule(actor: Actor, scope: NamespaceScope, id: string) {
  const { count } = await db().testerSchedule.deleteMany({ where: { id, namespaceId: scope.id, ownerId: actor.user.id } });
  if (count === 0) throw scheduleNotFound(scope, id);
  return { ok: true as const };
}

function runInputOf(row: Pick<TesterSchedule, "name" | "environmentId">, useSSE: boolean) {
  // A schedule's run is reproducible: no environment means none, never someone's active one.
  return { name: row.name, environmentId: row.environmentId ?? "", delayMs: 0, bail: false, useSSE, persistVariables: false };
}

/** Keeps the schedule's last-run fields in step once the run row exists. */
function recordStart(scheduleId: string, at: Date) {
  return async (run: { id: string; status: string }) => {
    await db().testerSchedule.updateMany({ where: { id: scheduleId }, data: { lastRunAt: at, lastRunId: run.id, lastRunStatus: run.status, lastError: null } });
  };
}

/** Trigger now: the owner's manual run, checked like an occurrence. */
export async function triggerSchedule(actor: Actor, scope: NamespaceScope, id: string, opts: { useSSE: boolean }, clock: Clock = systemClock) {
  const row = await verifyingAccess(async () => {
    const own = await findOwn(actor, scope, id);
    await assertSchedulableCollections(scope, own.collectionIds, own.environmentId);
    return own;
  });
  return executeConfiguredRun(actor, scope, row.collectionIds.map((collectionId) => ({ collectionId })), runInputOf(row, opts.useSSE), {
    referenceId: row.id,
    trigger: "schedule",
    onCreated: recordStart(row.id, clock.now()),
  });
}

// ---- For the scheduler ---------------------------------------------------------

/**
 * The owner as an actor, and the namespace as the owner reaches it now: a
 * removed membership (404), a viewer role (403), a disabled or deleted user
 * stop the occurrence.
 */
export async function ownerAccess(row: Pick<TesterSchedule, "ownerId" | "namespaceId">): Promise<{ actor: Actor; scope: NamespaceScope }> {
  const owner = await db().user.findUnique({ where: { id: row.ownerId }, select: { id: true, username: true, role: true, disabledAt: true } });
  const ns = await db().namespace.findUnique({ where: { id: row.namespaceId }, select: { name: true } });
  if (!owner || owner.disabledAt) throw errors.forbidden("the schedule's owner is disabled");
  if (!ns) throw new AppError("not_found", "the schedule's namespace is gone");
  const actor: Actor = { user: { id: owner.id, username: owner.username, role: owner.role as Actor["user"]["role"] }, via: "delegated", permissions: ["read", "write"], pinnedNamespaceId: null, ip: "scheduler" };
  const scope = await resolveNamespace(actor, ns.name);
  requireNamespacePermission(scope, "write");
  return { actor, scope };
}

/** One occurrence: check access as the owner, then run (or record why not). */
export async function runOccurrence(row: TesterSchedule, occurrence: Date): Promise<{ runId: string | null; error: string | null }> {
  let access: { actor: Actor; scope: NamespaceScope };
  try {
    access = await verifyingAccess(async () => {
      const a = await ownerAccess(row);
      await assertSchedulableCollections(a.scope, row.collectionIds, row.environmentId);
      return a;
    });
  } catch (err) {
    const reason = `not run at ${occurrence.toISOString()}: ${(err as Error).message}`;
    if (err instanceof AppError && err.code !== "unavailable") {
      await db().testerSchedule.updateMany({ where: { id: row.id }, data: { lastError: reason, lastRunStatus: "not run" } });
    }
    return { runId: null, error: reason };
  }
  try {
    const detail = (await executeConfiguredRun(access.actor, access.scope, row.collectionIds.map((collectionId) => ({ collectionId })), runInputOf(row, false), {
      referenceId: row.id,
      trigger: "schedule",
      createdBy: null,
      onCreated: recordStart(row.id, occurrence),
    })) as { id: string };
    return { runId: detail.id, error: null };
  } catch (err) {
    // Refused before the run existed (e.g. a collection moved to the trash since the check).
    if (!(err instanceof AppError)) throw err;
    const reason = `not run at ${occurrence.toISOString()}: ${err.message}`;
    await db().testerSchedule.updateMany({ where: { id: row.id }, data: { lastError: reason, lastRunStatus: "not run" } });
    return { runId: null, error: reason };
  }
}
