// Saved load tests of a namespace (spec 02-modules, "Performance":
// perf-configs). A config is checked whole when it is saved, exactly as a run
// would check it (the script compiles, its options and thresholds parse): a
// config that is stored is one that runs. Running it starts an ordinary load
// run whose result names the config (history, trend). __ENV values are never
// logged, and a result keeps only their names.
import type { Actor } from "@/server/auth/actor";
import type { CreatePerfConfigInput, PerfConfigListQuery, PerfConfigRow, PerfConfigView, RunPerfConfigInput, UpdatePerfConfigInput } from "@/server/contracts/perf-configs";
import { PerfEnvironment, type PerfStatus } from "@/server/contracts/perf";
import { db, type PerfConfig, type Prisma } from "@/server/db/client";
import { AppError } from "@/server/errors";
import type { NamespaceScope } from "../namespace-access";
import { transaction } from "../tester/access";
import { loadEnvironmentForRun } from "../tester/environments";
import { assertReferencesInNamespace, environmentNotFound } from "../tester/run-references";
import { planOrProblem, type PerfRunStartedView, startPerfRun } from "./runs";

export function configNotFound(scope: NamespaceScope, id: string) {
  return new AppError("not_found", `Performance config '${id}' not found in namespace '${scope.name}'`);
}

type Stored = Pick<PerfConfig, "script" | "options" | "environment" | "files">;
const recordOf = <T>(v: unknown) => ((v && typeof v === "object" && !Array.isArray(v) ? v : {}) as Record<string, T>);

type LastResult = { id: string; configId: string; status: string; createdAt: Date; finishedAt: Date | null };

async function lastResults(ids: string[]): Promise<Map<string, LastResult>> {
  if (!ids.length) return new Map();
  // The newest result per config in one indexed query (Prisma's `distinct` would read every result).
  const rows = await db().$queryRaw<LastResult[]>`
    SELECT DISTINCT ON ("configId") id::text, "configId"::text, status, "createdAt", "finishedAt"
    FROM "PerfResult" WHERE "configId" = ANY(${ids}::uuid[])
    ORDER BY "configId", "createdAt" DESC, id DESC`;
  return new Map(rows.map((r) => [r.configId, r]));
}

function rowView(c: PerfConfig, last: Awaited<ReturnType<typeof lastResults>>): PerfConfigRow {
  const l = last.get(c.id);
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    collectionIds: c.collectionIds,
    environmentId: c.environmentId,
    envNames: Object.keys(recordOf(c.environment)),
    fileNames: Object.keys(recordOf(c.files)),
    createdBy: c.createdBy,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
    lastResult: l ? { id: l.id, status: l.status as PerfStatus, createdAt: l.createdAt.toISOString(), finishedAt: l.finishedAt?.toISOString() ?? null } : null,
  };
}

async function view(c: PerfConfig): Promise<PerfConfigView> {
  return {
    ...rowView(c, await lastResults([c.id])),
    script: c.script,
    options: recordOf(c.options),
    environment: recordOf<string>(c.environment),
    files: recordOf<string>(c.files),
  };
}

async function find(scope: NamespaceScope, id: string, client: Prisma.TransactionClient = db()): Promise<PerfConfig> {
  const c = await client.perfConfig.findFirst({ where: { id, namespaceId: scope.id } });
  if (!c) throw configNotFound(scope, id);
  return c;
}

/** A config is saved only when it would run: the same check a run makes, with its own values and files. */
async function checkRunnable(c: Stored) {
  await planOrProblem({ script: c.script, options: recordOf(c.options), environment: recordOf<string>(c.environment), files: recordOf<string>(c.files) });
}

export async function listPerfConfigs(scope: NamespaceScope, query: PerfConfigListQuery = {}) {
  const search = query.search?.trim();
  const rows = await db().perfConfig.findMany({
    where: {
      namespaceId: scope.id,
      ...(search ? { OR: [{ name: { contains: search, mode: "insensitive" } }, { description: { contains: search, mode: "insensitive" } }] } : {}),
    },
    orderBy: [{ updatedAt: "desc" }, { id: "asc" }],
  });
  const last = await lastResults(rows.map((r) => r.id));
  return { configs: rows.map((r) => rowView(r, last)), total: rows.length };
}

export async function getPerfConfig(scope: NamespaceScope, id: string): Promise<PerfConfigView> {
  return view(await find(scope, id));
}

export async function createPerfConfig(actor: Actor, scope: NamespaceScope, input: CreatePerfConfigInput): Promise<PerfConfigView> {
  await assertReferencesInNamespace(scope, input.collectionIds, input.environmentId);
  await checkRunnable(input as Stored);
  const c = await db().perfConfig.create({
    data: {
      namespaceId: scope.id,
      name: input.name,
      description: input.description,
      script: input.script,
      options: input.options as Prisma.InputJsonValue,
      environment: input.environment,
      files: input.files,
      collectionIds: input.collectionIds,
      environmentId: input.environmentId,
      createdBy: actor.user.username,
    },
  });
  return view(c);
}

export async function updatePerfConfig(scope: NamespaceScope, id: string, input: UpdatePerfConfigInput): Promise<PerfConfigView> {
  const current = await find(scope, id);
  const next: Stored = {
    script: input.script ?? current.script,
    options: (input.options ?? current.options) as Prisma.JsonValue,
    environment: input.environment ?? current.environment,
    files: input.files ?? current.files,
  };
  await assertReferencesInNamespace(scope, input.collectionIds ?? [], input.environmentId ?? null);
  if (input.script !== undefined || input.options !== undefined || input.environment !== undefined || input.files !== undefined) await checkRunnable(next);
  const { count } = await db().perfConfig.updateMany({
    where: { id, namespaceId: scope.id },
    data: {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.script !== undefined ? { script: input.script } : {}),
      ...(input.options !== undefined ? { options: input.options as Prisma.InputJsonValue } : {}),
      ...(input.environment !== undefined ? { environment: input.environment } : {}),
      ...(input.files !== undefined ? { files: input.files } : {}),
      ...(input.collectionIds !== undefined ? { collectionIds: input.collectionIds } : {}),
      ...(input.environmentId !== undefined ? { environmentId: input.environmentId } : {}),
    },
  });
  if (count === 0) throw configNotFound(scope, id);
  return getPerfConfig(scope, id);
}

/** Deletes the config and its schedules (they would have nothing to run); its results stay as history. */
export async function deletePerfConfig(scope: NamespaceScope, id: string): Promise<{ ok: true }> {
  await transaction(async (tx) => {
    await find(scope, id, tx);
    await tx.perfSchedule.deleteMany({ where: { configId: id, namespaceId: scope.id } });
    await tx.perfConfig.deleteMany({ where: { id, namespaceId: scope.id } });
  });
  return { ok: true };
}

/** __ENV from the config's API tester environment (names k6 accepts only), under the config's own values. */
async function environmentValues(scope: NamespaceScope, c: PerfConfig): Promise<Record<string, string>> {
  if (!c.environmentId) return {};
  const env = await loadEnvironmentForRun(scope, c.environmentId).catch((e: unknown) => {
    if (e instanceof AppError && e.code === "not_found") throw environmentNotFound(scope, c.environmentId!);
    throw e;
  });
  const key = PerfEnvironment.keyType;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env.values)) if (key.safeParse(name).success && typeof value === "string") out[name] = value;
  return out;
}

/** Runs the saved config: an ordinary load run whose result names the config. */
export async function runPerfConfig(actor: Actor, scope: NamespaceScope, id: string, input: RunPerfConfigInput = {}): Promise<PerfRunStartedView> {
  const c = await find(scope, id);
  const environment = { ...(await environmentValues(scope, c)), ...recordOf<string>(c.environment), ...(input.environment ?? {}) };
  const files = recordOf<string>(c.files);
  return startPerfRun(actor, scope, {
    name: c.name,
    script: c.script,
    options: input.options ?? recordOf(c.options),
    environment,
    files: Object.keys(files).length ? files : undefined,
    configId: c.id,
    runnerId: input.runnerId,
    collectionIds: c.collectionIds,
    environmentId: c.environmentId,
  });
}
