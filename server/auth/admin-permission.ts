// The gate in front of every admin operation (REST `auth: "admin"` endpoints and
// tRPC admin procedures): the admin role alone is not enough, the credential
// that carries it must also hold the permission the operation needs, so an
// admin's read-only token cannot create, reset or delete anything.
import type { HttpMethod, Permission } from "@/server/contracts/endpoint";
import { errors } from "@/server/errors";
import { type Actor, isAdmin } from "./actor";

/** GET/HEAD read, DELETE delete, everything else writes (docs/decisions.md, "Authentication"). */
export function permissionForMethod(method: HttpMethod | "HEAD"): Permission {
  if (method === "GET" || method === "HEAD") return "read";
  if (method === "DELETE") return "delete";
  return "write";
}

export function requireAdminPermission(actor: Actor, permission: Permission): void {
  if (!isAdmin(actor)) throw errors.forbidden("This needs the admin role");
  // Sessions carry all three permissions, so only credentials can fall short here.
  if (!actor.permissions.includes(permission)) throw errors.forbidden(`This needs a credential with '${permission}' permission`);
}
