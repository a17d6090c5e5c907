// The admin SMTP configuration and the e-mail flows (password reset, address
// verification) against a real SMTP server (server/testing/smtp-sink.ts), all
// through the route handlers, as a browser or REST client would use them.
import net, { type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as emailConfig from "@/app/api/v1/admin/email/config/route";
import * as emailPing from "@/app/api/v1/admin/email/ping/route";
import * as emailTest from "@/app/api/v1/admin/email/test/route";
import * as adminUsers from "@/app/api/v1/admin/users/route";
import * as forgotPassword from "@/app/api/v1/auth/forgot-password/route";
import * as login from "@/app/api/v1/auth/login/route";
import * as me from "@/app/api/v1/auth/me/route";
import * as resetPassword from "@/app/api/v1/auth/reset-password/route";
import * as verifyEmail from "@/app/api/v1/auth/verify-email/route";
import { authEndpoints } from "@/server/contracts/auth";
import { emailEndpoints } from "@/server/contracts/email";
import { db } from "@/server/db/client";
import { sha256Hex } from "@/server/lib/crypto";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { type ReceivedMail, type SmtpSink, startSmtpSink } from "@/server/testing/smtp-sink";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const CONFIG = "/api/v1/admin/email/config";
const PING = "/api/v1/admin/email/ping";
const TEST = "/api/v1/admin/email/test";
const FORGOT = "/api/v1/auth/forgot-password";
const RESET = "/api/v1/auth/reset-password";
const VERIFY = "/api/v1/auth/verify-email";
const ME = "/api/v1/auth/me";
const SMTP_USER = "polymock-mailer";
const SMTP_PASS = "smtp pass: not for logs";
const FROM = "Polymock <noreply@polymock.test>";
const PUBLIC_URL = process.env.PUBLIC_URL ?? "http://localhost:5770";
/** Long enough for a mail that was sent to have arrived on loopback. */
const NO_MAIL_WAIT_MS = 1500;

let sink: SmtpSink;
let adminCookie: string;
let userCookie: string;
let seq = 0;

beforeAll(async () => {
  sink = await startSmtpSink({ auth: { username: SMTP_USER, password: SMTP_PASS } });
  const { user: admin } = await makeUser({ role: "admin" });
  adminCookie = await sessionCookie(admin.id);
  const { user } = await makeUser();
  userCookie = await sessionCookie(user.id);
});

afterAll(async () => {
  await sink?.stop();
});

function address(label: string) {
  return `${label}-${Date.now().toString(36)}-${seq++}@example.test`;
}

function sinkConfig(overrides: Record<string, unknown> = {}) {
  return { host: sink.host, port: sink.port, secure: false, username: SMTP_USER, password: SMTP_PASS, from: FROM, ...overrides };
}

async function putConfig(body: unknown) {
  return call(emailConfig.PUT, CONFIG, { method: "PUT", cookie: adminCookie, body });
}

async function useWorkingSmtp() {
  const res = await putConfig(sinkConfig());
  expect(res.status).toBe(200);
}

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function mailTo(to: string, since = 0) {
  return (m: ReceivedMail) => m.seq >= since && m.to.some((r) => r.toLowerCase() === to.toLowerCase());
}

async function expectNoMail(to: string, since = 0) {
  await expect(sink.waitForMail(mailTo(to, since), NO_MAIL_WAIT_MS)).rejects.toThrow(/No matching mail/);
}

function linkToken(mail: ReceivedMail, page: "reset-password" | "verify-email"): string {
  const escaped = `${PUBLIC_URL}/${page}?token=`.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const match = new RegExp(`${escaped}([0-9A-Za-z]+)`).exec(mail.text);
  if (!match) throw new Error(`no ${page} link in: ${mail.text}`);
  return match[1];
}

async function loginStatus(username: string, password: string) {
  return (await call(login.POST, "/api/v1/auth/login", { method: "POST", body: { username, password } })).status;
}

async function requestReset(email: string) {
  return call(forgotPassword.POST, FORGOT, { method: "POST", body: { email } });
}

async function resetWith(token: string, newPassword: string) {
  return call(resetPassword.POST, RESET, { method: "POST", body: { token, newPassword } });
}

async function verifyWith(token: string) {
  return call(verifyEmail.GET, `${VERIFY}?token=${encodeURIComponent(token)}`);
}

async function auditRows(action: string, actorId?: string) {
  return db().auditEvent.findMany({ where: { action, ...(actorId ? { actorId } : {}) }, orderBy: { id: "asc" } });
}

describe("before SMTP is configured", () => {
  it("GET config says configured:false", async () => {
    const res = await call(emailConfig.GET, CONFIG, { cookie: adminCookie });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ configured: false, enabled: false, hasPassword: false });
    expect(emailEndpoints.getConfig.response!.safeParse(res.body).success).toBe(true);
  });

  it("test e-mail and ping answer 503 with the unavailable envelope", async () => {
    const test = await call(emailTest.POST, TEST, { method: "POST", cookie: adminCookie, body: { to: address("nobody") } });
    expect(test.status).toBe(503);
    expect(test.body).toMatchObject({ code: "unavailable", request_id: test.headers.get("x-request-id") });
    expect(test.body.error).toMatch(/not configured/);
    const ping = await call(emailPing.POST, PING, { method: "POST", cookie: adminCookie });
    expect(ping.status).toBe(503);
    expect(ping.body.code).toBe("unavailable");
  });

  it("forgot-password answers the same for a known and an unknown address", async () => {
    const known = address("known-early");
    await makeUser({ email: known });
    const a = await requestReset(known);
    const b = await requestReset(address("unknown-early"));
    expect(a.status).toBe(b.status);
    expect(a.body.code).toBe(b.body.code);
    expect(a.body.error).toBe(b.body.error);
    expect(a.status).toBe(503);
    expect(a.body.code).toBe("unavailable");
  });

  it("creating a user with an e-mail still works, without a mail", async () => {
    const email = address("created-early");
    const res = await call(adminUsers.POST, "/api/v1/admin/users", { method: "POST", cookie: adminCookie, body: { username: `early${seq++}`, email, password: "long enough password" } });
    expect(res.status).toBe(201);
    expect(await db().oneTimeToken.count({ where: { email } })).toBe(0);
  });

  it("resending a verification mail answers 503", async () => {
    const { user } = await makeUser({ email: address("resend-early") });
    const res = await call(verifyEmail.POST, VERIFY, { method: "POST", cookie: await sessionCookie(user.id) });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe("unavailable");
  });
});

describe("admin SMTP configuration", () => {
  it("is for admins only", async () => {
    const attempts = [
      () => call(emailConfig.GET, CONFIG, { cookie: userCookie }),
      () => call(emailConfig.PUT, CONFIG, { method: "PUT", cookie: userCookie, body: sinkConfig() }),
      () => call(emailPing.POST, PING, { method: "POST", cookie: userCookie }),
      () => call(emailTest.POST, TEST, { method: "POST", cookie: userCookie, body: { to: address("x") } }),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("forbidden");
    }
    const anonymous = await call(emailConfig.GET, CONFIG);
    expect(anonymous.status).toBe(401);
    // Nothing was saved by the refused PUT.
    expect((await call(emailConfig.GET, CONFIG, { cookie: adminCookie })).body.configured).toBe(false);
  });

  it.each([
    ["port above 65535", { port: 70000 }, "port"],
    ["port zero", { port: 0 }, "port"],
    ["port as a string", { port: "587" }, "port"],
    ["empty host", { host: "" }, "host"],
    ["missing host", { host: undefined }, "host"],
    ["secure not a boolean", { secure: "yes" }, "secure"],
    ["from too short", { from: "a" }, "from"],
  ])("rejects %s with 400 naming the field", async (_name, overrides, field) => {
    const res = await putConfig(sinkConfig(overrides));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation");
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ location: "body", field })]));
  });

  it("rejects an unknown field and a body that is not JSON", async () => {
    const unknown = await putConfig({ ...sinkConfig(), smtpHost: "mail.example.test" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe("validation");
    expect(JSON.stringify(unknown.body.details)).toContain("smtpHost");
    const notJson = await call(emailConfig.PUT, CONFIG, { method: "PUT", cookie: adminCookie, rawBody: "{host:", headers: { "content-type": "application/json" } });
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe("validation");
  });

  it("saves the configuration; the password is never returned", async () => {
    const res = await putConfig(sinkConfig());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ configured: true, enabled: true, hasPassword: true, host: sink.host, port: sink.port, username: SMTP_USER, from: FROM });
    expect(res.body).not.toHaveProperty("password");
    expect(res.text).not.toContain(SMTP_PASS);
    const got = await call(emailConfig.GET, CONFIG, { cookie: adminCookie });
    expect(got.body).toEqual(res.body);
    expect(got.text).not.toContain(SMTP_PASS);
    // Stored encrypted, not as plain text.
    const row = await db().setting.findUniqueOrThrow({ where: { key: "email.smtp" } });
    expect(JSON.stringify(row)).not.toContain(SMTP_PASS);
    const audit = await auditRows("admin.email_config_update");
    expect(audit.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(audit.at(-1)?.details)).not.toContain(SMTP_PASS);
  });

  it("ping connects and authenticates", async () => {
    const before = sink.authAttempts.length;
    const res = await call(emailPing.POST, PING, { method: "POST", cookie: adminCookie });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, message: expect.any(String) });
    expect(sink.authAttempts.slice(before)).toContainEqual(expect.objectContaining({ username: SMTP_USER, ok: true }));
  });

  it("sends a test e-mail that reaches the server", async () => {
    const to = address("admin-test");
    const since = sink.messages.length;
    const res = await call(emailTest.POST, TEST, { method: "POST", cookie: adminCookie, body: { to } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const mail = await sink.waitForMail(mailTo(to, since));
    expect(mail.to).toEqual([to]);
    expect(mail.subject).toBe("Polymock test e-mail");
    expect(mail.headers.get("to")).toContain(to);
    expect(mail.headers.get("from")).toContain("noreply@polymock.test");
    expect(mail.envelopeFrom).toBe("noreply@polymock.test");
    expect(mail.authUser).toBe(SMTP_USER);
    expect(mail.text).toMatch(/SMTP settings work/);
    expect((await auditRows("admin.email_test")).at(-1)?.details).toEqual({ to });
  });

  it("a test e-mail to a malformed address is 400 naming 'to'", async () => {
    const res = await call(emailTest.POST, TEST, { method: "POST", cookie: adminCookie, body: { to: "not an address" } });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ location: "body", field: "to" });
  });

  it("saving again without a password keeps the stored one", async () => {
    const newFrom = "Polymock Alerts <alerts@polymock.test>";
    const { password: _omitted, ...withoutPassword } = sinkConfig({ from: newFrom });
    const res = await putConfig(withoutPassword);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ hasPassword: true, from: newFrom });
    const to = address("kept-password");
    const since = sink.messages.length;
    const sent = await call(emailTest.POST, TEST, { method: "POST", cookie: adminCookie, body: { to } });
    expect(sent.status).toBe(200);
    const mail = await sink.waitForMail(mailTo(to, since));
    expect(mail.authUser).toBe(SMTP_USER);
    expect(mail.envelopeFrom).toBe("alerts@polymock.test");
    await useWorkingSmtp();
  });

  it("a wrong password: ping says ok:false, a test e-mail is 502", async () => {
    expect((await putConfig(sinkConfig({ password: "wrong password" }))).status).toBe(200);
    const ping = await call(emailPing.POST, PING, { method: "POST", cookie: adminCookie });
    expect(ping.status).toBe(200);
    expect(ping.body.ok).toBe(false);
    expect(ping.body.message).toMatch(/535|auth|login/i);
    expect(ping.text).not.toContain("wrong password");
    const to = address("wrong-password");
    const sent = await call(emailTest.POST, TEST, { method: "POST", cookie: adminCookie, body: { to } });
    expect(sent.status).toBe(502);
    expect(sent.body.code).toBe("external");
    await expectNoMail(to);
    await useWorkingSmtp();
  });

  it("an empty password clears the stored one", async () => {
    const res = await putConfig(sinkConfig({ password: "" }));
    expect(res.status).toBe(200);
    expect(res.body.hasPassword).toBe(false);
    await useWorkingSmtp();
  });

  it("ping against a closed port says ok:false, not a 500", async () => {
    expect((await putConfig(sinkConfig({ port: await closedPort() }))).status).toBe(200);
    const ping = await call(emailPing.POST, PING, { method: "POST", cookie: adminCookie });
    expect(ping.status).toBe(200);
    expect(ping.body.ok).toBe(false);
    expect(ping.body.message).toMatch(/ECONNREFUSED|connect/i);
    const sent = await call(emailTest.POST, TEST, { method: "POST", cookie: adminCookie, body: { to: address("closed") } });
    expect(sent.status).toBe(502);
    expect(sent.body.code).toBe("external");
    await useWorkingSmtp();
  });

  it("tlsRejectUnauthorized decides whether a STARTTLS server with an untrusted certificate is accepted", async () => {
    // smtp-server's built-in certificate is self-signed, like many internal relays.
    const tlsSink = await startSmtpSink({ starttls: true });
    try {
      const base = { host: tlsSink.host, port: tlsSink.port, secure: false, from: FROM };
      expect((await putConfig({ ...base, tlsRejectUnauthorized: true })).status).toBe(200);
      const strict = await call(emailPing.POST, PING, { method: "POST", cookie: adminCookie });
      expect(strict.body.ok).toBe(false);
      expect((await putConfig({ ...base, tlsRejectUnauthorized: false })).status).toBe(200);
      const lax = await call(emailPing.POST, PING, { method: "POST", cookie: adminCookie });
      expect(lax.body).toMatchObject({ ok: true });
      const to = address("starttls");
      expect((await call(emailTest.POST, TEST, { method: "POST", cookie: adminCookie, body: { to } })).status).toBe(200);
      const mail = await tlsSink.waitForMail(mailTo(to));
      expect(mail.subject).toBe("Polymock test e-mail");
    } finally {
      await tlsSink.stop();
      await useWorkingSmtp();
    }
  });

  it("a saved but disabled configuration sends nothing (503)", async () => {
    const res = await putConfig(sinkConfig({ enabled: false }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ enabled: false, configured: true });
    const to = address("disabled");
    const sent = await call(emailTest.POST, TEST, { method: "POST", cookie: adminCookie, body: { to } });
    expect(sent.status).toBe(503);
    expect(sent.body.code).toBe("unavailable");
    await useWorkingSmtp();
  });
});

describe("password reset by e-mail", () => {
  beforeAll(useWorkingSmtp);

  it("mails a link whose token sets a new password, once", async () => {
    const email = address("reset");
    const { user, password } = await makeUser({ email });
    const oldSession = await sessionCookie(user.id);
    const since = sink.messages.length;

    const res = await requestReset(email);
    expect(res.status).toBe(202);
    expect(authEndpoints.forgotPassword.response!.safeParse(res.body).success).toBe(true);
    expect(res.body).toEqual({ accepted: true, message: expect.any(String) });

    const mail = await sink.waitForMail(mailTo(email, since));
    expect(mail.subject).toBe("Reset your password");
    expect(mail.authUser).toBe(SMTP_USER);
    const token = linkToken(mail, "reset-password");
    expect(token).toHaveLength(43);
    // Only the hash is stored.
    expect(await db().oneTimeToken.count({ where: { tokenHash: token } })).toBe(0);
    expect(await db().oneTimeToken.count({ where: { tokenHash: sha256Hex(token), kind: "password_reset" } })).toBe(1);

    const done = await resetWith(token, "brand new password 1");
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ ok: true });
    expect(authEndpoints.resetPassword.response!.safeParse(done.body).success).toBe(true);

    expect(await loginStatus(user.username, "brand new password 1")).toBe(200);
    expect(await loginStatus(user.username, password)).toBe(401);
    // A reset ends the sessions that may belong to whoever knew the old password.
    expect((await call(me.GET, ME, { cookie: oldSession })).status).toBe(401);

    const again = await resetWith(token, "another new password 2");
    expect(again.status).toBe(400);
    expect(again.body.code).toBe("validation");
    expect(again.body.details[0]).toMatchObject({ field: "token" });
    expect(await loginStatus(user.username, "brand new password 1")).toBe(200);

    const requested = await auditRows("auth.password_reset_requested", user.id);
    expect(requested).toHaveLength(1);
    expect(requested[0]).toMatchObject({ outcome: "success", actorName: user.username, ip: "127.0.0.1" });
    const resetDone = await auditRows("auth.password_reset", user.id);
    expect(resetDone).toHaveLength(1);
    expect(resetDone[0].outcome).toBe("success");
  });

  it("an expired token is refused", async () => {
    const email = address("expired");
    const { user, password } = await makeUser({ email });
    const since = sink.messages.length;
    expect((await requestReset(email)).status).toBe(202);
    const token = linkToken(await sink.waitForMail(mailTo(email, since)), "reset-password");
    await db().oneTimeToken.update({ where: { tokenHash: sha256Hex(token) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const res = await resetWith(token, "brand new password 1");
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation");
    expect(await loginStatus(user.username, password)).toBe(200);
  });

  it("an unknown address gets the same 202 and no mail", async () => {
    const knownEmail = address("known");
    await makeUser({ email: knownEmail });
    const unknownEmail = address("unknown");
    const since = sink.messages.length;
    const known = await requestReset(knownEmail);
    const unknown = await requestReset(unknownEmail);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect([...unknown.headers.keys()].sort()).toEqual([...known.headers.keys()].sort());
    await sink.waitForMail(mailTo(knownEmail, since));
    await expectNoMail(unknownEmail, since);
    const failures = await db().auditEvent.findMany({ where: { action: "auth.password_reset_requested", outcome: "failure" } });
    expect(failures.length).toBeGreaterThanOrEqual(1);
  });

  it("no mail for a disabled or a directory (LDAP) account", async () => {
    const disabledEmail = address("disabled-user");
    const { user: disabled } = await makeUser({ email: disabledEmail });
    await db().user.update({ where: { id: disabled.id }, data: { disabledAt: new Date() } });
    const ldapEmail = address("ldap-user");
    const { user: ldap } = await makeUser({ email: ldapEmail });
    await db().user.update({ where: { id: ldap.id }, data: { authSource: "ldap" } });
    const since = sink.messages.length;
    for (const email of [disabledEmail, ldapEmail]) {
      const res = await requestReset(email);
      expect(res.status).toBe(202);
      expect(res.body.accepted).toBe(true);
    }
    await expectNoMail(disabledEmail, since);
    await expectNoMail(ldapEmail, since);
  });

  it("finds the account whatever the case of the typed address, and mails the stored address", async () => {
    // Only the local part differs: nodemailer lower-cases domains on the wire anyway.
    const stored = `Mixed.Case-${seq++}@example.test`;
    const { user } = await makeUser({ email: stored });
    const since = sink.messages.length;
    expect((await requestReset(stored.toLowerCase())).status).toBe(202);
    const mail = await sink.waitForMail(mailTo(stored, since));
    expect(mail.to).toEqual([stored]);
    expect((await resetWith(linkToken(mail, "reset-password"), "case blind password 1")).status).toBe(200);
    expect(await loginStatus(user.username, "case blind password 1")).toBe(200);
  });

  it("a newer link replaces the older one", async () => {
    const email = address("twice");
    const { user } = await makeUser({ email });
    let since = sink.messages.length;
    expect((await requestReset(email)).status).toBe(202);
    const first = linkToken(await sink.waitForMail(mailTo(email, since)), "reset-password");
    since = sink.messages.length;
    expect((await requestReset(email)).status).toBe(202);
    const second = linkToken(await sink.waitForMail(mailTo(email, since)), "reset-password");
    expect(second).not.toBe(first);
    expect((await resetWith(first, "first link password")).status).toBe(400);
    expect((await resetWith(second, "second link password")).status).toBe(200);
    expect(await loginStatus(user.username, "second link password")).toBe(200);
  });

  it("a double submit of one link sets the password once", async () => {
    const email = address("double");
    await makeUser({ email });
    const since = sink.messages.length;
    expect((await requestReset(email)).status).toBe(202);
    const token = linkToken(await sink.waitForMail(mailTo(email, since)), "reset-password");
    const results = await Promise.all([resetWith(token, "double submit one"), resetWith(token, "double submit two")]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it("a link sent to an address the account no longer has is refused", async () => {
    const email = address("moved");
    const { user, password } = await makeUser({ email });
    const since = sink.messages.length;
    expect((await requestReset(email)).status).toBe(202);
    const token = linkToken(await sink.waitForMail(mailTo(email, since)), "reset-password");
    const changed = await call(me.PATCH, ME, { method: "PATCH", cookie: await sessionCookie(user.id), body: { email: address("moved-to") } });
    expect(changed.status).toBe(200);
    const res = await resetWith(token, "password via old address");
    expect(res.status).toBe(400);
    expect(await loginStatus(user.username, password)).toBe(200);
  });

  it("a link stops working when the account is disabled", async () => {
    const email = address("disabled-later");
    const { user } = await makeUser({ email });
    const since = sink.messages.length;
    expect((await requestReset(email)).status).toBe(202);
    const token = linkToken(await sink.waitForMail(mailTo(email, since)), "reset-password");
    await db().user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    expect((await resetWith(token, "password while disabled")).status).toBe(400);
  });

  it("a too short new password is 400 naming newPassword, and keeps the link usable", async () => {
    const email = address("short");
    const { user } = await makeUser({ email });
    const since = sink.messages.length;
    expect((await requestReset(email)).status).toBe(202);
    const token = linkToken(await sink.waitForMail(mailTo(email, since)), "reset-password");
    const short = await resetWith(token, "short");
    expect(short.status).toBe(400);
    expect(short.body.details[0]).toMatchObject({ location: "body", field: "newPassword" });
    expect((await resetWith(token, "long enough at last")).status).toBe(200);
    expect(await loginStatus(user.username, "long enough at last")).toBe(200);
  });

  it("a malformed reset request is 400 naming the field", async () => {
    const res = await requestReset("not-an-address");
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ location: "body", field: "email" });
  });
});

describe("e-mail address verification", () => {
  beforeAll(useWorkingSmtp);

  it("a new address in the profile gets a link that verifies it", async () => {
    const { user } = await makeUser();
    const cookie = await sessionCookie(user.id);
    const email = address("verify");
    const since = sink.messages.length;
    const res = await call(me.PATCH, ME, { method: "PATCH", cookie, body: { email } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email, emailVerified: false });

    const mail = await sink.waitForMail(mailTo(email, since));
    expect(mail.subject).toBe("Verify your e-mail address");
    expect(mail.text).toContain(email);
    const token = linkToken(mail, "verify-email");

    const verified = await verifyWith(token);
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({ ok: true });
    expect(authEndpoints.verifyEmail.response!.safeParse(verified.body).success).toBe(true);
    expect((await call(me.GET, ME, { cookie })).body).toMatchObject({ email, emailVerified: true });

    const audit = await auditRows("auth.email_verified", user.id);
    expect(audit).toHaveLength(1);
    expect(audit[0].details).toEqual({ email });

    const again = await verifyWith(token);
    expect(again.status).toBe(400);
    expect(again.body.details[0]).toMatchObject({ location: "query", field: "token" });
  });

  it("a link for an address the account no longer has is refused", async () => {
    const { user } = await makeUser();
    const cookie = await sessionCookie(user.id);
    const email = address("changed");
    const since = sink.messages.length;
    expect((await call(me.PATCH, ME, { method: "PATCH", cookie, body: { email } })).status).toBe(200);
    const token = linkToken(await sink.waitForMail(mailTo(email, since)), "verify-email");
    // Removing the address sends no new link, so the old one is still unused.
    expect((await call(me.PATCH, ME, { method: "PATCH", cookie, body: { email: null } })).status).toBe(200);
    const res = await verifyWith(token);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation");
    expect(res.body.error).toMatch(/address changed/);
    expect((await call(me.GET, ME, { cookie })).body).toMatchObject({ email: null, emailVerified: false });
    expect(await auditRows("auth.email_verified", user.id)).toHaveLength(0);
  });

  it("resend sends a fresh link, replacing the old one; once verified, resend is 409", async () => {
    const { user } = await makeUser();
    const cookie = await sessionCookie(user.id);
    const email = address("resend");
    let since = sink.messages.length;
    expect((await call(me.PATCH, ME, { method: "PATCH", cookie, body: { email } })).status).toBe(200);
    const first = linkToken(await sink.waitForMail(mailTo(email, since)), "verify-email");

    since = sink.messages.length;
    const resend = await call(verifyEmail.POST, VERIFY, { method: "POST", cookie });
    expect(resend.status).toBe(202);
    expect(authEndpoints.resendVerification.response!.safeParse(resend.body).success).toBe(true);
    expect(resend.body.message).toContain(email);
    const second = linkToken(await sink.waitForMail(mailTo(email, since)), "verify-email");
    expect(second).not.toBe(first);

    expect((await verifyWith(first)).status).toBe(400);
    expect((await verifyWith(second)).status).toBe(200);

    since = sink.messages.length;
    const done = await call(verifyEmail.POST, VERIFY, { method: "POST", cookie });
    expect(done.status).toBe(409);
    expect(done.body.code).toBe("conflict");
    await expectNoMail(email, since);
  });

  it("resend without an address is 400; without a session 401", async () => {
    const { user } = await makeUser();
    const res = await call(verifyEmail.POST, VERIFY, { method: "POST", cookie: await sessionCookie(user.id) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation");
    expect((await call(verifyEmail.POST, VERIFY, { method: "POST" })).status).toBe(401);
  });

  it("a missing or malformed token is 400 naming the query field", async () => {
    for (const url of [VERIFY, `${VERIFY}?token=short`]) {
      const res = await call(verifyEmail.GET, url);
      expect(res.status).toBe(400);
      expect(res.body.details[0]).toMatchObject({ location: "query", field: "token" });
    }
    const unknown = await verifyWith("A".repeat(43));
    expect(unknown.status).toBe(400);
  });

  it("a user created by an admin with an e-mail gets a verification mail", async () => {
    const email = address("created");
    const since = sink.messages.length;
    const res = await call(adminUsers.POST, "/api/v1/admin/users", {
      method: "POST",
      cookie: adminCookie,
      body: { username: `created${seq++}`, email, fullName: "Created Person" },
    });
    expect(res.status).toBe(201);
    const mail = await sink.waitForMail(mailTo(email, since));
    expect(mail.subject).toBe("Verify your e-mail address");
    expect(mail.text).toContain("Created Person");
    expect((await verifyWith(linkToken(mail, "verify-email"))).status).toBe(200);
    const created = await db().user.findUniqueOrThrow({ where: { email } });
    expect(created.emailVerifiedAt).not.toBeNull();
  });

  it("creating a user still succeeds when the SMTP server is unreachable", async () => {
    expect((await putConfig(sinkConfig({ port: await closedPort() }))).status).toBe(200);
    try {
      const email = address("created-offline");
      const res = await call(adminUsers.POST, "/api/v1/admin/users", { method: "POST", cookie: adminCookie, body: { username: `offline${seq++}`, email } });
      expect(res.status).toBe(201);
      expect(res.body.email).toBe(email);
    } finally {
      await useWorkingSmtp();
    }
  });
});
