// Turns request headers into an Actor: API credential (X-API-Key or
// Authorization: Bearer) first, then the session cookie.
import { db } from "@/server/db/client";
import { errors } from "@/server/errors";
import { sha256Hex } from "@/server/lib/crypto";
import type { Permission } from "@/server/contracts/endpoint";
import { ALL_PERMISSIONS, type Actor } from "./actor";
import { readCookie, SESSION_COOKIE } from "./session-cookie";

export interface AuthHeaders {
  get(name: string): string | null;
}

export function bearerFrom(headers: AuthHeaders): string | undefined {
  const apiKey = headers.get("x-api-key");
  if (apiKey) return apiKey.trim();
  const auth = headers.get("authorization");
  if (auth && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, "").trim();
  return undefined;
}

const LAST_USED_RESOLUTION_MS = 60_000;

/** Resolves the caller, or null when the request carries no credential at all. Throws 401 for a bad one. */
export async function authenticate(headers: AuthHeaders, ip: string): Promise<Actor | null> {
  const bearer = bearerFrom(headers);
  if (bearer) return authenticateBearer(bearer, ip);
  const sessionToken = readCookie(headers.get("cookie"), SESSION_COOKIE);
  if (sessionToken) return authenticateSession(sessionToken, ip);
  return null;
}

async function authenticateBearer(secret: string, ip: string): Promise<Actor> {
  if (secret.length > 200) throw errors.unauthorized("Invalid API token");
  const credential = await db().credential.findUnique({
    where: { secretHash: sha256Hex(secret) },
    include: { user: { select: { id: true, username: true, role: true, disabledAt: true } } },
  });
  const now = new Date();
  if (!credential || credential.revokedAt) throw errors.unauthorized("Invalid or revoked API token");
  if (credential.expiresAt && credential.expiresAt <= now) throw errors.unauthorized("API token has expired");
  if (credential.user.disabledAt) throw errors.unauthorized("The token's owner is disabled");
  if (!credential.lastUsedAt || now.getTime() - credential.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Bookkeeping only: never delay or fail the request for it.
    void db()
      .credential.update({ where: { id: credential.id }, data: { lastUsedAt: now } })
      .catch(() => {});
  }
  return {
    user: { id: credential.user.id, username: credential.user.username, role: credential.user.role },
    via: credential.kind,
    credentialId: credential.id,
    permissions: credential.permissions.filter((p): p is Permission => (ALL_PERMISSIONS as string[]).includes(p)),
    pinnedNamespaceId: credential.namespaceId,
    ip,
  };
}

async function authenticateSession(token: string, ip: string): Promise<Actor> {
  if (token.length > 200) throw errors.unauthorized("Invalid session");
  const session = await db().session.findUnique({
    where: { tokenHash: sha256Hex(token) },
    include: { user: { select: { id: true, username: true, role: true, disabledAt: true } } },
  });
  if (!session || session.expiresAt <= new Date()) throw errors.unauthorized("Session expired, please log in again");
  if (session.user.disabledAt) throw errors.unauthorized("Your account is disabled");
  return {
    user: { id: session.user.id, username: session.user.username, role: session.user.role },
    via: "session",
    sessionId: session.id,
    permissions: [...ALL_PERMISSIONS],
    pinnedNamespaceId: null,
    ip,
  };
}
