// Which namespace an id-only mock call (GET/PATCH/DELETE /mocks/:id, purge,
// logs, versions, restore) is about. Most clients send no namespace on these
// calls, so the id is looked up in every namespace the caller can read; a
// namespace the request does name narrows the lookup to it. Copy-to-namespace
// keeps ids, so one id may live in several namespaces: then the call is
// ambiguous and gets a 409 naming them (docs/decisions.md, Mock management API).
import type { Actor } from "@/server/auth/actor";
import type { Permission } from "@/server/contracts/endpoint";
import { db } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import { type NamespaceScope, readableNamespaces, requireNamespacePermission, resolveNamespace } from "./namespace-access";

/**
 * The scope of the namespace holding mock `id` (active or in the recycle bin),
 * with `permission` checked there. `named` is the namespace the request named,
 * already resolved and checked by defineRoute.
 */
export async function mockScope(actor: Actor, named: NamespaceScope | undefined, id: string, permission: Permission): Promise<NamespaceScope> {
  if (named) return named;
  // Namespace ids first, so the mock lookup is a probe of the (namespaceId, id) unique index per namespace.
  const readable = await db().namespace.findMany({ where: readableNamespaces(actor), select: { id: true, name: true } });
  const nameOf = new Map(readable.map((n) => [n.id, n.name]));
  const rows = await db().mock.findMany({ where: { id, namespaceId: { in: [...nameOf.keys()] } }, select: { namespaceId: true } });
  const names = rows.map((r) => nameOf.get(r.namespaceId)!).sort();
  if (names.length === 0) throw errors.notFound("Mock");
  if (names.length > 1) {
    throw new AppError("conflict", `Mock '${id}' exists in namespaces ${names.map((n) => `'${n}'`).join(", ")}; name one with ?namespace= or X-Namespace`, {
      extra: { namespaces: names },
    });
  }
  const scope = await resolveNamespace(actor, names[0]);
  requireNamespacePermission(scope, permission);
  return scope;
}
