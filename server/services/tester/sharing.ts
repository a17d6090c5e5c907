// Sharing a collection (spec "Sharing rules"): with members of its own Space
// (user shares, viewer or editor) and into other Spaces (view and copy
// there). Sharing never adds anyone to a Space. Sharing is managed from the
// collection's own Space; changes are refused while it is in the trash.
// Grants are judged valid when read (collection-access.ts), so the lists
// here show only the ones that still count.
import type { Actor } from "@/server/auth/actor";
import type { ShareRole, ShareSpacesInput, ShareUsersInput, SpaceShare, UserShare } from "@/server/contracts/tester-sharing";
import { db } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import { type NamespaceScope, resolveNamespace } from "../namespace-access";
import { inTrash, lockCollections, transaction, type Tx } from "./access";
import { type CollectionAccess, grantIsValid, grantPeople, membershipIds, resolveCollectionAccess } from "./collection-access";

type Client = Tx | ReturnType<typeof db>;

/** The collection whose sharing is read or changed; never from another Space. */
async function managed(actor: Actor, scope: NamespaceScope, id: string, opts: { change: boolean; client?: Client }): Promise<CollectionAccess> {
  const access = await resolveCollectionAccess(actor, scope, id, opts.client);
  if (access.crossSpace) throw errors.forbidden(`Collection '${access.collection.name}' is shared from Space '${access.ownerScope.name}'; its sharing is managed there`);
  if (opts.change) {
    if (access.collection.deletedAt) throw inTrash(access.collection);
    if (!actor.permissions.includes("write")) throw errors.forbidden("Changing sharing needs a credential with 'write' permission");
  }
  return access;
}

function refuseEditGrant(access: CollectionAccess, roles: ShareRole[]) {
  if (access.role === "viewer" && roles.includes("editor")) {
    throw errors.forbidden(`A viewer of collection '${access.collection.name}' cannot grant edit rights`);
  }
}

/** Locked for the change, then read again: a trash move in between is seen (409), not overwritten. */
async function lockedForChange(tx: Tx, actor: Actor, scope: NamespaceScope, id: string): Promise<CollectionAccess> {
  await managed(actor, scope, id, { change: true, client: tx });
  await lockCollections(tx, [id]);
  return managed(actor, scope, id, { change: true, client: tx });
}

// ---- user shares ------------------------------------------------------------------

type GrantRow = Awaited<ReturnType<typeof userGrantRows>>[number];

function userGrantRows(client: Client, collectionId: string, ownerNamespaceId: string, userId?: string) {
  return client.testerCollectionUserGrant.findMany({
    where: { collectionId, ...(userId ? { userId } : {}) },
    include: grantPeople(ownerNamespaceId),
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

function userShareView(g: GrantRow): UserShare {
  return {
    id: g.user.id,
    userId: g.user.id,
    username: g.user.username,
    fullName: g.user.fullName,
    ...(g.user.email ? { email: g.user.email } : {}),
    ...(g.user.avatarUrl ? { avatarUrl: g.user.avatarUrl } : {}),
    role: g.role as ShareRole,
    grantedBy: g.grantedBy.username,
    createdAt: g.createdAt.toISOString(),
  };
}

async function currentUserShares(client: Client, access: CollectionAccess): Promise<UserShare[]> {
  const rows = await userGrantRows(client, access.collection.id, access.collection.namespaceId);
  return rows.filter(grantIsValid).map(userShareView);
}

/** `users` and `userIds` (+ `role`) merged in order; a user named twice keeps the last role. */
function shareEntries(input: ShareUsersInput): { userId: string; role: ShareRole; field: string }[] {
  const out = new Map<string, { userId: string; role: ShareRole; field: string }>();
  input.users?.forEach((u, i) => out.set(u.userId, { userId: u.userId, role: u.role, field: `users.${i}.userId` }));
  input.userIds?.forEach((userId, i) => out.set(userId, { userId, role: input.role ?? "viewer", field: `userIds.${i}` }));
  return [...out.values()];
}

export async function shareWithUsers(actor: Actor, scope: NamespaceScope, id: string, input: ShareUsersInput) {
  const entries = shareEntries(input);
  return transaction(async (tx) => {
    const access = await lockedForChange(tx, actor, scope, id);
    refuseEditGrant(access, entries.map((e) => e.role));
    const spaceId = access.collection.namespaceId;
    // Only current, enabled members: sharing is not a way into a Space.
    const enabled = new Set((await tx.user.findMany({ where: { id: { in: entries.map((e) => e.userId) }, disabledAt: null }, select: { id: true } })).map((u) => u.id));
    const memberships = await membershipIds(tx, spaceId, [...entries.map((e) => e.userId), actor.user.id]);
    const refused = entries.filter((e) => !enabled.has(e.userId) || !memberships.has(e.userId));
    if (refused.length) {
      throw errors.validation(
        `User '${refused[0].userId}' is not a current, enabled member of Space '${access.ownerScope.name}'; a collection is shared only with members of its Space`,
        refused.map((e) => ({ location: "body" as const, field: e.field, message: `user '${e.userId}' is not an enabled member of '${access.ownerScope.name}'` })),
      );
    }
    const now = new Date();
    const granterMembershipId = memberships.get(actor.user.id) ?? null;
    for (const e of entries) {
      // A re-share starts the grant afresh: it records today's memberships.
      const grant = { role: e.role, grantedById: actor.user.id, granteeMembershipId: memberships.get(e.userId)!, granterMembershipId, createdAt: now };
      await tx.testerCollectionUserGrant.upsert({
        where: { collectionId_userId: { collectionId: id, userId: e.userId } },
        create: { collectionId: id, userId: e.userId, ...grant },
        update: grant,
      });
    }
    return { users: await currentUserShares(tx, access) };
  });
}

export async function listUserShares(actor: Actor, scope: NamespaceScope, id: string) {
  const access = await managed(actor, scope, id, { change: false });
  return { users: await currentUserShares(db(), access) };
}

/** A grant that no longer counts is reported like one that never existed. */
async function existingGrant(tx: Tx, access: CollectionAccess, userId: string): Promise<GrantRow> {
  const [grant] = await userGrantRows(tx, access.collection.id, access.collection.namespaceId, userId);
  if (!grant || !grantIsValid(grant)) throw new AppError("not_found", `Collection '${access.collection.name}' is not shared with user '${userId}'`);
  return grant;
}

/** Editors and owners manage every share; anyone else only the ones they gave (and their own, to leave). */
function canManage(actor: Actor, access: CollectionAccess, grant: { grantedById: string; userId?: string }) {
  return access.role !== "viewer" || grant.grantedById === actor.user.id || grant.userId === actor.user.id;
}

export async function setUserShareRole(actor: Actor, scope: NamespaceScope, id: string, userId: string, role: ShareRole): Promise<UserShare> {
  return transaction(async (tx) => {
    const access = await lockedForChange(tx, actor, scope, id);
    const grant = await existingGrant(tx, access, userId);
    refuseEditGrant(access, [role]);
    if (!canManage(actor, access, grant)) throw errors.forbidden(`Only an editor of collection '${access.collection.name}' or whoever shared it may change this share`);
    await tx.testerCollectionUserGrant.update({ where: { id: grant.id }, data: { role } });
    return userShareView({ ...grant, role });
  });
}

export async function removeUserShare(actor: Actor, scope: NamespaceScope, id: string, userId: string) {
  return transaction(async (tx) => {
    const access = await lockedForChange(tx, actor, scope, id);
    const grant = await existingGrant(tx, access, userId);
    if (!canManage(actor, access, grant)) throw errors.forbidden(`Only an editor of collection '${access.collection.name}' or whoever shared it may remove this share`);
    await tx.testerCollectionUserGrant.delete({ where: { id: grant.id } });
    return { ok: true as const };
  });
}

// ---- Space shares -----------------------------------------------------------------

async function currentSpaceShares(client: Client, access: CollectionAccess): Promise<SpaceShare[]> {
  const rows = await client.testerCollectionSpaceGrant.findMany({
    where: { collectionId: access.collection.id, namespace: { deletedAt: null } },
    include: { namespace: { select: { name: true } }, grantedBy: grantPeople(access.collection.namespaceId).grantedBy },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.filter(grantIsValid).map((g) => ({ namespace: g.namespace.name, role: g.role as ShareRole, grantedBy: g.grantedBy.username, createdAt: g.createdAt.toISOString() }));
}

export async function shareWithSpaces(actor: Actor, scope: NamespaceScope, id: string, input: ShareSpacesInput) {
  const targets = input.namespaces.map((t, i) => (typeof t === "string" ? { name: t, role: input.role ?? "viewer", i } : { name: t.namespace, role: t.role, i }));
  return transaction(async (tx) => {
    const access = await lockedForChange(tx, actor, scope, id);
    refuseEditGrant(access, targets.map((t) => t.role));
    const resolved: { namespaceId: string; role: ShareRole }[] = [];
    for (const t of targets) {
      // A Space the granter cannot read is "not found", exactly as everywhere else.
      const target = await resolveNamespace(actor, t.name);
      if (target.id === access.collection.namespaceId) {
        throw errors.validation(`Collection '${access.collection.name}' already belongs to Space '${t.name}'`, [{ location: "body", field: `namespaces.${t.i}`, message: "the collection's own Space" }]);
      }
      resolved.push({ namespaceId: target.id, role: t.role });
    }
    const now = new Date();
    const granterMembershipId = (await membershipIds(tx, access.collection.namespaceId, [actor.user.id])).get(actor.user.id) ?? null;
    for (const r of resolved) {
      const grant = { role: r.role, grantedById: actor.user.id, granterMembershipId, createdAt: now };
      await tx.testerCollectionSpaceGrant.upsert({
        where: { collectionId_namespaceId: { collectionId: id, namespaceId: r.namespaceId } },
        create: { collectionId: id, namespaceId: r.namespaceId, ...grant },
        update: grant,
      });
    }
    return { spaces: await currentSpaceShares(tx, access) };
  });
}

export async function listSpaceShares(actor: Actor, scope: NamespaceScope, id: string) {
  const access = await managed(actor, scope, id, { change: false });
  return { spaces: await currentSpaceShares(db(), access) };
}

export async function removeSpaceShare(actor: Actor, scope: NamespaceScope, id: string, namespace: string) {
  return transaction(async (tx) => {
    const access = await lockedForChange(tx, actor, scope, id);
    const grant = await tx.testerCollectionSpaceGrant.findFirst({
      where: { collectionId: id, namespace: { name: namespace, deletedAt: null } },
      include: { grantedBy: grantPeople(access.collection.namespaceId).grantedBy },
    });
    if (!grant || !grantIsValid(grant)) throw new AppError("not_found", `Collection '${access.collection.name}' is not shared into Space '${namespace}'`);
    if (!canManage(actor, access, grant)) throw errors.forbidden(`Only an editor of collection '${access.collection.name}' or whoever shared it may remove this share`);
    await tx.testerCollectionSpaceGrant.delete({ where: { id: grant.id } });
    return { ok: true as const };
  });
}
