// next-auth's database adapter over Polymock's own tables. A session next-auth
// creates is a row of table Session with the SHA-256 of its token, exactly
// like a password login's, so the session cookie it sets (named
// polymock_session, see options.ts) is accepted by authenticate()
// on every /api/v1 route and tRPC procedure. External accounts are rows of
// OAuthAccount keyed by the IdentityProvider slug; their tokens are not
// stored, because Polymock never calls a provider's API on a user's behalf.
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser } from "next-auth/adapters";
import { db, type User } from "@/server/db/client";
import { sha256Hex } from "@/server/lib/crypto";
import { baseUsername, freeUsername, isUsernameConflict } from "./username";

/** What the providers' profile() functions return; next-auth hands it, without `id`, to createUser. */
export interface ExternalProfile {
  id: string;
  name: string | null;
  email: string | null;
  image: string | null;
  /** The value of the provider's username claim, if it sent one. */
  usernameClaim: string | null;
  /** The provider's account id (OIDC `sub`), the last fallback for the username. */
  subject: string;
  /** Whether the provider vouches for the address (OIDC `email_verified`). */
  emailVerifiedByProvider: boolean;
}

/** next-auth's user plus the username, which events use for the audit trail. */
export type PolymockAdapterUser = AdapterUser & { username: string };

export interface SessionMeta {
  ip?: string;
  userAgent?: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Same bound as authenticate(): longer values are never tokens we issued.
const MAX_TOKEN_LENGTH = 200;
const USERNAME_ATTEMPTS = 5;

export function toAdapterUser(user: User): PolymockAdapterUser {
  return {
    id: user.id,
    username: user.username,
    // next-auth types the address as a string; a user without one gets "".
    email: user.email ?? "",
    emailVerified: user.emailVerifiedAt,
    name: user.fullName || user.username,
    image: user.avatarUrl,
  };
}

async function createOidcUser(data: Partial<ExternalProfile> & { email?: string | null; name?: string | null; image?: string | null }) {
  const email = data.email ? data.email.toLowerCase() : null;
  const base = baseUsername({ claim: data.usernameClaim, email, subject: data.subject });
  for (let attempt = 1; ; attempt++) {
    const username = await freeUsername(base);
    try {
      return await db().user.create({
        data: {
          username,
          authSource: "oidc",
          email,
          emailVerifiedAt: email && data.emailVerifiedByProvider ? new Date() : null,
          fullName: data.name ?? "",
          avatarUrl: data.image ?? null,
        },
      });
    } catch (err) {
      // Two first sign-ins picked the same free name at once: pick again.
      if (!isUsernameConflict(err) || attempt >= USERNAME_ATTEMPTS) throw err;
    }
  }
}

async function findSession(sessionToken: string) {
  if (sessionToken.length > MAX_TOKEN_LENGTH) return null;
  return db().session.findUnique({ where: { tokenHash: sha256Hex(sessionToken) }, include: { user: true } });
}

/** One adapter per request, so the sessions it creates carry the client's address and user agent. */
export function polymockAdapter(meta: SessionMeta = {}): Adapter {
  return {
    async createUser(user: Omit<AdapterUser, "id">) {
      return toAdapterUser(await createOidcUser(user as Partial<ExternalProfile>));
    },

    async getUser(id) {
      if (!UUID.test(id)) return null;
      const user = await db().user.findUnique({ where: { id } });
      return user ? toAdapterUser(user) : null;
    },

    async getUserByEmail(email) {
      // Case-insensitive: next-auth lower-cases the provider's address, stored ones may not be.
      const user = await db().user.findFirst({ where: { email: { equals: email, mode: "insensitive" } } });
      return user ? toAdapterUser(user) : null;
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const account = await db().oAuthAccount.findUnique({
        where: { provider_providerAccountId: { provider, providerAccountId } },
        include: { user: true },
      });
      return account ? toAdapterUser(account.user) : null;
    },

    async updateUser(user) {
      const updated = await db().user.update({
        where: { id: user.id },
        data: {
          ...(user.name !== undefined ? { fullName: user.name ?? "" } : {}),
          ...(user.email !== undefined ? { email: user.email || null } : {}),
          ...(user.emailVerified !== undefined ? { emailVerifiedAt: user.emailVerified } : {}),
          ...(user.image !== undefined ? { avatarUrl: user.image ?? null } : {}),
        },
      });
      return toAdapterUser(updated);
    },

    async linkAccount(account: AdapterAccount) {
      await db().oAuthAccount.create({
        data: { userId: account.userId, provider: account.provider, providerAccountId: account.providerAccountId },
      });
    },

    async createSession({ sessionToken, userId, expires }): Promise<AdapterSession> {
      await db().session.create({
        data: {
          tokenHash: sha256Hex(sessionToken),
          userId,
          expiresAt: expires,
          ip: meta.ip ?? null,
          userAgent: meta.userAgent?.slice(0, 500) ?? null,
        },
      });
      return { sessionToken, userId, expires };
    },

    async getSessionAndUser(sessionToken) {
      const session = await findSession(sessionToken);
      // The same rules as authenticate(): an expired session or a disabled user is no session at all.
      if (!session || session.expiresAt <= new Date() || session.user.disabledAt) return null;
      return {
        session: { sessionToken, userId: session.userId, expires: session.expiresAt },
        user: toAdapterUser(session.user),
      };
    },

    async updateSession({ sessionToken, expires }) {
      const session = await findSession(sessionToken);
      if (!session) return null;
      const updated = expires ? await db().session.update({ where: { id: session.id }, data: { expiresAt: expires } }) : session;
      return { sessionToken, userId: updated.userId, expires: updated.expiresAt };
    },

    async deleteSession(sessionToken) {
      const session = await findSession(sessionToken);
      if (!session) return null;
      await db().session.deleteMany({ where: { id: session.id } });
      return { sessionToken, userId: session.userId, expires: session.expiresAt };
    },
  };
}
