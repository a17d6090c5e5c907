// Administration of user accounts.
import type { z } from "zod";
import type { Actor } from "@/server/auth/actor";
import type { AdminUserQuery, CreateUserInput, UpdateUserInput } from "@/server/contracts/users";
import { db, Prisma } from "@/server/db/client";
import { errors } from "@/server/errors";
import { hashPassword } from "@/server/lib/password";
import { recordAudit } from "./audit";
import { emailConfigured } from "./email";
import { sendVerificationEmail } from "./email-flows";
import { endUserSessions } from "./sessions";
import { adminUserView } from "./views";

const withCount = { _count: { select: { memberships: true } } } as const;

function uniqueViolation(err: unknown): never {
  if (err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") {
    const target = String((err.meta?.target as string[] | string | undefined) ?? "");
    const field = target.includes("email") ? "email" : "username";
    throw errors.conflict(`That ${field} is already taken`, [{ location: "body", field, message: "already taken" }]);
  }
  throw err;
}

export async function listUsers(query: z.infer<typeof AdminUserQuery>) {
  const where: Prisma.UserWhereInput = {
    ...(query.includeDisabled === false ? { disabledAt: null } : {}),
    ...(query.search
      ? {
          OR: [
            { username: { contains: query.search, mode: "insensitive" } },
            { email: { contains: query.search, mode: "insensitive" } },
            { fullName: { contains: query.search, mode: "insensitive" } },
          ],
        }
      : {}),
  };
  const [rows, total] = await db().$transaction([
    db().user.findMany({ where, include: withCount, orderBy: { username: "asc" }, skip: query.offset, take: query.limit }),
    db().user.count({ where }),
  ]);
  return { users: rows.map(adminUserView), total, limit: query.limit, offset: query.offset };
}

async function findUser(id: string) {
  const user = await db().user.findUnique({ where: { id }, include: withCount });
  if (!user) throw errors.notFound("User");
  return user;
}

export async function createUser(actor: Actor, input: CreateUserInput) {
  const passwordHash = input.password ? await hashPassword(input.password) : null;
  const namespaces = input.namespaces ?? [];
  const user = await db()
    .$transaction(async (tx) => {
      const created = await tx.user.create({
        data: { username: input.username, email: input.email ?? null, fullName: input.fullName ?? "", role: input.role, passwordHash },
      });
      for (const m of namespaces) {
        const ns = await tx.namespace.findUnique({ where: { name: m.name }, select: { id: true, deletedAt: true } });
        if (!ns || ns.deletedAt) throw errors.validation(`Namespace '${m.name}' does not exist`, [{ location: "body", field: "namespaces", message: `unknown namespace ${m.name}` }]);
        await tx.membership.create({ data: { namespaceId: ns.id, userId: created.id, role: m.role } });
      }
      return tx.user.findUniqueOrThrow({ where: { id: created.id }, include: withCount });
    })
    .catch(uniqueViolation);
  await recordAudit({ actor, action: "admin.user_create", targetType: "user", targetId: user.id, details: { username: user.username, role: user.role } });
  if (user.email && (await emailConfigured())) await sendVerificationEmail(user).catch(() => {});
  return adminUserView(user);
}

export async function updateUser(actor: Actor, id: string, input: z.infer<typeof UpdateUserInput>) {
  const current = await findUser(id);
  if (input.role === "user" && current.role === "admin") await assertAnotherAdmin(id);
  const emailChanged = input.email !== undefined && input.email !== current.email;
  const user = await db()
    .user.update({
      where: { id },
      data: {
        username: input.username,
        fullName: input.fullName,
        role: input.role,
        ...(emailChanged ? { email: input.email, emailVerifiedAt: null } : {}),
      },
      include: withCount,
    })
    .catch(uniqueViolation);
  await recordAudit({ actor, action: "admin.user_update", targetType: "user", targetId: id, details: { fields: Object.keys(input) } });
  if (emailChanged && user.email && (await emailConfigured())) await sendVerificationEmail(user).catch(() => {});
  return adminUserView(user);
}

async function assertAnotherAdmin(exceptId: string) {
  const admins = await db().user.count({ where: { role: "admin", disabledAt: null, id: { not: exceptId } } });
  if (admins === 0) throw errors.conflict("This is the last active admin; make someone else admin first");
}

export async function deleteUser(actor: Actor, id: string) {
  const user = await findUser(id);
  if (id === actor.user.id) throw errors.conflict("You cannot delete your own account");
  if (user.role === "admin") await assertAnotherAdmin(id);
  await db().user.delete({ where: { id } });
  await recordAudit({ actor, action: "admin.user_delete", targetType: "user", targetId: id, details: { username: user.username } });
  return { ok: true as const };
}

export async function setUserPassword(actor: Actor, id: string, password: string) {
  await findUser(id);
  await db().user.update({ where: { id }, data: { passwordHash: await hashPassword(password) } });
  await endUserSessions(id);
  await recordAudit({ actor, action: "admin.user_set_password", targetType: "user", targetId: id });
  return { ok: true as const };
}

export async function setUserDisabled(actor: Actor, id: string, disabled: boolean) {
  const current = await findUser(id);
  if (disabled && id === actor.user.id) throw errors.conflict("You cannot disable your own account");
  if (disabled && current.role === "admin") await assertAnotherAdmin(id);
  const user = await db().user.update({ where: { id }, data: { disabledAt: disabled ? new Date() : null }, include: withCount });
  if (disabled) await endUserSessions(id);
  await recordAudit({ actor, action: disabled ? "admin.user_disable" : "admin.user_enable", targetType: "user", targetId: id });
  return adminUserView(user);
}
