// next-auth's options, built per request: the providers are the enabled
// IdentityProvider rows at that moment (an admin's change applies at once, on
// every replica), and the adapter records the client's address on the session.
//
// Sign-in policy (the signIn callback):
// - an external account already linked to a user signs that user in, unless
//   the user is disabled;
// - an unlinked account creates a user (authSource "oidc") only when the
//   provider has autoCreateUsers;
// - it is never attached to an existing user by e-mail address (no
//   allowDangerousEmailAccountLinking), nor silently to the user who happens
//   to be signed in in that browser (next-auth would link it to them).
// Every refusal sends the browser to /login?error=<code> (errors.ts)
// and leaves an "auth.login" failure in the audit trail.
import type { Account, AuthOptions } from "next-auth";
import { db } from "@/server/db/client";
import { env, publicUrl } from "@/server/env";
import { clientIp } from "@/server/http/request-meta";
import { randomBase62, sha256Hex } from "@/server/lib/crypto";
import { logger } from "@/server/lib/logger";
import { recordAudit } from "@/server/services/audit";
import { polymockAdapter, type PolymockAdapterUser } from "./adapter";
import type { SignInRefusal } from "./errors";
import { loadSignInProviders } from "./providers";
import { readCookie, SESSION_COOKIE } from "@/server/auth/session-cookie";

const METHOD = "oidc";

/** Where next-auth lives for browsers: NEXTAUTH_URL (the launcher sets it from PUBLIC_URL). */
export function authBaseUrl(): string {
  return (process.env.NEXTAUTH_URL ?? publicUrl()).replace(/\/+$/, "");
}

export async function buildAuthOptions(req?: Request): Promise<AuthOptions> {
  const ip = req ? clientIp(req.headers) : undefined;
  const cookieHeader = req?.headers.get("cookie") ?? null;
  const { rows, providers } = await loadSignInProviders();
  const rowBySlug = new Map(rows.map((r) => [r.slug, r]));
  const secure = authBaseUrl().startsWith("https://");
  const ttlSeconds = Math.round(env().SESSION_TTL_HOURS * 3600);

  const refuse = async (code: SignInRefusal, reason: string, account: Account, who: { id?: string; name: string }) => {
    await recordAudit({
      actorId: who.id ?? null,
      actorName: who.name.slice(0, 100),
      action: "auth.login",
      outcome: "failure",
      ip,
      details: { method: METHOD, provider: account.provider, reason },
    });
    return `/login?error=${code}`;
  };

  return {
    secret: process.env.NEXTAUTH_SECRET ?? process.env.APP_SECRET,
    providers,
    adapter: polymockAdapter({ ip, userAgent: req?.headers.get("user-agent") }),
    session: {
      strategy: "database",
      maxAge: ttlSeconds,
      // Equal to maxAge: sessions keep the fixed lifetime password sessions
      // have, instead of next-auth's sliding renewal.
      updateAge: ttlSeconds,
      generateSessionToken: () => randomBase62(43),
    },
    useSecureCookies: secure,
    cookies: {
      // The session cookie is Polymock's own, so authenticate() accepts it.
      sessionToken: { name: SESSION_COOKIE, options: { httpOnly: true, sameSite: "lax", path: "/", secure } },
    },
    pages: { signIn: "/login", error: "/login" },
    callbacks: {
      async signIn({ user, account }) {
        if (!account || account.type !== "oauth") return false;
        const row = rowBySlug.get(account.provider);
        if (!row) return false;
        const linked = await db().oAuthAccount.findUnique({
          where: { provider_providerAccountId: { provider: account.provider, providerAccountId: account.providerAccountId } },
          include: { user: true },
        });
        if (linked) {
          if (linked.user.disabledAt) return refuse("AccountDisabled", "disabled", account, { id: linked.user.id, name: linked.user.username });
          return true;
        }
        const name = user.email ?? `${account.provider}:${account.providerAccountId}`;
        if (await signedInUserId(cookieHeader)) {
          return refuse("AlreadySignedIn", "unlinked account while another session is active", account, { name });
        }
        if (!row.autoCreateUsers) {
          return refuse("AccountNotProvisioned", "no linked user and the provider does not create users", account, { name });
        }
        const sameEmail = user.email
          ? await db().user.findFirst({ where: { email: { equals: user.email, mode: "insensitive" } }, select: { id: true, username: true } })
          : null;
        if (sameEmail) {
          return refuse("OAuthAccountNotLinked", "e-mail address belongs to an existing user", account, { id: sameEmail.id, name: sameEmail.username });
        }
        return true;
      },
    },
    events: {
      async signIn({ user, account, isNewUser }) {
        const u = user as PolymockAdapterUser;
        await db().user.update({ where: { id: u.id }, data: { lastLoginAt: new Date() } });
        await recordAudit({
          actorId: u.id,
          actorName: u.username,
          action: "auth.login",
          ip,
          details: { method: METHOD, provider: account?.provider, newUser: Boolean(isNewUser) },
        });
      },
      async signOut(message) {
        // Database sessions: the message carries what the adapter's deleteSession returned.
        const session = (message as unknown as { session?: { userId?: string } | null }).session;
        if (!session?.userId) return;
        const u = await db().user.findUnique({ where: { id: session.userId }, select: { id: true, username: true } });
        await recordAudit({ actorId: session.userId, actorName: u?.username ?? "unknown", action: "auth.logout", ip });
      },
    },
    logger: {
      error: (code, metadata) => logger().error({ code, metadata }, "next-auth error"),
      warn: (code) => logger().warn({ code }, "next-auth warning"),
      debug: () => {},
    },
  };
}

/** The user of a live session the request carries, if any. */
async function signedInUserId(cookieHeader: string | null): Promise<string | null> {
  const token = readCookie(cookieHeader, SESSION_COOKIE);
  if (!token || token.length > 200) return null;
  const session = await db().session.findUnique({
    where: { tokenHash: sha256Hex(token) },
    select: { userId: true, expiresAt: true, user: { select: { disabledAt: true } } },
  });
  if (!session || session.expiresAt <= new Date() || session.user.disabledAt) return null;
  return session.userId;
}
