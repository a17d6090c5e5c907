import type { Permission } from "@/server/contracts/endpoint";

/** Who is calling, and the ceiling of what they may do. Built once per request. */
export interface Actor {
  user: { id: string; username: string; role: "admin" | "user" };
  via: "session" | "api_token" | "delegated" | "integration";
  sessionId?: string;
  credentialId?: string;
  /** A credential's permissions; a session has all three. Roles narrow this per namespace. */
  permissions: Permission[];
  /** A credential pinned to one namespace can act only there. */
  pinnedNamespaceId: string | null;
  ip: string;
}

export const ALL_PERMISSIONS: Permission[] = ["read", "write", "delete"];

export function isAdmin(actor: Actor): boolean {
  // A pinned credential is a namespace credential even when an admin made it.
  return actor.user.role === "admin" && actor.pinnedNamespaceId === null;
}

export function hasPermission(actor: Actor, permission: Permission): boolean {
  return actor.permissions.includes(permission);
}

/** For audit rows written by the system itself (bootstrap, jobs). */
export const SYSTEM_ACTOR_NAME = "system";
