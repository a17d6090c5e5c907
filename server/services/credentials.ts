// API tokens and delegated credentials. Secrets are shown once and stored as
// SHA-256; a credential never carries more than its creator could do.
import type { z } from "zod";
import { type Actor, isAdmin } from "@/server/auth/actor";
import { newSecret, rotatingExpiry } from "@/server/auth/credentials";
import type { CreateDelegatedInput, CreateTokenInput, UpdateTokenInput } from "@/server/contracts/auth";
import type { Permission } from "@/server/contracts/endpoint";
import { db, Prisma } from "@/server/db/client";
import { errors } from "@/server/errors";
import { recordAudit } from "./audit";
import { resolveNamespace } from "./namespace-access";
import { credentialInclude, tokenView, type CredentialRow } from "./views";

function expiryFrom(input: { expiresAt?: string | null; expiresInDays?: number }): Date | null | undefined {
  if (input.expiresAt && input.expiresInDays) throw errors.validation("Give expiresAt or expiresInDays, not both");
  if (input.expiresInDays) return new Date(Date.now() + input.expiresInDays * 24 * 3600 * 1000);
  if (input.expiresAt === null) return null;
  if (input.expiresAt === undefined) return undefined;
  const at = new Date(input.expiresAt);
  if (at.getTime() <= Date.now()) {
    throw errors.validation("expiresAt must be in the future", [{ location: "body", field: "expiresAt", message: "in the past" }]);
  }
  return at;
}

function assertWithin(requested: Permission[], allowed: Permission[], what: string) {
  const extra = requested.filter((p) => !allowed.includes(p));
  if (extra.length) throw errors.forbidden(`A credential cannot get more than ${what}: ${extra.join(", ")} not allowed`);
}

/** Pinning and permissions for a new credential, checked against the caller. */
async function scopeFor(actor: Actor, namespace: string | null | undefined, permissions: Permission[]) {
  assertWithin(permissions, actor.permissions, "the credential that creates it");
  let namespaceId: string | null = actor.pinnedNamespaceId;
  if (namespace) {
    const scope = await resolveNamespace(actor, namespace);
    assertWithin(permissions, scope.permissions, `your rights in '${scope.name}'`);
    namespaceId = scope.id;
  }
  return { namespaceId, permissions: Array.from(new Set(permissions)) };
}

export async function createToken(actor: Actor, input: CreateTokenInput) {
  const { namespaceId, permissions } = await scopeFor(actor, input.namespace, input.permissions);
  const { secret, hash, displayPrefix } = newSecret("api_token");
  const row = await db().credential.create({
    data: {
      kind: "api_token",
      name: input.name,
      tokenPrefix: displayPrefix,
      secretHash: hash,
      userId: actor.user.id,
      namespaceId,
      permissions,
      expiresAt: expiryFrom(input) ?? null,
    },
    include: credentialInclude,
  });
  await recordAudit({ actor, action: "token.create", targetType: "api_token", targetId: row.id, namespace: row.namespace?.name, details: { name: row.name, permissions } });
  return { ...tokenView(row), token: secret };
}

export async function listTokens(actor: Actor) {
  const rows = await db().credential.findMany({
    where: { userId: actor.user.id, kind: "api_token" },
    include: credentialInclude,
    orderBy: { createdAt: "desc" },
  });
  return { tokens: rows.map(tokenView), count: rows.length };
}

async function ownToken(actor: Actor, id: string): Promise<CredentialRow> {
  const row = await db().credential.findFirst({ where: { id, userId: actor.user.id, kind: "api_token" }, include: credentialInclude });
  if (!row) throw errors.notFound("Token");
  return row;
}

export async function getToken(actor: Actor, id: string) {
  return tokenView(await ownToken(actor, id));
}

export async function updateToken(actor: Actor, id: string, input: z.infer<typeof UpdateTokenInput>) {
  const current = await ownToken(actor, id);
  if (current.revokedAt) throw errors.conflict("A revoked token cannot be changed");
  const expiresAt = expiryFrom(input);
  const row = await db().credential.update({
    where: { id: current.id },
    data: { name: input.name ?? undefined, ...(expiresAt !== undefined ? { expiresAt } : {}) },
    include: credentialInclude,
  });
  await recordAudit({ actor, action: "token.update", targetType: "api_token", targetId: id, details: { fields: Object.keys(input) } });
  return tokenView(row);
}

export async function revokeToken(actor: Actor, id: string) {
  const current = await ownToken(actor, id);
  const row = current.revokedAt
    ? current
    : await db().credential.update({ where: { id }, data: { revokedAt: new Date() }, include: credentialInclude });
  await recordAudit({ actor, action: "token.revoke", targetType: "api_token", targetId: id });
  return tokenView(row);
}

// ---- Delegated credentials -------------------------------------------------

function delegatedView(row: CredentialRow) {
  return { ...tokenView(row), credentialExpiresAt: (row.expiresAt ?? new Date(0)).toISOString() };
}

export async function createDelegated(actor: Actor, input: z.infer<typeof CreateDelegatedInput>) {
  const { namespaceId, permissions } = await scopeFor(actor, input.namespace, input.permissions);
  const { secret, hash, displayPrefix } = newSecret("delegated");
  const row = await db().credential.create({
    data: { kind: "delegated", name: input.name, tokenPrefix: displayPrefix, secretHash: hash, userId: actor.user.id, namespaceId, permissions, expiresAt: rotatingExpiry() },
    include: credentialInclude,
  });
  await recordAudit({ actor, action: "delegated_credential.create", targetType: "delegated_credential", targetId: row.id, namespace: row.namespace?.name, details: { permissions } });
  return { ...delegatedView(row), token: secret };
}

/** Own credentials; an admin manages all; a namespace owner those of the namespace. */
function manageableWhere(actor: Actor): Prisma.CredentialWhereInput {
  if (isAdmin(actor)) return { kind: "delegated" };
  return {
    kind: "delegated",
    OR: [
      { userId: actor.user.id },
      { namespace: { memberships: { some: { userId: actor.user.id, role: "owner" } } } },
    ],
    ...(actor.pinnedNamespaceId ? { namespaceId: actor.pinnedNamespaceId } : {}),
  };
}

export async function listDelegated(actor: Actor) {
  const rows = await db().credential.findMany({ where: manageableWhere(actor), include: credentialInclude, orderBy: { createdAt: "desc" } });
  return { credentials: rows.map(delegatedView), count: rows.length };
}

async function manageableDelegated(actor: Actor, id: string) {
  const row = await db().credential.findFirst({ where: { AND: [{ id }, manageableWhere(actor)] }, include: credentialInclude });
  if (!row) throw errors.notFound("Delegated credential");
  return row;
}

export async function getDelegated(actor: Actor, id: string) {
  return delegatedView(await manageableDelegated(actor, id));
}

export async function rotateDelegated(actor: Actor, id: string) {
  const current = await manageableDelegated(actor, id);
  if (current.revokedAt) throw errors.conflict("A revoked credential cannot be rotated");
  const { secret, hash, displayPrefix } = newSecret("delegated");
  const now = new Date();
  const row = await db().credential.update({
    where: { id },
    data: { secretHash: hash, tokenPrefix: displayPrefix, rotatedAt: now, expiresAt: rotatingExpiry(now) },
    include: credentialInclude,
  });
  await recordAudit({ actor, action: "delegated_credential.rotate", targetType: "delegated_credential", targetId: id, namespace: row.namespace?.name });
  return { ...delegatedView(row), token: secret };
}

export async function revokeDelegated(actor: Actor, id: string) {
  const current = await manageableDelegated(actor, id);
  const row = current.revokedAt
    ? current
    : await db().credential.update({ where: { id }, data: { revokedAt: new Date() }, include: credentialInclude });
  await recordAudit({ actor, action: "delegated_credential.revoke", targetType: "delegated_credential", targetId: id, namespace: row.namespace?.name });
  return delegatedView(row);
}
