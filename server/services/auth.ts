// Password login, logout, the current user, profile and password changes.
import type { z } from "zod";
import type { Actor } from "@/server/auth/actor";
import type { ChangePasswordInput, LoginInput, UpdateProfileInput } from "@/server/contracts/auth";
import { db, type User } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import { burnPasswordCheck, hashPassword, verifyPassword } from "@/server/lib/password";
import { recordAudit } from "./audit";
import { sendVerificationEmail } from "./email-flows";
import { createSession, endSession, endUserSessions } from "./sessions";
import { meView } from "./views";

export interface ClientMeta {
  ip: string;
  userAgent?: string | null;
}

const INVALID_LOGIN = "Invalid username or password";

export async function loadMe(userId: string) {
  const user = await db().user.findUnique({
    where: { id: userId },
    include: { memberships: { select: { role: true, namespace: { select: { name: true, deletedAt: true } } } } },
  });
  if (!user) throw errors.unauthorized();
  return meView(user, user.memberships);
}

/** Every successful login (password, LDAP, OIDC via the same rules) ends here. */
export async function completeLogin(user: User, method: string, meta: ClientMeta) {
  if (user.disabledAt) {
    await recordAudit({ actorId: user.id, actorName: user.username, action: "auth.login", outcome: "failure", ip: meta.ip, details: { method, reason: "disabled" } });
    throw new AppError("unauthorized", "Your account is disabled");
  }
  await db().user.update({ where: { id: user.id }, data: { lastLoginAt: new Date() } });
  const session = await createSession(user.id, meta);
  await recordAudit({ actorId: user.id, actorName: user.username, action: "auth.login", ip: meta.ip, details: { method } });
  return { session, user: await loadMe(user.id) };
}

export async function recordFailedLogin(username: string, method: string, meta: ClientMeta, reason: string) {
  await recordAudit({ actorName: username.slice(0, 100), action: "auth.login", outcome: "failure", ip: meta.ip, details: { method, reason } });
}

export async function loginWithPassword(input: z.infer<typeof LoginInput>, meta: ClientMeta) {
  const user = await db().user.findUnique({ where: { username: input.username } });
  if (!user || !user.passwordHash) {
    await burnPasswordCheck(input.password);
    await recordFailedLogin(input.username, "password", meta, user ? "no local password" : "unknown user");
    throw new AppError("unauthorized", INVALID_LOGIN);
  }
  if (!(await verifyPassword(user.passwordHash, input.password))) {
    await recordFailedLogin(input.username, "password", meta, "wrong password");
    throw new AppError("unauthorized", INVALID_LOGIN);
  }
  return completeLogin(user, "password", meta);
}

export async function logout(actor: Actor) {
  if (actor.sessionId) await endSession(actor.sessionId);
  await recordAudit({ actor, action: "auth.logout" });
}

export async function updateProfile(actor: Actor, input: z.infer<typeof UpdateProfileInput>) {
  const current = await db().user.findUniqueOrThrow({ where: { id: actor.user.id } });
  const emailChanged = input.email !== undefined && input.email !== current.email;
  if (emailChanged && input.email) {
    const taken = await db().user.findFirst({ where: { email: input.email, id: { not: current.id } }, select: { id: true } });
    if (taken) throw errors.conflict("That e-mail address is used by another account", [{ location: "body", field: "email", message: "already used" }]);
  }
  const user = await db().user.update({
    where: { id: current.id },
    data: {
      fullName: input.fullName ?? undefined,
      ...(emailChanged ? { email: input.email, emailVerifiedAt: null } : {}),
    },
  });
  await recordAudit({ actor, action: "user.profile_update", targetType: "user", targetId: user.id, details: { fields: Object.keys(input) } });
  if (emailChanged && user.email) await sendVerificationEmail(user).catch(() => {});
  return loadMe(user.id);
}

export async function changePassword(actor: Actor, input: z.infer<typeof ChangePasswordInput>) {
  const user = await db().user.findUniqueOrThrow({ where: { id: actor.user.id } });
  if (user.authSource !== "local" && !user.passwordHash) {
    throw errors.validation(`Your password is managed by ${user.authSource.toUpperCase()}; change it there`);
  }
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) {
    await recordAudit({ actor, action: "auth.change_password", outcome: "failure", details: { reason: "wrong current password" } });
    throw errors.validation("Current password is wrong", [{ location: "body", field: "currentPassword", message: "does not match" }]);
  }
  await db().user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(input.newPassword) } });
  await endUserSessions(user.id, actor.sessionId);
  await recordAudit({ actor, action: "auth.change_password", targetType: "user", targetId: user.id });
  return { ok: true as const };
}
