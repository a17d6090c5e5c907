// API tester environments of a namespace and each user's active one there.
// Secret values are sealed at rest and masked in views (./secrets.ts); the
// executor gets the real values through loadEnvironmentForRun only.
import type { Actor } from "@/server/auth/actor";
import type { CreateEnvironmentInput, EnvironmentForRun, EnvironmentView, UpdateEnvironmentInput } from "@/server/contracts/tester-environments";
import { db, type Prisma, type TesterEnvironment } from "@/server/db/client";
import { AppError } from "@/server/errors";
import type { NamespaceScope } from "../namespace-access";
import { transaction, type Tx } from "./access";
import { maskEnvironment, openEnvironment, sealEnvironment, storedEnvironmentValues } from "./secrets";

function view(row: TesterEnvironment, scope: NamespaceScope, activeId: string | null): EnvironmentView {
  return {
    id: row.id,
    namespace: scope.name,
    name: row.name,
    variables: maskEnvironment(storedEnvironmentValues(row.variables), row.secrets),
    secrets: row.secrets,
    isActive: row.id === activeId,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function activeIdOf(tx: Tx, actor: Actor, scope: NamespaceScope): Promise<string | null> {
  const row = await tx.testerActiveEnvironment.findUnique({ where: { userId_namespaceId: { userId: actor.user.id, namespaceId: scope.id } }, select: { environmentId: true } });
  return row?.environmentId ?? null;
}

async function find(tx: Tx, scope: NamespaceScope, id: string): Promise<TesterEnvironment> {
  const row = await tx.testerEnvironment.findFirst({ where: { id, namespaceId: scope.id } });
  if (!row) throw new AppError("not_found", `Environment '${id}' not found in namespace '${scope.name}'`);
  return row;
}

export async function createEnvironment(actor: Actor, scope: NamespaceScope, input: CreateEnvironmentInput): Promise<EnvironmentView> {
  const secrets = [...new Set(input.secrets)];
  const row = await db().testerEnvironment.create({
    data: { namespaceId: scope.id, name: input.name, variables: sealEnvironment(input.variables, secrets, {}, []), secrets, createdBy: actor.user.username },
  });
  return view(row, scope, null);
}

export async function listEnvironments(actor: Actor, scope: NamespaceScope) {
  const rows = await db().testerEnvironment.findMany({ where: { namespaceId: scope.id }, orderBy: [{ name: "asc" }, { createdAt: "asc" }] });
  const activeId = await activeIdOf(db(), actor, scope);
  return { environments: rows.map((r) => view(r, scope, activeId)), count: rows.length };
}

export async function getEnvironment(actor: Actor, scope: NamespaceScope, id: string): Promise<EnvironmentView> {
  return view(await find(db(), scope, id), scope, await activeIdOf(db(), actor, scope));
}

/**
 * Fields given replace the stored ones. `variables` replaces the map; a
 * secret sent as the mask keeps its stored value. `secrets` alone re-seals
 * the stored values under the new list (its names must be variables).
 */
export async function updateEnvironment(actor: Actor, scope: NamespaceScope, id: string, input: UpdateEnvironmentInput): Promise<EnvironmentView> {
  return transaction(async (tx) => {
    await find(tx, scope, id);
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`tester-environment:${id}`}::text, 0))`;
    const current = await find(tx, scope, id);
    const stored = storedEnvironmentValues(current.variables);
    const secrets = [...new Set(input.secrets ?? current.secrets)];
    const incoming = input.variables ?? openEnvironment(stored, current.secrets);
    secrets.forEach((name, i) => {
      if (!Object.prototype.hasOwnProperty.call(incoming, name)) {
        const message = `'${name}' is not one of the variables`;
        throw new AppError("validation", `Invalid body field 'secrets.${i}': ${message}`, { details: [{ location: "body", field: `secrets.${i}`, message }] });
      }
    });
    const data: Prisma.TesterEnvironmentUpdateInput = { variables: sealEnvironment(incoming, secrets, stored, current.secrets), secrets };
    if (input.name !== undefined) data.name = input.name;
    const row = await tx.testerEnvironment.update({ where: { id }, data });
    return view(row, scope, await activeIdOf(tx, actor, scope));
  });
}

/** Deletes an environment; it stops being anyone's active one (the choice cascades away). */
export async function deleteEnvironment(scope: NamespaceScope, id: string) {
  const row = await find(db(), scope, id);
  await db().testerEnvironment.deleteMany({ where: { id: row.id, namespaceId: scope.id } });
  return { ok: true as const };
}

export async function activateEnvironment(actor: Actor, scope: NamespaceScope, id: string): Promise<EnvironmentView> {
  const row = await find(db(), scope, id);
  const key = { userId: actor.user.id, namespaceId: scope.id };
  await db().testerActiveEnvironment.upsert({ where: { userId_namespaceId: key }, create: { ...key, environmentId: row.id }, update: { environmentId: row.id } });
  return view(row, scope, row.id);
}

export async function deactivateEnvironment(actor: Actor, scope: NamespaceScope) {
  await db().testerActiveEnvironment.deleteMany({ where: { userId: actor.user.id, namespaceId: scope.id } });
  return { environment: null };
}

export async function getActiveEnvironment(actor: Actor, scope: NamespaceScope): Promise<{ environment: EnvironmentView | null }> {
  const activeId = await activeIdOf(db(), actor, scope);
  if (!activeId) return { environment: null };
  const row = await db().testerEnvironment.findFirst({ where: { id: activeId, namespaceId: scope.id } });
  return { environment: row ? view(row, scope, activeId) : null };
}

function forRun(row: TesterEnvironment): EnvironmentForRun {
  return { id: row.id, name: row.name, values: openEnvironment(storedEnvironmentValues(row.variables), row.secrets), secrets: row.secrets };
}

/** An environment of the namespace with its real values, for the executor (never for a view); 404 if it is not there. */
export async function loadEnvironmentForRun(scope: NamespaceScope, id: string): Promise<EnvironmentForRun> {
  return forRun(await find(db(), scope, id));
}

/** The caller's active environment with its real values, or null when none is chosen. */
export async function loadActiveEnvironmentForRun(actor: Actor, scope: NamespaceScope): Promise<EnvironmentForRun | null> {
  const activeId = await activeIdOf(db(), actor, scope);
  if (!activeId) return null;
  const row = await db().testerEnvironment.findFirst({ where: { id: activeId, namespaceId: scope.id } });
  return row ? forRun(row) : null;
}
