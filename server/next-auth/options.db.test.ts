import type { Account, AuthOptions, User } from "next-auth";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { encryptSecret } from "@/server/lib/crypto";
import { makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { buildAuthOptions } from "./options";

useTestDatabase();

async function provider(slug: string, type: string, opts: { enabled?: boolean; autoCreateUsers?: boolean; config?: object; secret?: string | null } = {}) {
  return db().identityProvider.create({
    data: {
      slug,
      type,
      name: `Provider ${slug}`,
      enabled: opts.enabled ?? true,
      autoCreateUsers: opts.autoCreateUsers ?? true,
      config: opts.config ?? { issuer: "https://idp.example.test", clientId: `client-${slug}`, scopes: "openid email", usernameClaim: "preferred_username" },
      secretEnc: opts.secret === null ? null : encryptSecret(opts.secret ?? `secret-${slug}`),
    },
  });
}

function request(cookie?: string) {
  return new Request("http://localhost:5770/api/auth/callback/x", {
    headers: { "x-polymock-peer": "192.0.2.10", "user-agent": "test-agent", ...(cookie ? { cookie } : {}) },
  });
}

const account = (provider: string, providerAccountId: string): Account => ({ provider, providerAccountId, type: "oauth" });
const profileUser = (email: string | null): User => ({ id: "external-sub", email, name: "Someone" });

async function signIn(options: AuthOptions, user: User, acc: Account) {
  return options.callbacks!.signIn!({ user, account: acc });
}

async function lastLoginAudit() {
  return db().auditEvent.findFirstOrThrow({ where: { action: "auth.login" }, orderBy: { id: "desc" } });
}

beforeAll(async () => {
  await provider("corp", "oidc");
  await provider("closed", "oidc", { autoCreateUsers: false });
  await provider("gh", "github", { config: { clientId: "gh-client" } });
  await provider("goo", "google", { config: { clientId: "goo-client" } });
  await provider("off", "oidc", { enabled: false });
  await provider("dir", "ldap", { config: { url: "ldap://ldap.example.test", baseDn: "dc=example" }, secret: null });
  await provider("broken", "oidc", { config: { issuer: "not a url" } });
});

describe("options built from the identity providers", () => {
  it("offers every enabled OAuth/OIDC provider under its slug, skipping disabled, LDAP and unusable rows", async () => {
    const options = await buildAuthOptions(request());
    const providers = options.providers as unknown as { id: string; name: string; type: string; options?: { id?: string } }[];
    const ids = providers.map((p) => p.options?.id ?? p.id).sort();
    expect(ids).toEqual(["closed", "corp", "gh", "goo"]);
    const corp = providers.find((p) => p.id === "corp") as unknown as Record<string, unknown>;
    expect(corp).toMatchObject({
      type: "oauth",
      name: "Provider corp",
      wellKnown: "https://idp.example.test/.well-known/openid-configuration",
      clientId: "client-corp",
      clientSecret: "secret-corp",
      idToken: true,
      checks: ["pkce", "state"],
      authorization: { params: { scope: "openid email" } },
    });
  });

  it("uses Polymock's session cookie and table with the configured lifetime, and /login for sign-in and errors", async () => {
    const options = await buildAuthOptions(request());
    expect(options.cookies?.sessionToken).toEqual({ name: "polymock_session", options: { httpOnly: true, sameSite: "lax", path: "/", secure: false } });
    expect(options.session).toMatchObject({ strategy: "database", maxAge: 7 * 24 * 3600, updateAge: 7 * 24 * 3600 });
    expect(options.session!.generateSessionToken!()).toMatch(/^[0-9A-Za-z]{43}$/);
    expect(options.pages).toEqual({ signIn: "/login", error: "/login" });
  });

  it("marks the session cookie Secure when next-auth is served over https", async () => {
    const before = process.env.NEXTAUTH_URL;
    process.env.NEXTAUTH_URL = "https://mocks.example.test";
    try {
      const options = await buildAuthOptions(request());
      expect(options.cookies?.sessionToken?.options.secure).toBe(true);
      expect(options.useSecureCookies).toBe(true);
    } finally {
      if (before === undefined) delete process.env.NEXTAUTH_URL;
      else process.env.NEXTAUTH_URL = before;
    }
  });

  it("maps OIDC claims, taking the username from the configured claim", async () => {
    await db().identityProvider.update({ where: { slug: "corp" }, data: { config: { issuer: "https://idp.example.test", clientId: "c", scopes: "openid", usernameClaim: "upn" } } });
    const options = await buildAuthOptions(request());
    const corp = options.providers.find((p) => p.id === "corp") as unknown as { profile: (c: object) => unknown };
    expect(await corp.profile({ sub: "s-1", email: "e@example.test", email_verified: true, name: "E", upn: "e.upn", preferred_username: "ignored" })).toEqual({
      id: "s-1",
      subject: "s-1",
      email: "e@example.test",
      emailVerifiedByProvider: true,
      name: "E",
      image: null,
      usernameClaim: "e.upn",
    });
  });

  it("maps the GitHub and Google presets: GitHub's login is the username, Google falls back to the e-mail local part", async () => {
    const options = await buildAuthOptions(request());
    type Preset = { id: string; options: { id: string; clientId: string; profile: (p: object) => unknown } };
    const preset = (slug: string) => (options.providers as unknown as Preset[]).find((p) => p.options?.id === slug)!;
    expect(preset("gh")).toMatchObject({ id: "github", options: { clientId: "gh-client" } });
    expect(await preset("gh").options.profile({ id: 42, login: "octocat", name: null, email: "octo@example.test", avatar_url: "https://avatars.example.test/42" })).toEqual({
      id: "42",
      subject: "42",
      name: "octocat",
      email: "octo@example.test",
      image: "https://avatars.example.test/42",
      usernameClaim: "octocat",
      emailVerifiedByProvider: false,
    });
    expect(preset("goo")).toMatchObject({ id: "google", options: { clientId: "goo-client" } });
    expect(await preset("goo").options.profile({ sub: "1077", email: "g.user@example.test", email_verified: true, name: "G User", picture: "https://p.example.test/g" })).toEqual({
      id: "1077",
      subject: "1077",
      name: "G User",
      email: "g.user@example.test",
      image: "https://p.example.test/g",
      usernameClaim: null,
      emailVerifiedByProvider: true,
    });
  });
});

describe("the sign-in policy", () => {
  it("lets a new external account in when the provider creates users", async () => {
    const options = await buildAuthOptions(request());
    expect(await signIn(options, profileUser("new.person@example.test"), account("corp", "sub-new"))).toBe(true);
  });

  it("refuses an unknown account at a provider that does not create users, and audits it", async () => {
    const options = await buildAuthOptions(request());
    expect(await signIn(options, profileUser("stranger@example.test"), account("closed", "sub-stranger"))).toBe("/login?error=AccountNotProvisioned");
    expect(await lastLoginAudit()).toMatchObject({
      outcome: "failure",
      actorName: "stranger@example.test",
      ip: "192.0.2.10",
      details: { method: "oidc", provider: "closed", reason: "no linked user and the provider does not create users" },
    });
  });

  it("lets a linked account in even where the provider does not create users", async () => {
    const { user } = await makeUser();
    await db().oAuthAccount.create({ data: { userId: user.id, provider: "closed", providerAccountId: "sub-known" } });
    const options = await buildAuthOptions(request());
    expect(await signIn(options, { id: user.id, email: "" }, account("closed", "sub-known"))).toBe(true);
  });

  it("refuses a disabled user's linked account", async () => {
    const { user } = await makeUser();
    await db().user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    await db().oAuthAccount.create({ data: { userId: user.id, provider: "corp", providerAccountId: "sub-disabled" } });
    const options = await buildAuthOptions(request());
    expect(await signIn(options, { id: user.id, email: "" }, account("corp", "sub-disabled"))).toBe("/login?error=AccountDisabled");
    expect(await lastLoginAudit()).toMatchObject({ outcome: "failure", actorId: user.id, actorName: user.username, details: { reason: "disabled" } });
  });

  it("never links an external account to an existing user by e-mail address", async () => {
    const { user } = await makeUser({ email: "Local.Owner@example.test" });
    const options = await buildAuthOptions(request());
    expect(await signIn(options, profileUser("local.owner@example.test"), account("corp", "sub-squatter"))).toBe("/login?error=OAuthAccountNotLinked");
    expect(await lastLoginAudit()).toMatchObject({ outcome: "failure", actorId: user.id, details: { reason: "e-mail address belongs to an existing user" } });
    expect(await db().oAuthAccount.count({ where: { providerAccountId: "sub-squatter" } })).toBe(0);
  });

  it("does not attach a new external account to whoever is signed in in that browser", async () => {
    const { user } = await makeUser({ role: "admin" });
    const options = await buildAuthOptions(request(await sessionCookie(user.id)));
    expect(await signIn(options, profileUser("someone.else@example.test"), account("corp", "sub-other-person"))).toBe("/login?error=AlreadySignedIn");
  });

  it("records a successful sign-in and the user's last login time", async () => {
    const { user } = await makeUser();
    const options = await buildAuthOptions(request());
    await options.events!.signIn!({ user: { id: user.id, username: user.username, email: "" } as User, account: account("corp", "sub-x"), isNewUser: true });
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).lastLoginAt).toBeInstanceOf(Date);
    expect(await lastLoginAudit()).toMatchObject({
      outcome: "success",
      actorId: user.id,
      actorName: user.username,
      ip: "192.0.2.10",
      details: { method: "oidc", provider: "corp", newUser: true },
    });
  });
});
