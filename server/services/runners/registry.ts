// Runner agents as the server knows them: registration with an integration
// token, heartbeats, their online/offline status (by heartbeat age), the
// namespaces a runner may serve (its token's), and the lists users see
// (GET /runners, GET /integrations/status).
import { type Actor, isAdmin } from "@/server/auth/actor";
import type { RegisterRunnerInput, RunnerHeartbeatInput, RunnerView } from "@/server/contracts/runner-endpoints";
import { db, type Prisma, type Runner } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import { recordAudit } from "../audit";
import { listRotating } from "../credentials";
import { type NamespaceScope, readableNamespaces } from "../namespace-access";
import { endParts } from "../perf/run-parts";

/** A runner that sent a heartbeat this recently is online. */
export const RUNNER_ONLINE_WITHIN_MS = 15_000;
export const RUNNER_HEARTBEAT_MS = 5_000;
export const CLAIM_WAIT_MAX_S = 25;

export type RunnerStatus = RunnerView["status"];

export function runnerStatusOf(r: Pick<Runner, "status" | "lastHeartbeatAt">, now = Date.now()): RunnerStatus {
  if (r.status === "offline" || now - r.lastHeartbeatAt.getTime() > RUNNER_ONLINE_WITHIN_MS) return "offline";
  return r.status === "draining" ? "draining" : "online";
}

/** Runners that can take parts now: online, heartbeat fresh. */
export function onlineRunnersWhere(now = Date.now()) {
  return { status: "online", lastHeartbeatAt: { gte: new Date(now - RUNNER_ONLINE_WITHIN_MS) } };
}

/**
 * Runners whose token may serve the namespace, as their claims decide
 * (servedNamespaces): pinned to it, or unpinned and owned by an admin or by a
 * member of the namespace. Listing, placing and waiting all use this one
 * rule, so a run is never queued for a runner that would not take it.
 */
export async function servingWhere(namespaceId: string): Promise<Prisma.RunnerWhereInput> {
  const wide = await db().credential.findMany({
    where: { kind: "integration", namespaceId: null, user: { OR: [{ role: "admin" }, { memberships: { some: { namespaceId } } }] } },
    select: { id: true },
  });
  return { OR: [{ namespaceId }, { namespaceId: null, credentialId: { in: wide.map((c) => c.id) } }] };
}

/** Only integration tokens run agents: a runner acts for its token, and the token decides its namespaces. */
function agentCredential(actor: Actor): string {
  if (actor.via !== "integration" || !actor.credentialId) {
    throw errors.forbidden("Runner agents authenticate with an integration token (POST /api/v1/integrations, or /api/v1/integrations/namespace/{ns})");
  }
  return actor.credentialId;
}

/** The caller's own runner (an agent reaches only the runners of its token); 404 otherwise. */
export async function ownRunner(actor: Actor, id: string): Promise<Runner> {
  const runner = actor.credentialId ? await db().runner.findFirst({ where: { id, credentialId: actor.credentialId } }) : null;
  if (!runner) throw errors.notFound("Runner");
  agentCredential(actor);
  return runner;
}

/** The namespaces a runner's token may serve: its pinned one, every one for an admin's token, else its owner's. */
export async function servedNamespaces(actor: Actor): Promise<{ all: boolean; ids: string[] }> {
  if (actor.pinnedNamespaceId) return { all: false, ids: [actor.pinnedNamespaceId] };
  if (isAdmin(actor)) return { all: true, ids: [] };
  const rows = await db().namespace.findMany({ where: readableNamespaces(actor), select: { id: true } });
  return { all: false, ids: rows.map((r) => r.id) };
}

async function runnerViews(rows: Runner[]): Promise<RunnerView[]> {
  const nsIds = [...new Set(rows.map((r) => r.namespaceId).filter((x): x is string => Boolean(x)))];
  const names = new Map((await db().namespace.findMany({ where: { id: { in: nsIds } }, select: { id: true, name: true } })).map((n) => [n.id, n.name]));
  const parts = await db().perfRunPart.findMany({
    where: { runnerId: { in: rows.map((r) => r.id) }, status: "running" },
    select: { id: true, resultId: true, index: true, count: true, startedAt: true, runnerId: true },
    orderBy: { startedAt: "asc" },
  });
  const now = Date.now();
  return rows.map((r) => {
    const status = runnerStatusOf(r, now);
    return {
      id: r.id,
      name: r.name,
      hostname: r.hostname,
      version: r.version,
      labels: r.labels,
      namespace: r.namespaceId ? (names.get(r.namespaceId) ?? null) : null,
      integrationId: r.credentialId,
      status,
      capacityVus: r.capacityVus,
      activeVus: status === "offline" ? 0 : r.activeVus,
      lastHeartbeatAt: r.lastHeartbeatAt.toISOString(),
      registeredAt: r.registeredAt.toISOString(),
      parts: parts.filter((p) => p.runnerId === r.id).map((p) => ({ partId: p.id, resultId: p.resultId, index: p.index, count: p.count, startedAt: p.startedAt?.toISOString() ?? null })),
    };
  });
}

export async function registerRunner(actor: Actor, input: RegisterRunnerInput) {
  const credentialId = agentCredential(actor);
  const existing = await db().runner.findUnique({ where: { credentialId_name: { credentialId, name: input.name } } });
  if (existing && runnerStatusOf(existing) !== "offline") {
    const ago = Math.round((Date.now() - existing.lastHeartbeatAt.getTime()) / 1000);
    throw new AppError("conflict", `A runner named '${input.name}' is online with this token (last heartbeat ${ago} s ago); start this one with another --name, or wait ${RUNNER_ONLINE_WITHIN_MS / 1000} s after stopping the other`);
  }
  const now = new Date();
  const fields = { namespaceId: actor.pinnedNamespaceId, hostname: input.hostname, version: input.version, capacityVus: input.capacityVus, activeVus: 0, labels: input.labels, status: "online", lastHeartbeatAt: now, registeredAt: now };
  const runner = existing
    ? await db().runner.update({ where: { id: existing.id }, data: fields })
    : await db().runner.create({ data: { credentialId, name: input.name, ...fields } });
  if (existing) {
    // The agent of that name stopped (or died) and came back: what it was running is gone.
    const orphans = await db().perfRunPart.findMany({ where: { runnerId: runner.id, status: "running" }, select: { resultId: true }, distinct: ["resultId"] });
    for (const o of orphans) await endParts(o.resultId, "lost", `runner '${runner.name}' restarted while running it`, { runnerId: runner.id, status: "running" });
  }
  await recordAudit({ actor, action: "runner.register", targetType: "runner", targetId: runner.id, details: { name: runner.name, hostname: runner.hostname, capacityVus: runner.capacityVus } });
  const [view] = await runnerViews([runner]);
  return { ...view, heartbeatIntervalMs: RUNNER_HEARTBEAT_MS, claimWaitMaxSeconds: CLAIM_WAIT_MAX_S };
}

export async function heartbeatRunner(actor: Actor, id: string, input: RunnerHeartbeatInput) {
  const runner = await ownRunner(actor, id);
  // Draining sticks until the agent says otherwise: a heartbeat without a status keeps it.
  const status = input.status ?? (runner.status === "draining" ? "draining" : "online");
  await db().runner.update({ where: { id: runner.id }, data: { activeVus: input.activeVus, capacityVus: input.capacityVus ?? undefined, status, lastHeartbeatAt: new Date() } });
  return { ok: true as const };
}

/** What the claim long-poll knows of the agent: alive, with this many VUs in use. */
export async function touchRunner(id: string, activeVus: number): Promise<void> {
  await db().runner.updateMany({ where: { id, status: { not: "offline" } }, data: { activeVus, lastHeartbeatAt: new Date() } });
}

export async function listRunners(scope: NamespaceScope) {
  const all = await db().runner.findMany({ where: await servingWhere(scope.id), orderBy: [{ name: "asc" }] });
  // A deleted integration token takes its runners with it (they can no longer authenticate anyway).
  const tokens = new Set((await db().credential.findMany({ where: { id: { in: [...new Set(all.map((r) => r.credentialId))] } }, select: { id: true } })).map((c) => c.id));
  const runners = await runnerViews(all.filter((r) => tokens.has(r.credentialId)));
  return { runners, total: runners.length, online: runners.filter((r) => r.status !== "offline").length };
}

/** Per integration token the caller may manage: its runners, how many are online, their capacity. */
export async function integrationStatus(actor: Actor) {
  const tokens = await listRotating(actor, "integration");
  const rows = await db().runner.findMany({ where: { credentialId: { in: tokens.map((t) => t.id) } } });
  const now = Date.now();
  const totals = { runners: 0, online: 0, capacityVus: 0, activeVus: 0 };
  const integrations = tokens.map((t) => {
    const mine = rows.filter((r) => r.credentialId === t.id);
    const online = mine.filter((r) => runnerStatusOf(r, now) !== "offline");
    const last = mine.reduce<Date | null>((a, r) => (!a || r.lastHeartbeatAt > a ? r.lastHeartbeatAt : a), null);
    const entry = {
      id: t.id,
      name: t.name,
      namespace: t.namespace,
      status: t.status,
      credentialExpiresAt: t.credentialExpiresAt,
      runners: mine.length,
      online: online.length,
      capacityVus: online.reduce((n, r) => n + r.capacityVus, 0),
      activeVus: online.reduce((n, r) => n + r.activeVus, 0),
      lastHeartbeatAt: last?.toISOString() ?? null,
    };
    totals.runners += entry.runners;
    totals.online += entry.online;
    totals.capacityVus += entry.capacityVus;
    totals.activeVus += entry.activeVus;
    return entry;
  });
  return { integrations, totals };
}
