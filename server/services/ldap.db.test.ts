import { Attribute, Change, Client } from "ldapts";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as testConnection from "@/app/api/v1/admin/auth/ldap/test-connection/route";
import * as providers from "@/app/api/v1/admin/auth/providers/route";
import * as ldapLoginRoute from "@/app/api/v1/auth/ldap/login/route";
import * as me from "@/app/api/v1/auth/me/route";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { freePort, type Slapd, startSlapd } from "@/server/testing/slapd";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { ldapLogin } from "./ldap";

useTestDatabase();

let slapd: Slapd;
let adminCookie: string;

beforeAll(async () => {
  slapd = await startSlapd();
  const { user } = await makeUser({ role: "admin" });
  adminCookie = await sessionCookie(user.id);
});

afterAll(async () => {
  await slapd?.stop();
});

afterEach(() => {
  vi.restoreAllMocks();
});

interface ProviderOptions {
  slug: string;
  name?: string;
  enabled?: boolean;
  autoCreateUsers?: boolean;
  config?: Record<string, unknown>;
  bindPassword?: string;
}

async function createProvider(opts: ProviderOptions) {
  const res = await call(providers.POST, "/api/v1/admin/auth/providers", {
    method: "POST",
    cookie: adminCookie,
    body: {
      type: "ldap",
      slug: opts.slug,
      name: opts.name ?? `Zeta ${opts.slug}`,
      enabled: opts.enabled ?? true,
      autoCreateUsers: opts.autoCreateUsers ?? true,
      config: { url: slapd.url, bindDn: slapd.bindDn, baseDn: slapd.baseDn, timeoutMs: 3000, ...opts.config },
      bindPassword: opts.bindPassword ?? slapd.bindPassword,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; slug: string };
}

function login(body: { username: string; password: string; provider?: string }) {
  return call(ldapLoginRoute.POST, "/api/v1/auth/ldap/login", { method: "POST", body });
}

function cookieFrom(res: { headers: Headers }) {
  return (res.headers.get("set-cookie") ?? "").split(";")[0];
}

async function changeEntry(dn: string, values: Record<string, string>) {
  const admin = new Client({ url: slapd.url });
  try {
    await admin.bind(slapd.adminDn, slapd.adminPassword);
    const changes = Object.entries(values).map(([type, value]) => new Change({ operation: "replace", modification: new Attribute({ type, values: [value] }) }));
    await admin.modify(dn, changes);
  } finally {
    await admin.unbind();
  }
}

function failedLogins(username: string) {
  return db().auditEvent.findMany({ where: { action: "auth.login", outcome: "failure", actorName: username } });
}

describe("LDAP login", () => {
  beforeAll(async () => {
    await createProvider({ slug: "corp", name: "Acme Directory" });
    // Sorts first by name but is disabled, so the default must skip it.
    await createProvider({ slug: "off", name: "Aardvark Directory", enabled: false });
  });

  it("creates an ldap user on first login, sets the session cookie, and /me answers with it", async () => {
    const alice = slapd.users.alice;
    const res = await login({ username: "alice", password: alice.password, provider: "corp" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({ username: "alice", authSource: "ldap", email: alice.mail, emailVerified: true, fullName: alice.cn });
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^polymock_session=/);
    expect(setCookie).toContain("HttpOnly");

    const row = await db().user.findUniqueOrThrow({ where: { username: "alice" } });
    expect(row.passwordHash).toBeNull();
    const who = await call(me.GET, "/api/v1/auth/me", { cookie: cookieFrom(res) });
    expect(who.status).toBe(200);
    expect(who.body.id).toBe(row.id);
  });

  it("updates name and e-mail from the directory on a later login, matching the username case-insensitively", async () => {
    const alice = slapd.users.alice;
    await changeEntry(alice.dn, { cn: "Alice Pleasance Liddell", mail: "a.liddell@example.org" });
    // No provider given: the first enabled LDAP provider by name.
    const res = await login({ username: "ALICE", password: alice.password });
    expect(res.status, res.text).toBe(200);
    expect(res.body.user).toMatchObject({ username: "alice", email: "a.liddell@example.org", fullName: "Alice Pleasance Liddell" });
    expect(await db().user.count({ where: { username: { equals: "alice", mode: "insensitive" } } })).toBe(1);
  });

  it("rejects a wrong password with 401 and audits the failure", async () => {
    const res = await login({ username: "alice", password: "not-her-password", provider: "corp" });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ code: "unauthorized", error: "Invalid username or password" });
    const failures = await failedLogins("alice");
    expect(failures.some((f) => (f.details as { method?: string; reason?: string }).reason?.startsWith("user_bind"))).toBe(true);
    expect(failures.every((f) => (f.details as { method?: string }).method === "ldap")).toBe(true);
  });

  it("rejects an unknown user with the same 401", async () => {
    const res = await login({ username: "mallory", password: "whatever", provider: "corp" });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe("Invalid username or password");
    expect(await failedLogins("mallory")).toHaveLength(1);
  });

  it("refuses an empty password without ever binding (an empty simple bind would succeed)", async () => {
    const bind = vi.spyOn(Client.prototype, "bind");
    const viaRoute = await login({ username: "alice", password: "", provider: "corp" });
    expect(viaRoute.status).toBe(400);
    expect(viaRoute.body.details[0].field).toBe("password");

    const direct = ldapLogin({ username: "alice", password: "", provider: "corp" }, { ip: "127.0.0.1" });
    await expect(direct).rejects.toBeInstanceOf(AppError);
    await expect(direct).rejects.toMatchObject({ code: "unauthorized", status: 401, message: "Invalid username or password" });
    expect(bind).not.toHaveBeenCalled();
    const failures = await failedLogins("alice");
    expect(failures.some((f) => (f.details as { reason?: string }).reason === "empty password")).toBe(true);
  });

  it.each(["*", "ali*", "alice)(uid=*", "*)(|(uid=*", "alice\\"])("escapes the username in the filter: %j is 401", async (username) => {
    // With alice's real password: an unescaped "ali*" would match her alone and log in.
    const res = await login({ username, password: slapd.users.alice.password, provider: "corp" });
    expect(res.status, res.text).toBe(401);
  });

  it("refuses a uid that matches more than one entry", async () => {
    const res = await login({ username: slapd.duplicateUid, password: "anything", provider: "corp" });
    expect(res.status).toBe(401);
    const [failure] = await failedLogins(slapd.duplicateUid);
    expect((failure.details as { reason: string }).reason).toMatch(/several entries/);
  });

  it("does not create a user when the provider does not auto-create: 401", async () => {
    await createProvider({ slug: "no-create", autoCreateUsers: false });
    const carol = slapd.users.carol;
    const res = await login({ username: "carol", password: carol.password, provider: "no-create" });
    expect(res.status).toBe(401);
    expect(await db().user.findUnique({ where: { username: "carol" } })).toBeNull();
  });

  it("does not take over a local account with the same username: 409", async () => {
    const { user } = await makeUser({ username: "bob" });
    const res = await login({ username: "bob", password: slapd.users.bob.password, provider: "corp" });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("conflict");
    const after = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.authSource).toBe("local");
    expect(await failedLogins("bob")).toHaveLength(1);
  });

  it("a disabled or unknown provider is 404", async () => {
    for (const provider of ["off", "nope"]) {
      const res = await login({ username: "alice", password: slapd.users.alice.password, provider });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("not_found");
    }
  });

  it("an unreachable directory is 503, not a wrong password", async () => {
    await createProvider({ slug: "down", config: { url: `ldap://127.0.0.1:${await freePort()}` } });
    const res = await login({ username: "alice", password: slapd.users.alice.password, provider: "down" });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("unavailable");
  });

  it("logs in over StartTLS", async () => {
    await createProvider({ slug: "tls", config: { startTls: true, tlsRejectUnauthorized: false } });
    const res = await login({ username: "alice", password: slapd.users.alice.password, provider: "tls" });
    expect(res.status, res.text).toBe(200);
  });

  it("a wrong or missing service-account password fails the login with 401", async () => {
    await createProvider({ slug: "bad-reader", bindPassword: "wrong" });
    // Without a saved password the service bind would be an unauthenticated one; it must not be attempted.
    await createProvider({ slug: "no-reader-password", bindPassword: "" });
    for (const provider of ["bad-reader", "no-reader-password"]) {
      const res = await login({ username: "alice", password: slapd.users.alice.password, provider });
      expect(res.status).toBe(401);
      expect(res.body.error).toBe("Invalid username or password");
    }
  });
});

describe("LDAP connection test", () => {
  let saved: { id: string };

  beforeAll(async () => {
    saved = await createProvider({ slug: "tested", name: "Tested Directory" });
  });

  function test(body: Record<string, unknown>, cookie = adminCookie) {
    return call(testConnection.POST, "/api/v1/admin/auth/ldap/test-connection", { method: "POST", cookie, body });
  }

  const unsaved = () => ({ url: slapd.url, bindDn: slapd.bindDn, baseDn: slapd.baseDn });

  it("passes connect, bind and search for a saved provider", async () => {
    const res = await test({ providerId: saved.id });
    expect(res.status, res.text).toBe(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.steps.map((s: { step: string; ok: boolean }) => [s.step, s.ok])).toEqual([
      ["connect", true],
      ["bind", true],
      ["search", true],
    ]);
    expect(res.body.steps[2].message).toMatch(/Found \d+ entries/);
    expect(res.body.user).toBeNull();
    const audit = await db().auditEvent.findFirst({ where: { action: "admin.ldap_test", targetId: saved.id } });
    expect(audit?.outcome).toBe("success");
  });

  it("reports a wrong bind password in the bind step, without throwing", async () => {
    const res = await test({ config: unsaved(), bindPassword: "wrong" });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(false);
    expect(res.body.steps.map((s: { step: string; ok: boolean }) => [s.step, s.ok])).toEqual([
      ["connect", true],
      ["bind", false],
    ]);
    const audit = await db().auditEvent.findFirst({ where: { action: "admin.ldap_test", outcome: "failure" }, orderBy: { at: "desc" } });
    expect((audit?.details as { failedStep: string }).failedStep).toBe("bind");
  });

  it("does not send the saved bind password to another server", async () => {
    const res = await test({ providerId: saved.id, config: { ...unsaved(), url: slapd.url.replace("127.0.0.1", "localhost") } });
    expect(res.body.ok).toBe(false);
    expect(res.body.steps[1]).toMatchObject({ step: "bind", ok: false });
  });

  it("checks a user: search and user_bind", async () => {
    const bob = slapd.users.bob;
    const good = await test({ config: unsaved(), bindPassword: slapd.bindPassword, username: "bob", password: bob.password });
    expect(good.body.ok).toBe(true);
    expect(good.body.steps.map((s: { step: string }) => s.step)).toEqual(["connect", "bind", "search", "user_bind"]);
    expect(good.body.user).toEqual({ dn: bob.dn, username: "bob", email: bob.mail, fullName: bob.cn });

    const wrong = await test({ providerId: saved.id, username: "bob", password: "wrong" });
    expect(wrong.body.ok).toBe(false);
    expect(wrong.body.steps.at(-1)).toMatchObject({ step: "user_bind", ok: false });

    const missing = await test({ providerId: saved.id, username: "nobody" });
    expect(missing.body.steps.at(-1)).toMatchObject({ step: "search", ok: false });
  });

  it("reports an unreachable server in the connect step", async () => {
    const res = await test({ config: { ...unsaved(), url: `ldap://127.0.0.1:${await freePort()}` }, bindPassword: "x" });
    expect(res.status).toBe(200);
    expect(res.body.steps).toEqual([{ step: "connect", ok: false, message: expect.stringMatching(/ECONNREFUSED/) }]);
  });

  it.each([
    ["StartTLS", () => ({ ...unsaved(), startTls: true })],
    ["LDAPS", () => ({ ...unsaved(), url: slapd.ldapsUrl })],
  ])("%s: checks the certificate unless told not to", async (_name, tlsConfig) => {
    const strict = await test({ config: tlsConfig(), bindPassword: slapd.bindPassword });
    expect(strict.body.steps).toEqual([{ step: "connect", ok: false, message: expect.stringMatching(/self[- ]signed/i) }]);
    const lenient = await test({ config: { ...tlsConfig(), tlsRejectUnauthorized: false }, bindPassword: slapd.bindPassword, username: "carol", password: slapd.users.carol.password });
    expect(lenient.body.ok, JSON.stringify(lenient.body.steps)).toBe(true);
  });

  it("is for admins only", async () => {
    const { user } = await makeUser();
    const res = await test({ providerId: saved.id }, await sessionCookie(user.id));
    expect(res.status).toBe(403);
  });
});
