// Database rows to API views (one place, so REST and tRPC answer alike).
import type { z } from "zod";
import type { AdminUserView } from "@/server/contracts/users";
import type { MeOutput, TokenView } from "@/server/contracts/auth";
import type { Permission } from "@/server/contracts/endpoint";
import type { Credential, User } from "@/server/db/client";

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/** The profile fields shared by /auth/me and the admin user list. */
function userFields(user: User) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    emailVerified: Boolean(user.emailVerifiedAt),
    fullName: user.fullName,
    role: user.role,
    authSource: user.authSource,
    disabled: Boolean(user.disabledAt),
    createdAt: user.createdAt.toISOString(),
    lastLoginAt: iso(user.lastLoginAt),
  };
}

export function meView(user: User, memberships: { role: string; namespace: { name: string; deletedAt: Date | null } }[]): MeOutput {
  return {
    ...userFields(user),
    namespaces: memberships
      .filter((m) => !m.namespace.deletedAt)
      .map((m) => ({ name: m.namespace.name, role: m.role as "owner" | "editor" | "viewer" }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}

export function adminUserView(user: User & { _count?: { memberships: number } }): AdminUserView {
  return { ...userFields(user), namespaceCount: user._count?.memberships ?? 0 };
}

export type CredentialRow = Credential & { namespace: { name: string } | null; user: { id: string; username: string } };

export function credentialStatus(c: Credential, now = new Date()): z.infer<typeof TokenView>["status"] {
  if (c.revokedAt) return "revoked";
  if (c.expiresAt && c.expiresAt <= now) return "expired";
  return "active";
}

export function tokenView(c: CredentialRow): TokenView {
  return {
    id: c.id,
    kind: c.kind,
    name: c.name,
    prefix: c.tokenPrefix,
    permissions: c.permissions as Permission[],
    namespace: c.namespace?.name ?? null,
    expiresAt: iso(c.expiresAt),
    createdAt: c.createdAt.toISOString(),
    lastUsedAt: iso(c.lastUsedAt),
    revokedAt: iso(c.revokedAt),
    rotatedAt: iso(c.rotatedAt),
    status: credentialStatus(c),
    owner: { id: c.user.id, username: c.user.username },
  };
}

export const credentialInclude = {
  namespace: { select: { name: true } },
  user: { select: { id: true, username: true } },
} as const;
