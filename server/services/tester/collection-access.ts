// Who may reach a collection from the caller's current Space, and how: its
// own Space (by the Space role, raised by a user share), or a Space it is
// shared into (view and copy only). Grants are checked against the current
// memberships and enabled state every time they are read, so a revoked or
// disabled membership stops a grant at once without any cleanup job.
import type { Actor } from "@/server/auth/actor";
import { isAdmin } from "@/server/auth/actor";
import { db, type Prisma, type TesterCollection } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import type { NamespaceScope } from "../namespace-access";
import { collectionNotFound } from "./access";

export type CollectionRole = "owner" | "editor" | "viewer";
export type CollectionAccessKind = "owner-space" | "shared-user" | "shared-space";
export type CollectionPurpose = "view" | "copy" | "edit" | "execute" | "schedule" | "generate-mocks";

export interface CollectionAccess extends CollectionReach {
  access: CollectionAccessKind;
  role: CollectionRole;
}

type Client = Prisma.TransactionClient | ReturnType<typeof db>;

const RANK: Record<CollectionRole, number> = { viewer: 0, editor: 1, owner: 2 };
const higher = (a: CollectionRole, b: CollectionRole) => (RANK[a] >= RANK[b] ? a : b);
const RUN_PURPOSES = new Set<CollectionPurpose>(["execute", "schedule", "generate-mocks"]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Person = { disabledAt: Date | null; memberships: { id: string }[] };
interface GrantLike {
  granterMembershipId: string | null;
  grantedBy: Person & { role: string };
  /** User shares only. */
  granteeMembershipId?: string;
  user?: Person | null;
}

/**
 * The read-time check of one grant. It counts while the people it names (the
 * grantee of a user share, and always the granter) are enabled and still
 * hold the membership of the collection's Space they held when it was made:
 * ids, not times, so a membership removed and given again later (a new row)
 * does not bring an old grant back, whatever the clocks say. A granter who
 * was an admin outside the Space must still be an admin.
 */
export function grantIsValid(grant: GrantLike): boolean {
  const holds = (p: Person, membershipId: string | null | undefined) => !!membershipId && p.memberships.some((m) => m.id === membershipId);
  if (grant.grantedBy.disabledAt) return false;
  if (grant.granterMembershipId ? !holds(grant.grantedBy, grant.granterMembershipId) : grant.grantedBy.role !== "admin") return false;
  if (grant.user !== undefined) {
    if (!grant.user || grant.user.disabledAt || !holds(grant.user, grant.granteeMembershipId)) return false;
  }
  return true;
}

/** What a grant query includes so grantIsValid can judge it. */
export function grantPeople(ownerNamespaceId: string) {
  const memberships = { where: { namespaceId: ownerNamespaceId }, select: { id: true } } as const;
  return {
    grantedBy: { select: { username: true, disabledAt: true, role: true, memberships } },
    user: { select: { id: true, username: true, fullName: true, email: true, avatarUrl: true, disabledAt: true, memberships } },
  } as const;
}

/** The membership ids of these users in a Space (what a new grant records). */
export async function membershipIds(client: Client, namespaceId: string, userIds: string[]): Promise<Map<string, string>> {
  const rows = await client.membership.findMany({ where: { namespaceId, userId: { in: userIds } }, select: { id: true, userId: true } });
  return new Map(rows.map((m) => [m.userId, m.id]));
}

function ownerScopeOf(ns: { id: string; name: string }, role: CollectionRole | null, permissions: NamespaceScope["permissions"]): NamespaceScope {
  return { id: ns.id, name: ns.name, role, permissions };
}

/** The caller's effective user-share role on a collection of their current Space, if a valid grant gives one. */
export async function userGrantRole(client: Client, actor: Actor, collection: Pick<TesterCollection, "id" | "namespaceId">): Promise<CollectionRole | null> {
  const grant = await client.testerCollectionUserGrant.findUnique({
    where: { collectionId_userId: { collectionId: collection.id, userId: actor.user.id } },
    include: grantPeople(collection.namespaceId),
  });
  return grant && grantIsValid(grant) ? (grant.role as CollectionRole) : null;
}

export interface CollectionReach {
  collection: TesterCollection;
  /** Shared from another Space: viewable and copyable here, never runnable. */
  crossSpace: boolean;
  /** The collection's own Space (the caller's scope when it is the same). */
  ownerScope: NamespaceScope;
}

/**
 * Whether a collection can be seen from the caller's current Space at all:
 * it belongs to it, or a valid Space share puts it there. Anything else (a
 * collection of another Space, a deleted owner Space, a bad id) is 404, like
 * an unreadable namespace. A shared collection in its owner's trash is not
 * reachable from other Spaces: the owner took it out of use.
 */
export async function reachCollection(scope: NamespaceScope, collectionId: string, client: Client = db()): Promise<CollectionReach> {
  if (!UUID.test(collectionId)) throw collectionNotFound(scope, collectionId);
  const row = await client.testerCollection.findUnique({ where: { id: collectionId }, include: { namespace: { select: { id: true, name: true, deletedAt: true } } } });
  if (!row || row.namespace.deletedAt) throw collectionNotFound(scope, collectionId);
  const { namespace, ...collection } = row;
  if (row.namespaceId === scope.id) return { collection, crossSpace: false, ownerScope: scope };
  if (row.deletedAt) throw collectionNotFound(scope, collectionId);
  const grant = await client.testerCollectionSpaceGrant.findUnique({
    where: { collectionId_namespaceId: { collectionId, namespaceId: scope.id } },
    include: { grantedBy: grantPeople(row.namespaceId).grantedBy },
  });
  if (!grant || !grantIsValid(grant)) throw collectionNotFound(scope, collectionId);
  return { collection, crossSpace: true, ownerScope: ownerScopeOf(namespace, null, ["read"]) };
}

/**
 * The one way the tester decides what the caller may do with a collection
 * from their current Space: in its own Space by the Space role, raised by a
 * valid user share; from a Space it is shared into, view and copy only.
 */
export async function resolveCollectionAccess(actor: Actor, scope: NamespaceScope, collectionId: string, client: Client = db()): Promise<CollectionAccess> {
  const reach = await reachCollection(scope, collectionId, client);
  if (reach.crossSpace) return { ...reach, access: "shared-space", role: "viewer" };
  const spaceRole: CollectionRole = scope.role ?? (isAdmin(actor) ? "owner" : "viewer");
  const shared = await userGrantRole(client, actor, reach.collection);
  const role = shared ? higher(spaceRole, shared) : spaceRole;
  return { ...reach, access: shared && RANK[shared] > RANK[spaceRole] ? "shared-user" : "owner-space", role };
}

/** A saved request the caller can see from their Space (its collection's own, or one shared into it). */
export async function reachRequest(scope: NamespaceScope, requestId: string, client: Client = db()) {
  const notFound = () => new AppError("not_found", `Request '${requestId}' not found in namespace '${scope.name}'`);
  if (!UUID.test(requestId)) throw notFound();
  const row = await client.testerRequest.findUnique({ where: { id: requestId } });
  if (!row) throw notFound();
  try {
    return { request: row, ...(await reachCollection(scope, row.collectionId, client)) };
  } catch (err) {
    if (err instanceof AppError && err.code === "not_found") throw notFound();
    throw err;
  }
}

export function refuseCrossSpace(reach: Pick<CollectionReach, "crossSpace" | "collection" | "ownerScope">, purpose: CollectionPurpose) {
  if (reach.crossSpace && (RUN_PURPOSES.has(purpose) || purpose === "edit")) throw crossSpaceRefused(reach, purpose);
}

export function crossSpaceRefused(access: Pick<CollectionReach, "collection" | "ownerScope">, purpose: CollectionPurpose) {
  const what = purpose === "generate-mocks" ? "generate mocks from it" : purpose === "schedule" ? "schedule it" : purpose === "edit" ? "change it" : "run it";
  return errors.forbidden(`Collection '${access.collection.name}' is shared from Space '${access.ownerScope.name}': it can be viewed and copied here, not used to ${what}`);
}

/**
 * For every tester feature that takes a collection id: 404 when the caller
 * cannot reach it, 403 when it is shared from another Space and the purpose
 * is to run it (execute, schedule, generate mocks) — decided from the grant
 * alone, before any of the collection's content is read.
 */
export async function assertCollectionUsable(actor: Actor, scope: NamespaceScope, collectionId: string, purpose: CollectionPurpose): Promise<CollectionAccess> {
  const access = await resolveCollectionAccess(actor, scope, collectionId);
  refuseCrossSpace(access, purpose);
  return access;
}

/** The same for a saved request, by its collection: 404 names the request. */
export async function assertRequestUsable(actor: Actor, scope: NamespaceScope, requestId: string, purpose: CollectionPurpose): Promise<CollectionAccess> {
  const { request } = await reachRequest(scope, requestId);
  return assertCollectionUsable(actor, scope, request.collectionId, purpose);
}
