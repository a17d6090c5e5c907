// Password reset and e-mail verification: single-use tokens sent by e-mail.
import { db, type User } from "@/server/db/client";
import { publicUrl } from "@/server/env";
import { errors } from "@/server/errors";
import { randomBase62, sha256Hex } from "@/server/lib/crypto";
import { hashPassword } from "@/server/lib/password";
import { recordAudit } from "./audit";
import { sendMail } from "./email";
import { endUserSessions } from "./sessions";

const RESET_TTL_MS = 60 * 60 * 1000; // 1 hour
const VERIFY_TTL_MS = 48 * 60 * 60 * 1000; // 48 hours

async function issue(kind: "password_reset" | "email_verify", user: User, ttlMs: number) {
  const token = randomBase62(43);
  await db().$transaction([
    // A new link replaces the previous unused one of the same kind.
    db().oneTimeToken.deleteMany({ where: { userId: user.id, kind, usedAt: null } }),
    db().oneTimeToken.create({
      data: { kind, userId: user.id, email: user.email, tokenHash: sha256Hex(token), expiresAt: new Date(Date.now() + ttlMs) },
    }),
  ]);
  return token;
}

export async function sendVerificationEmail(user: User) {
  if (!user.email) throw errors.validation("Your account has no e-mail address");
  const token = await issue("email_verify", user, VERIFY_TTL_MS);
  const link = `${publicUrl()}/verify-email?token=${token}`;
  await sendMail({
    to: user.email,
    subject: "Verify your e-mail address",
    text: `Hello ${user.fullName || user.username},\n\nconfirm that ${user.email} is your address by opening this link (valid for 48 hours):\n\n${link}\n`,
  });
}

/** Always succeeds from the caller's point of view: whether an address is known is not revealed. */
export async function forgotPassword(email: string, ip: string) {
  const user = await db().user.findUnique({ where: { email } });
  if (user && !user.disabledAt && user.authSource === "local") {
    const token = await issue("password_reset", user, RESET_TTL_MS);
    const link = `${publicUrl()}/reset-password?token=${token}`;
    await sendMail({
      to: email,
      subject: "Reset your password",
      text: `Hello ${user.fullName || user.username},\n\nsomeone asked to reset the password of ${user.username}. If it was you, open this link within an hour:\n\n${link}\n\nIf not, ignore this e-mail; your password stays as it is.\n`,
    });
    await recordAudit({ actorId: user.id, actorName: user.username, action: "auth.password_reset_requested", ip });
  } else {
    await recordAudit({ actorName: "anonymous", action: "auth.password_reset_requested", outcome: "failure", ip, details: { reason: "no matching local user" } });
  }
  return { accepted: true as const, message: "If the address belongs to an account, a reset link is on its way." };
}

async function consume(kind: "password_reset" | "email_verify", token: string) {
  const row = await db().oneTimeToken.findUnique({ where: { tokenHash: sha256Hex(token) }, include: { user: true } });
  if (!row || row.kind !== kind || row.usedAt || row.expiresAt <= new Date()) {
    throw errors.validation("This link is invalid or has expired; ask for a new one", [{ location: "body", field: "token", message: "invalid or expired" }]);
  }
  // Single use even under a double click: only one update can flip usedAt.
  const claimed = await db().oneTimeToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: new Date() } });
  if (claimed.count !== 1) throw errors.validation("This link was already used");
  return row;
}

export async function resetPassword(token: string, newPassword: string, ip: string) {
  const row = await consume("password_reset", token);
  await db().user.update({ where: { id: row.userId }, data: { passwordHash: await hashPassword(newPassword) } });
  await endUserSessions(row.userId);
  await recordAudit({ actorId: row.userId, actorName: row.user.username, action: "auth.password_reset", ip });
  return { ok: true as const };
}

export async function verifyEmail(token: string, ip: string) {
  const row = await consume("email_verify", token);
  if (row.email !== row.user.email) throw errors.validation("The address changed since this link was sent; ask for a new one");
  await db().user.update({ where: { id: row.userId }, data: { emailVerifiedAt: new Date() } });
  await recordAudit({ actorId: row.userId, actorName: row.user.username, action: "auth.email_verified", ip, details: { email: row.email } });
  return { ok: true as const };
}

export async function resendVerification(userId: string) {
  const user = await db().user.findUniqueOrThrow({ where: { id: userId } });
  if (user.emailVerifiedAt) throw errors.conflict("Your e-mail address is already verified");
  await sendVerificationEmail(user);
  return { accepted: true as const, message: `A verification link was sent to ${user.email}.` };
}
