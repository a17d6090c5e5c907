// Password reset and e-mail verification: single-use tokens sent by e-mail.
import { db, type User } from "@/server/db/client";
import { publicUrl } from "@/server/env";
import { AppError, errors } from "@/server/errors";
import { randomBase62, sha256Hex } from "@/server/lib/crypto";
import { logger } from "@/server/lib/logger";
import { hashPassword } from "@/server/lib/password";
import { recordAudit } from "./audit";
import { emailConfigured, type Mail, sendMail } from "./email";
import { endUserSessions } from "./sessions";

const RESET_TTL_MS = 60 * 60 * 1000; // 1 hour
const VERIFY_TTL_MS = 48 * 60 * 60 * 1000; // 48 hours

type TokenKind = "password_reset" | "email_verify";
type TokenLocation = "body" | "query";

function invalidLink(location: TokenLocation, message = "This link is invalid or has expired; ask for a new one") {
  return errors.validation(message, [{ location, field: "token", message: "invalid or expired" }]);
}

async function issue(kind: TokenKind, user: User, ttlMs: number) {
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
  try {
    await sendMail({
      to: user.email,
      subject: "Verify your e-mail address",
      text: `Hello ${user.fullName || user.username},\n\nconfirm that ${user.email} is your address by opening this link (valid for 48 hours):\n\n${link}\n`,
    });
  } catch (err) {
    // Account creation and profile changes swallow this error so that the change itself
    // still succeeds; the log is then the only place an admin can see why no mail came.
    const unavailable = err instanceof AppError && err.code === "unavailable";
    logger()[unavailable ? "info" : "warn"]({ err, userId: user.id }, "verification e-mail not sent");
    throw err;
  }
}

/**
 * Answers the same for every address, so whether one belongs to an account is not
 * revealed: not by the status, not by an SMTP error, not by the time it takes.
 */
export async function forgotPassword(email: string, ip: string) {
  // Without SMTP no link can arrive. Saying so is the same answer for every address.
  if (!(await emailConfigured())) throw errors.unavailable("Password reset by e-mail is not available: an admin has not set up SMTP");
  const user = await findUserByEmail(email);
  if (user?.email && !user.disabledAt && user.authSource === "local") {
    const token = await issue("password_reset", user, RESET_TTL_MS);
    await recordAudit({ actorId: user.id, actorName: user.username, action: "auth.password_reset_requested", ip });
    // Delivered after the response: awaiting the SMTP round trip would make known
    // addresses measurably slower than unknown ones, and a delivery failure must not
    // change the answer either. The web process is long-lived, so the send completes.
    void deliverInBackground(user, {
      to: user.email,
      subject: "Reset your password",
      text: `Hello ${user.fullName || user.username},\n\nsomeone asked to reset the password of ${user.username}. If it was you, open this link within an hour:\n\n${publicUrl()}/reset-password?token=${token}\n\nIf not, ignore this e-mail; your password stays as it is.\n`,
    }, ip);
  } else {
    await recordAudit({ actorName: "anonymous", action: "auth.password_reset_requested", outcome: "failure", ip, details: { reason: "no matching local user" } });
  }
  return { accepted: true as const, message: "If the address belongs to an account, a reset link is on its way." };
}

async function deliverInBackground(user: User, mail: Mail, ip: string) {
  try {
    await sendMail(mail);
  } catch (err) {
    logger().warn({ err, userId: user.id }, "password reset e-mail not sent");
    await recordAudit({
      actorId: user.id,
      actorName: user.username,
      action: "auth.password_reset_mail_failed",
      outcome: "failure",
      ip,
      details: { message: (err as Error).message },
    }).catch((auditErr: unknown) => logger().error({ err: auditErr }, "could not audit a failed reset e-mail"));
  }
}

async function findUserByEmail(email: string): Promise<User | null> {
  const exact = await db().user.findUnique({ where: { email } });
  if (exact) return exact;
  // Addresses are stored as typed and the unique index is case-sensitive, but people
  // rarely retype an address in the same case. Two accounts differing only in case
  // are ambiguous: neither gets a link.
  const matches = await db().user.findMany({ where: { email: { equals: email, mode: "insensitive" } }, take: 2 });
  return matches.length === 1 ? matches[0] : null;
}

async function consume(kind: TokenKind, token: string, location: TokenLocation) {
  const row = await db().oneTimeToken.findUnique({ where: { tokenHash: sha256Hex(token) }, include: { user: true } });
  if (!row || row.kind !== kind || row.usedAt || row.expiresAt <= new Date()) throw invalidLink(location);
  // A link speaks only for the address it was sent to: after the account's address
  // changed, whoever reads the old mailbox must not reset the password or verify.
  if (!row.email || row.email !== row.user.email) throw invalidLink(location, "The address changed since this link was sent; ask for a new one");
  if (kind === "password_reset" && (row.user.disabledAt || row.user.authSource !== "local")) throw invalidLink(location);
  // Single use even under a double click: only one update can flip usedAt.
  const claimed = await db().oneTimeToken.updateMany({ where: { id: row.id, usedAt: null }, data: { usedAt: new Date() } });
  if (claimed.count !== 1) throw invalidLink(location, "This link was already used");
  return { ...row, email: row.email };
}

export async function resetPassword(token: string, newPassword: string, ip: string) {
  const row = await consume("password_reset", token, "body");
  await db().user.update({ where: { id: row.userId }, data: { passwordHash: await hashPassword(newPassword) } });
  await endUserSessions(row.userId);
  await recordAudit({ actorId: row.userId, actorName: row.user.username, action: "auth.password_reset", ip });
  return { ok: true as const };
}

export async function verifyEmail(token: string, ip: string) {
  const row = await consume("email_verify", token, "query");
  // Conditional on the address, so a change between reading the token and this write
  // cannot mark the new, unconfirmed address as verified.
  const verified = await db().user.updateMany({ where: { id: row.userId, email: row.email }, data: { emailVerifiedAt: new Date() } });
  if (verified.count !== 1) throw invalidLink("query", "The address changed since this link was sent; ask for a new one");
  await recordAudit({ actorId: row.userId, actorName: row.user.username, action: "auth.email_verified", ip, details: { email: row.email } });
  return { ok: true as const };
}

export async function resendVerification(userId: string) {
  const user = await db().user.findUniqueOrThrow({ where: { id: userId } });
  if (user.emailVerifiedAt) throw errors.conflict("Your e-mail address is already verified");
  await sendVerificationEmail(user);
  return { accepted: true as const, message: `A verification link was sent to ${user.email}.` };
}
