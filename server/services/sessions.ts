import { db } from "@/server/db/client";
import { env } from "@/server/env";
import { randomBase62, sha256Hex } from "@/server/lib/crypto";

export async function createSession(userId: string, meta: { ip?: string; userAgent?: string | null } = {}) {
  const token = randomBase62(43);
  const expiresAt = new Date(Date.now() + env().SESSION_TTL_HOURS * 3600 * 1000);
  await db().session.create({
    data: { tokenHash: sha256Hex(token), userId, expiresAt, ip: meta.ip ?? null, userAgent: meta.userAgent?.slice(0, 500) ?? null },
  });
  return { token, expiresAt };
}

export async function endSession(sessionId: string) {
  await db().session.deleteMany({ where: { id: sessionId } });
}

/** Ends every session of a user except, optionally, the current one. */
export async function endUserSessions(userId: string, exceptSessionId?: string) {
  await db().session.deleteMany({ where: { userId, ...(exceptSessionId ? { id: { not: exceptSessionId } } : {}) } });
}
