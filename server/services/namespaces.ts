// Namespaces and their members.
import type { z } from "zod";
import { type Actor, isAdmin } from "@/server/auth/actor";
import type { AddMemberInput, CreateNamespaceInput } from "@/server/contracts/namespaces";
import { db, Prisma } from "@/server/db/client";
import { notifyMocksChanged } from "@/server/db/notify";
import { notifyProtocolServersChanged } from "./protocol-servers";
import { errors } from "@/server/errors";
import { recordAudit } from "./audit";
import { canManageMembers, type MemberRole, namespaceNotFound, type NamespaceScope, readableNamespaces, ROLE_PERMISSIONS } from "./namespace-access";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function createNamespace(actor: Actor, input: z.infer<typeof CreateNamespaceInput>) {
  if (actor.pinnedNamespaceId) throw errors.forbidden("A credential pinned to a namespace cannot create namespaces");
  let ownerId = actor.user.id;
  if (input.owner && input.owner !== actor.user.username) {
    if (!isAdmin(actor)) throw errors.forbidden("Only admins can create a namespace for another owner");
    const owner = await db().user.findUnique({ where: { username: input.owner }, select: { id: true } });
    if (!owner) throw errors.validation(`No user '${input.owner}'`, [{ location: "body", field: "owner", message: "unknown user" }]);
    ownerId = owner.id;
  }
  try {
    const ns = await db().namespace.create({
      data: {
        name: input.name,
        description: input.description ?? "",
        ownerId,
        memberships: { create: { userId: ownerId, role: "owner" } },
      },
    });
    await recordAudit({ actor, action: "namespace.create", namespace: ns.name, targetType: "namespace", targetId: ns.id });
    const role: MemberRole | null = ownerId === actor.user.id ? "owner" : null;
    return {
      id: ns.id,
      name: ns.name,
      description: ns.description,
      role,
      permissions: ROLE_PERMISSIONS.owner.filter((p) => actor.permissions.includes(p)),
      createdAt: ns.createdAt.toISOString(),
    };
  } catch (err) {
    if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
      throw errors.conflict(`Namespace '${input.name}' already exists`, [{ location: "body", field: "name", message: "already exists" }]);
    }
    throw err;
  }
}

export async function listNamespaces(actor: Actor) {
  const rows = await db().namespace.findMany({
    where: readableNamespaces(actor),
    orderBy: { name: "asc" },
    include: { memberships: { where: { userId: actor.user.id }, select: { role: true } } },
  });
  const namespaces = rows.map((ns) => {
    const role = (ns.memberships[0]?.role ?? null) as MemberRole | null;
    const granted = role ? ROLE_PERMISSIONS[role] : ROLE_PERMISSIONS.owner;
    return {
      id: ns.id,
      name: ns.name,
      description: ns.description,
      role,
      permissions: granted.filter((p) => actor.permissions.includes(p)),
      createdAt: ns.createdAt.toISOString(),
    };
  });
  return { namespaces, count: namespaces.length };
}

/**
 * REST's list: every public client decodes `namespaces` as a list of names;
 * `?detail=true` gives the rows the console (tRPC) gets.
 */
export async function listNamespacesForApi(actor: Actor, detail: boolean) {
  const list = await listNamespaces(actor);
  return detail ? list : { namespaces: list.namespaces.map((ns) => ns.name), count: list.count };
}

// ---- Administration --------------------------------------------------------

const adminInclude = { owner: { select: { id: true, username: true } }, _count: { select: { memberships: true } } } as const;
type AdminRow = Prisma.NamespaceGetPayload<{ include: typeof adminInclude }>;

function adminView(ns: AdminRow) {
  return {
    id: ns.id,
    name: ns.name,
    description: ns.description,
    owner: ns.owner,
    memberCount: ns._count.memberships,
    createdAt: ns.createdAt.toISOString(),
    deletedAt: iso(ns.deletedAt),
  };
}

export async function adminListNamespaces(query: { includeDeleted?: boolean; search?: string }) {
  const rows = await db().namespace.findMany({
    where: {
      ...(query.includeDeleted ? {} : { deletedAt: null }),
      ...(query.search ? { name: { contains: query.search, mode: "insensitive" as const } } : {}),
    },
    include: adminInclude,
    orderBy: { name: "asc" },
  });
  return { namespaces: rows.map(adminView), count: rows.length };
}

async function findNamespace(name: string) {
  const ns = await db().namespace.findUnique({ where: { name }, include: adminInclude });
  if (!ns) throw namespaceNotFound(name);
  return ns;
}

export async function adminDeleteNamespace(actor: Actor, name: string) {
  const ns = await findNamespace(name);
  if (ns.deletedAt) return adminView(ns);
  const row = await db().namespace.update({ where: { id: ns.id }, data: { deletedAt: new Date() }, include: adminInclude });
  await notifyMocksChanged(ns.id); // every process stops serving its stubs
  await notifyProtocolServersChanged(ns.id); // and the runner closes its listeners
  await recordAudit({ actor, action: "admin.namespace_delete", namespace: name, targetType: "namespace", targetId: ns.id });
  return adminView(row);
}

export async function adminRestoreNamespace(actor: Actor, name: string) {
  const ns = await findNamespace(name);
  const row = await db().namespace.update({ where: { id: ns.id }, data: { deletedAt: null }, include: adminInclude });
  await notifyMocksChanged(ns.id);
  await notifyProtocolServersChanged(ns.id);
  await recordAudit({ actor, action: "admin.namespace_restore", namespace: name, targetType: "namespace", targetId: ns.id });
  return adminView(row);
}

const memberInclude = { user: { select: { id: true, username: true, fullName: true, email: true, disabledAt: true } } } as const;
type MemberRow = Prisma.MembershipGetPayload<{ include: typeof memberInclude }>;

function memberView(m: MemberRow) {
  return {
    userId: m.user.id,
    username: m.user.username,
    fullName: m.user.fullName,
    email: m.user.email,
    role: m.role,
    disabled: Boolean(m.user.disabledAt),
    addedAt: m.createdAt.toISOString(),
  };
}

export async function listMembers(name: string) {
  const ns = await findNamespace(name);
  const rows = await db().membership.findMany({ where: { namespaceId: ns.id }, include: memberInclude, orderBy: { user: { username: "asc" } } });
  return { users: rows.map(memberView), count: rows.length };
}

export async function addMember(actor: Actor, name: string, input: z.infer<typeof AddMemberInput>) {
  const ns = await findNamespace(name);
  const user = await db().user.findFirst({
    where: input.userId ? { id: input.userId } : { username: input.username },
    select: { id: true },
  });
  if (!user) throw errors.notFound("User");
  const row = await db().membership.upsert({
    where: { namespaceId_userId: { namespaceId: ns.id, userId: user.id } },
    create: { namespaceId: ns.id, userId: user.id, role: input.role },
    update: { role: input.role },
    include: memberInclude,
  });
  await recordAudit({ actor, action: "admin.namespace_member_add", namespace: name, targetType: "user", targetId: user.id, details: { role: input.role } });
  return memberView(row);
}

async function membership(name: string, userId: string) {
  const ns = await findNamespace(name);
  const m = await db().membership.findUnique({ where: { namespaceId_userId: { namespaceId: ns.id, userId } }, include: memberInclude });
  if (!m) throw errors.notFound("Member");
  return { ns, m };
}

async function assertNotLastOwner(namespaceId: string, userId: string) {
  const owners = await db().membership.count({ where: { namespaceId, role: "owner", userId: { not: userId } } });
  if (owners === 0) throw errors.conflict("A namespace must keep at least one owner");
}

export async function removeMember(actor: Actor, name: string, userId: string) {
  const { ns, m } = await membership(name, userId);
  if (m.role === "owner") await assertNotLastOwner(ns.id, userId);
  await db().membership.delete({ where: { id: m.id } });
  await recordAudit({ actor, action: "admin.namespace_member_remove", namespace: name, targetType: "user", targetId: userId });
  return { ok: true as const };
}

export async function setMemberRole(actor: Actor, name: string, userId: string, role: MemberRole) {
  const { ns, m } = await membership(name, userId);
  if (m.role === "owner" && role !== "owner") await assertNotLastOwner(ns.id, userId);
  const row = await db().membership.update({ where: { id: m.id }, data: { role }, include: memberInclude });
  await recordAudit({ actor, action: "admin.namespace_member_role", namespace: name, targetType: "user", targetId: userId, details: { from: m.role, to: role } });
  return memberView(row);
}

// ---- Self-service membership (namespace owners) ----------------------------

export function assertCanManageMembers(actor: Actor, scope: NamespaceScope) {
  if (!canManageMembers(actor, scope)) throw errors.forbidden(`Only owners of '${scope.name}' can manage its members`);
}
