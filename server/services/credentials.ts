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

// ---- Delegated and integration credentials ---------------------------------
// Both are namespace-scoped (integrations may be instance-wide when an admin
// makes them), live 90 days from creation or rotation, and are managed by their
// creator, the namespace's owners, and admins.

type RotatingKind = "delegated" | "integration";

function rotatingView(row: CredentialRow) {
  return { ...tokenView(row), credentialExpiresAt: (row.expiresAt ?? new Date(0)).toISOString() };
}

export async function createRotating(actor: Actor, kind: RotatingKind, input: { name: string; namespace?: string | null; permissions: Permission[] }) {
  const { namespaceId, permissions } = await scopeFor(actor, input.namespace, input.permissions);
  const { secret, hash, displayPrefix } = newSecret(kind);
  const row = await db().credential.create({
    data: { kind, name: input.name, tokenPrefix: displayPrefix, secretHash: hash, userId: actor.user.id, namespaceId, permissions, expiresAt: rotatingExpiry() },
    include: credentialInclude,
  });
  await recordAudit({ actor, action: `${kind}_credential.create`, targetType: `${kind}_credential`, targetId: row.id, namespace: row.namespace?.name, details: { name: row.name, permissions } });
  return { ...rotatingView(row), token: secret };
}

function manageableWhere(actor: Actor, kind: RotatingKind): Prisma.CredentialWhereInput {
  if (isAdmin(actor)) return { kind };
  return {
    kind,
    OR: [
      { userId: actor.user.id },
      { namespace: { memberships: { some: { userId: actor.user.id, role: "owner" } } } },
    ],
    ...(actor.pinnedNamespaceId ? { namespaceId: actor.pinnedNamespaceId } : {}),
  };
}

export async function listRotating(actor: Actor, kind: RotatingKind) {
  const rows = await db().credential.findMany({ where: manageableWhere(actor, kind), include: credentialInclude, orderBy: { createdAt: "desc" } });
  return rows.map(rotatingView);
}

async function manageable(actor: Actor, kind: RotatingKind, id: string) {
  const row = await db().credential.findFirst({ where: { AND: [{ id }, manageableWhere(actor, kind)] }, include: credentialInclude });
  if (!row) throw errors.notFound(kind === "delegated" ? "Delegated credential" : "Integration");
  return row;
}

export async function getRotating(actor: Actor, kind: RotatingKind, id: string) {
  return rotatingView(await manageable(actor, kind, id));
}

export async function rotateRotating(actor: Actor, kind: RotatingKind, id: string) {
  const current = await manageable(actor, kind, id);
  if (current.revokedAt) throw errors.conflict("A revoked credential cannot be rotated");
  const { secret, hash, displayPrefix } = newSecret(kind);
  const now = new Date();
  const row = await db().credential.update({
    where: { id },
    data: { secretHash: hash, tokenPrefix: displayPrefix, rotatedAt: now, expiresAt: rotatingExpiry(now) },
    include: credentialInclude,
  });
  await recordAudit({ actor, action: `${kind}_credential.rotate`, targetType: `${kind}_credential`, targetId: id, namespace: row.namespace?.name });
  return { ...rotatingView(row), token: secret };
}

export async function revokeRotating(actor: Actor, kind: RotatingKind, id: string) {
  const current = await manageable(actor, kind, id);
  const row = current.revokedAt
    ? current
    : await db().credential.update({ where: { id }, data: { revokedAt: new Date() }, include: credentialInclude });
  await recordAudit({ actor, action: `${kind}_credential.revoke`, targetType: `${kind}_credential`, targetId: id, namespace: row.namespace?.name });
  return rotatingView(row);
}

export async function deleteRotating(actor: Actor, kind: RotatingKind, id: string) {
  const current = await manageable(actor, kind, id);
  await db().credential.delete({ where: { id: current.id } });
  await recordAudit({ actor, action: `${kind}_credential.delete`, targetType: `${kind}_credential`, targetId: id, namespace: current.namespace?.name });
  return { ok: true as const };
}

export const createDelegated = (actor: Actor, input: z.infer<typeof CreateDelegatedInput>) => createRotating(actor, "delegated", input);
export const listDelegated = async (actor: Actor) => {
  const credentials = await listRotating(actor, "delegated");
  return { credentials, count: credentials.length };
};
export const getDelegated = (actor: Actor, id: string) => getRotating(actor, "delegated", id);
export const rotateDelegated = (actor: Actor, id: string) => rotateRotating(actor, "delegated", id);
export const revokeDelegated = (actor: Actor, id: string) => revokeRotating(actor, "delegated", id);
