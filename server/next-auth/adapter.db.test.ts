import type { Adapter, AdapterUser } from "next-auth/adapters";
import { describe, expect, it } from "vitest";
import { authenticate } from "@/server/auth/authenticate";
import { db } from "@/server/db/client";
import { sha256Hex } from "@/server/lib/crypto";
import { makeUser } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { polymockAdapter, type ExternalProfile } from "./adapter";
import { isUsernameConflict } from "./username";

useTestDatabase();

// Every method this adapter has is one next-auth calls; a missing one would be a bug.
function adapter(meta = {}) {
  return polymockAdapter(meta) as Required<Adapter>;
}

/** What next-auth hands to createUser: the provider's profile without its id, emailVerified forced to null. */
function newUser(p: Partial<ExternalProfile> & { subject: string }): Omit<AdapterUser, "id"> {
  return {
    name: null,
    email: "",
    image: null,
    usernameClaim: null,
    emailVerifiedByProvider: false,
    ...p,
    emailVerified: null,
  } as unknown as Omit<AdapterUser, "id">;
}

const headersWithCookie = (token: string) => new Headers({ cookie: `polymock_session=${token}` });
const inOneHour = () => new Date(Date.now() + 3600_000);

describe("sessions", () => {
  it("stores only the SHA-256 of the token, and authenticate() accepts the cookie like a password session", async () => {
    const { user } = await makeUser();
    const a = adapter({ ip: "10.0.0.7", userAgent: "Chromium test" });
    const token = "next-auth-session-token-0123456789abcdefghijklmnop";
    const expires = inOneHour();
    expect(await a.createSession({ sessionToken: token, userId: user.id, expires })).toEqual({ sessionToken: token, userId: user.id, expires });

    const rows = await db().session.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(rows[0].tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(rows[0])).not.toContain(token);
    expect(rows[0]).toMatchObject({ ip: "10.0.0.7", userAgent: "Chromium test" });

    const actor = await authenticate(headersWithCookie(token), "10.0.0.7");
    expect(actor).toMatchObject({ user: { id: user.id, username: user.username }, via: "session", sessionId: rows[0].id });
  });

  it("looks a session up by token, renews it, and deletes it so the cookie stops working", async () => {
    const { user } = await makeUser();
    const a = adapter();
    const token = "token-for-lookup-update-delete-0123456789";
    await a.createSession({ sessionToken: token, userId: user.id, expires: inOneHour() });

    const found = await a.getSessionAndUser(token);
    expect(found?.session).toMatchObject({ sessionToken: token, userId: user.id });
    expect(found?.user).toMatchObject({ id: user.id, username: user.username });

    const later = new Date(Date.now() + 7200_000);
    expect(await a.updateSession({ sessionToken: token, expires: later })).toMatchObject({ sessionToken: token, expires: later });
    expect((await db().session.findUniqueOrThrow({ where: { tokenHash: sha256Hex(token) } })).expiresAt).toEqual(later);

    expect(await a.deleteSession(token)).toMatchObject({ sessionToken: token, userId: user.id });
    expect(await a.getSessionAndUser(token)).toBeNull();
    await expect(authenticate(headersWithCookie(token), "127.0.0.1")).rejects.toMatchObject({ status: 401 });
    expect(await a.updateSession({ sessionToken: token, expires: later })).toBeNull();
    expect(await a.deleteSession(token)).toBeNull();
  });

  it("treats an expired session, a disabled user's session and an over-long token as no session", async () => {
    const { user } = await makeUser();
    const a = adapter();
    await a.createSession({ sessionToken: "expired-token-0123456789abcdef", userId: user.id, expires: new Date(Date.now() - 1000) });
    expect(await a.getSessionAndUser("expired-token-0123456789abcdef")).toBeNull();

    const { user: disabled } = await makeUser();
    await a.createSession({ sessionToken: "disabled-user-token-0123456789", userId: disabled.id, expires: inOneHour() });
    await db().user.update({ where: { id: disabled.id }, data: { disabledAt: new Date() } });
    expect(await a.getSessionAndUser("disabled-user-token-0123456789")).toBeNull();

    expect(await a.getSessionAndUser("x".repeat(201))).toBeNull();
  });
});

describe("users created at first sign-in", () => {
  it("creates an oidc user named from the username claim, with the provider's name, address and picture", async () => {
    const created = await adapter().createUser(
      newUser({ subject: "sub-ada", usernameClaim: "ada", email: "ada@example.test", name: "Ada Lovelace", image: "https://img.example.test/ada.png", emailVerifiedByProvider: true }),
    );
    const row = await db().user.findUniqueOrThrow({ where: { id: created.id } });
    expect(row).toMatchObject({
      username: "ada",
      authSource: "oidc",
      email: "ada@example.test",
      fullName: "Ada Lovelace",
      avatarUrl: "https://img.example.test/ada.png",
      passwordHash: null,
      role: "user",
    });
    expect(row.emailVerifiedAt).toBeInstanceOf(Date);
    expect(created).toMatchObject({ id: row.id, username: "ada", email: "ada@example.test", name: "Ada Lovelace" });
  });

  it("never reuses a taken username, local or external: it adds the smallest free suffix", async () => {
    await makeUser({ username: "grace" });
    const a = adapter();
    const first = await a.createUser(newUser({ subject: "sub-g1", usernameClaim: "grace" }));
    const second = await a.createUser(newUser({ subject: "sub-g2", usernameClaim: "grace" }));
    expect([(first as { username?: string }).username, (second as { username?: string }).username]).toEqual(["grace-2", "grace-3"]);
    const local = await db().user.findUniqueOrThrow({ where: { username: "grace" } });
    expect(local.authSource).toBe("local");
  });

  it("gives concurrent first sign-ins with the same name distinct usernames", async () => {
    const a = adapter();
    const users = await Promise.all(Array.from({ length: 5 }, (_, i) => a.createUser(newUser({ subject: `sub-race-${i}`, usernameClaim: "racer" }))));
    const names = users.map((u: AdapterUser) => (u as { username?: string }).username).sort();
    expect(names).toEqual(["racer", "racer-2", "racer-3", "racer-4", "racer-5"]);
  });

  it("tells a username clash (retried with another name) from an e-mail clash (not retried)", async () => {
    await db().user.create({ data: { username: "clash", email: "clash@example.test" } });
    const byName = await db().user.create({ data: { username: "clash", email: "other@example.test" } }).catch((e: unknown) => e);
    const byEmail = await db().user.create({ data: { username: "clash-b", email: "clash@example.test" } }).catch((e: unknown) => e);
    expect(isUsernameConflict(byName)).toBe(true);
    expect(isUsernameConflict(byEmail)).toBe(false);
  });

  it("falls back to the e-mail local part, then the subject, and keeps only characters a username may have", async () => {
    const a = adapter();
    const byEmail = await a.createUser(newUser({ subject: "sub-1", email: "linus.t@example.test" }));
    const bySubject = await a.createUser(newUser({ subject: "8f14e45f-ceea-467f" }));
    const cleaned = await a.createUser(newUser({ subject: "sub-2", usernameClaim: "  Zoë Müller / Ops  " }));
    const nothingUsable = await a.createUser(newUser({ subject: "sub-3", usernameClaim: "日本語", email: "bob@example.test" }));
    expect([byEmail, bySubject, cleaned, nothingUsable].map((u) => (u as { username?: string }).username)).toEqual([
      "linus.t",
      "8f14e45f-ceea-467f",
      "Zoe-Muller-Ops",
      "bob",
    ]);
    expect((await db().user.findUniqueOrThrow({ where: { id: byEmail.id } })).emailVerifiedAt).toBeNull();
  });

  it("finds users by id and by e-mail address regardless of case; a non-UUID id is no user", async () => {
    const { user } = await makeUser({ email: "Mixed.Case@Example.test" });
    const a = adapter();
    expect(await a.getUser(user.id)).toMatchObject({ id: user.id });
    expect(await a.getUser("not-a-uuid")).toBeNull();
    expect(await a.getUserByEmail("mixed.case@example.test")).toMatchObject({ id: user.id, email: "Mixed.Case@Example.test" });
    expect(await a.getUserByEmail("nobody@example.test")).toBeNull();
  });

  it("updates the fields next-auth knows", async () => {
    const { user } = await makeUser();
    const verified = new Date("2025-01-02T03:04:05Z");
    const updated = await adapter().updateUser({ id: user.id, name: "New Name", emailVerified: verified, image: "https://img.example.test/n.png" });
    expect(updated).toMatchObject({ id: user.id, name: "New Name", emailVerified: verified, image: "https://img.example.test/n.png" });
    expect(await db().user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({ fullName: "New Name", emailVerifiedAt: verified });
  });
});

describe("external accounts", () => {
  it("links an account under the provider slug and finds the user by it, without storing the provider's tokens", async () => {
    const a = adapter();
    const user = await a.createUser(newUser({ subject: "sub-link", usernameClaim: "linked" }));
    await a.linkAccount({
      userId: user.id,
      provider: "corp-sso",
      providerAccountId: "sub-link",
      type: "oauth",
      access_token: "secret-access-token",
      id_token: "secret-id-token",
      token_type: "bearer",
    });
    expect(await a.getUserByAccount({ provider: "corp-sso", providerAccountId: "sub-link" })).toMatchObject({ id: user.id, username: "linked" });
    // The same subject at another provider is another person.
    expect(await a.getUserByAccount({ provider: "other-sso", providerAccountId: "sub-link" })).toBeNull();
    expect(await a.getUserByAccount({ provider: "corp-sso", providerAccountId: "unknown" })).toBeNull();

    const rows = await db().oAuthAccount.findMany({ where: { userId: user.id } });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain("secret-");
  });

  it("refuses to link the same external account twice", async () => {
    const a = adapter();
    const one = await a.createUser(newUser({ subject: "sub-dup", usernameClaim: "dup-one" }));
    const two = await a.createUser(newUser({ subject: "sub-dup-2", usernameClaim: "dup-two" }));
    await a.linkAccount({ userId: one.id, provider: "corp-sso", providerAccountId: "sub-dup", type: "oauth" });
    await expect(a.linkAccount({ userId: two.id, provider: "corp-sso", providerAccountId: "sub-dup", type: "oauth" })).rejects.toThrow();
  });
});
