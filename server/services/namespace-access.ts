// Who may do what in a namespace. A namespace the caller cannot read is
// reported as missing (404), never as forbidden, so names do not leak.
import type { Permission } from "@/server/contracts/endpoint";
import { type Actor, isAdmin } from "@/server/auth/actor";
import { db, type Prisma } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";

export type MemberRole = "owner" | "editor" | "viewer";

/** Role ladder (docs/decisions.md): viewers read; editors and owners also write and delete; owners manage members. */
export const ROLE_PERMISSIONS: Record<MemberRole, Permission[]> = {
  viewer: ["read"],
  editor: ["read", "write", "delete"],
  owner: ["read", "write", "delete"],
};

export const DEFAULT_NAMESPACE = "sandbox";

export interface NamespaceScope {
  id: string;
  name: string;
  role: MemberRole | null;
  /** Effective permissions: the role's, narrowed by the credential's. */
  permissions: Permission[];
}

export function namespaceNotFound(name: string) {
  return new AppError("not_found", `Namespace '${name}' not found`);
}

export async function resolveNamespace(actor: Actor, name: string): Promise<NamespaceScope> {
  const ns = await db().namespace.findUnique({
    where: { name },
    select: { id: true, name: true, deletedAt: true, memberships: { where: { userId: actor.user.id }, select: { role: true } } },
  });
  if (!ns || ns.deletedAt) throw namespaceNotFound(name);
  if (actor.pinnedNamespaceId && actor.pinnedNamespaceId !== ns.id) throw namespaceNotFound(name);
  const role = (ns.memberships[0]?.role ?? null) as MemberRole | null;
  let granted: Permission[];
  if (role) granted = ROLE_PERMISSIONS[role];
  else if (actor.user.role === "admin") granted = ["read", "write", "delete"]; // admins reach every namespace
  else throw namespaceNotFound(name);
  return { id: ns.id, name: ns.name, role, permissions: granted.filter((p) => actor.permissions.includes(p)) };
}

export function requireNamespacePermission(scope: NamespaceScope, permission: Permission) {
  if (!scope.permissions.includes(permission)) {
    throw errors.forbidden(`This needs '${permission}' permission in namespace '${scope.name}'`);
  }
}

/**
 * The one fallback for a request that names no namespace: the pinned
 * credential's namespace, else `sandbox`. REST (defineRoute) and tRPC
 * (namespacedProcedure) both resolve through here.
 */
export async function resolveNamespaceFor(actor: Actor, named: string | undefined, permission?: Permission): Promise<NamespaceScope> {
  const scope = await resolveNamespace(actor, named ?? (await pinnedNamespaceName(actor)) ?? DEFAULT_NAMESPACE);
  if (permission) requireNamespacePermission(scope, permission);
  return scope;
}

/** Namespaces the caller may see: the pinned one only, members' ones, every one for an admin. */
export function readableNamespaces(actor: Actor): Prisma.NamespaceWhereInput {
  const where: Prisma.NamespaceWhereInput = { deletedAt: null };
  if (actor.pinnedNamespaceId) where.id = actor.pinnedNamespaceId;
  if (!isAdmin(actor)) where.memberships = { some: { userId: actor.user.id } };
  return where;
}

/** The pinned namespace's name, for callers that omit the namespace. */
export async function pinnedNamespaceName(actor: Actor): Promise<string | null> {
  if (!actor.pinnedNamespaceId) return null;
  const ns = await db().namespace.findUnique({ where: { id: actor.pinnedNamespaceId }, select: { name: true } });
  return ns?.name ?? null;
}

export function canManageMembers(actor: Actor, scope: NamespaceScope): boolean {
  return scope.role === "owner" || isAdmin(actor);
}
