// People lookup (spec "People lookup"): the members of one explicitly named
// Space, for the Share dialog's search and for showing ids as names. Only
// current, enabled members are ever returned: an id of a stranger, a disabled
// or a deleted user is left out, never an error, so it cannot be probed.
import type { Actor } from "@/server/auth/actor";
import type { Person } from "@/server/contracts/tester-sharing";
import { db } from "@/server/db/client";
import { errors } from "@/server/errors";
import { type NamespaceScope, pinnedNamespaceName, resolveNamespace } from "./namespace-access";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const personSelect = { id: true, username: true, fullName: true, email: true, avatarUrl: true } as const;

function personView(u: { id: string; username: string; fullName: string; email: string | null; avatarUrl: string | null }): Person {
  return { id: u.id, username: u.username, fullName: u.fullName, ...(u.email ? { email: u.email } : {}), ...(u.avatarUrl ? { avatarUrl: u.avatarUrl } : {}) };
}

/**
 * The Space named by the request, else the pinned token's; no `sandbox`
 * fallback here: a people list of a Space the caller did not mean is a leak.
 * Access to the Space is checked before anyone is read (404 as elsewhere).
 */
export async function explicitSpace(actor: Actor, named: NamespaceScope | undefined): Promise<NamespaceScope> {
  if (named) return named;
  const pinned = await pinnedNamespaceName(actor);
  if (!pinned) {
    throw errors.validation("Name the Space to look people up in: query namespace, header X-Service-Namespace, or a token pinned to one", [{ location: "query", field: "namespace", message: "required" }]);
  }
  return resolveNamespace(actor, pinned);
}

const enabledMemberOf = (scope: NamespaceScope) => ({ disabledAt: null, memberships: { some: { namespaceId: scope.id } } });

export async function searchPeople(scope: NamespaceScope, query: { q?: string; limit: number }) {
  const q = query.q?.trim();
  const text = q ? q.replace(/[\\%_]/g, "\\$&") : undefined;
  const users = await db().user.findMany({
    where: {
      ...enabledMemberOf(scope),
      ...(text ? { OR: [{ username: { contains: text, mode: "insensitive" } }, { fullName: { contains: text, mode: "insensitive" } }, { email: { contains: text, mode: "insensitive" } }] } : {}),
    },
    select: personSelect,
    orderBy: [{ username: "asc" }],
    take: query.limit,
  });
  return { users: users.map(personView) };
}

/** In the order asked, each once. */
export async function lookupPeople(scope: NamespaceScope, userIds: string[]) {
  const ids = [...new Set(userIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
  if (!ids.length) return { users: [] };
  const rows = await db().user.findMany({ where: { id: { in: ids }, ...enabledMemberOf(scope) }, select: personSelect });
  const byId = new Map(rows.map((u) => [u.id, u]));
  return { users: ids.flatMap((id) => (byId.has(id) ? [personView(byId.get(id)!)] : [])) };
}
