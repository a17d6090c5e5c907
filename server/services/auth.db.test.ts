import { describe, expect, it } from "vitest";
import * as login from "@/app/api/v1/auth/login/route";
import * as logout from "@/app/api/v1/auth/logout/route";
import * as me from "@/app/api/v1/auth/me/route";
import * as changePassword from "@/app/api/v1/auth/change-password/route";
import { call, makeUser } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { db } from "@/server/db/client";

useTestDatabase();

function cookieFrom(res: { headers: Headers }) {
  const set = res.headers.get("set-cookie") ?? "";
  return set.split(";")[0];
}

describe("password login, me, logout", () => {
  it("logs in, sets an httpOnly SameSite=Lax cookie, and /me answers with it", async () => {
    const { user, password } = await makeUser({ username: "alice" });
    const res = await call(login.POST, "/api/v1/auth/login", { method: "POST", body: { username: "alice", password } });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe("alice");
    const setCookie = res.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^polymock_session=/);
    expect(setCookie).toContain("HttpOnly");
    expect(setCookie).toContain("SameSite=Lax");
    expect(setCookie).not.toContain("Secure");
    const who = await call(me.GET, "/api/v1/auth/me", { cookie: cookieFrom(res) });
    expect(who.status).toBe(200);
    expect(who.body.id).toBe(user.id);
    expect(who.headers.get("x-request-id")).toBeTruthy();
  });

  it("rejects a wrong password and an unknown user alike with 401 in the envelope, and audits both", async () => {
    await makeUser({ username: "bob" });
    for (const body of [{ username: "bob", password: "wrong-password" }, { username: "nobody", password: "whatever" }]) {
      const res = await call(login.POST, "/api/v1/auth/login", { method: "POST", body });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: "unauthorized", error: "Invalid username or password" });
      expect(res.body.request_id).toBe(res.headers.get("x-request-id"));
    }
    const failures = await db().auditEvent.count({ where: { action: "auth.login", outcome: "failure" } });
    expect(failures).toBeGreaterThanOrEqual(2);
  });

  it("refuses a disabled user even with the right password", async () => {
    const { user, password } = await makeUser();
    await db().user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    const res = await call(login.POST, "/api/v1/auth/login", { method: "POST", body: { username: user.username, password } });
    expect(res.status).toBe(401);
    expect(res.body.error).toMatch(/disabled/);
  });

  it("sets Secure on the cookie behind HTTPS", async () => {
    const { user, password } = await makeUser();
    process.env.PUBLIC_URL = "https://mocks.example.com";
    try {
      const res = await call(login.POST, "/api/v1/auth/login", { method: "POST", body: { username: user.username, password } });
      expect(res.headers.get("set-cookie")).toContain("Secure");
    } finally {
      process.env.PUBLIC_URL = "http://localhost:5770";
    }
  });

  it("logout ends the session", async () => {
    const { user, password } = await makeUser();
    const res = await call(login.POST, "/api/v1/auth/login", { method: "POST", body: { username: user.username, password } });
    const cookie = cookieFrom(res);
    const out = await call(logout.POST, "/api/v1/auth/logout", { method: "POST", cookie });
    expect(out.status).toBe(200);
    expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
    const after = await call(me.GET, "/api/v1/auth/me", { cookie });
    expect(after.status).toBe(401);
  });

  it("without a credential, /me is 401", async () => {
    const res = await call(me.GET, "/api/v1/auth/me");
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("unauthorized");
  });

  it("changes the password: old one stops working, other sessions end, current one stays", async () => {
    const { user, password } = await makeUser();
    const a = cookieFrom(await call(login.POST, "/api/v1/auth/login", { method: "POST", body: { username: user.username, password } }));
    const b = cookieFrom(await call(login.POST, "/api/v1/auth/login", { method: "POST", body: { username: user.username, password } }));
    const wrong = await call(changePassword.POST, "/api/v1/auth/change-password", { method: "POST", cookie: a, body: { currentPassword: "nope", newPassword: "new password 123" } });
    expect(wrong.status).toBe(400);
    const short = await call(changePassword.POST, "/api/v1/auth/change-password", { method: "POST", cookie: a, body: { currentPassword: password, newPassword: "short" } });
    expect(short.status).toBe(400);
    expect(short.body.details[0]).toMatchObject({ location: "body", field: "newPassword" });
    const ok = await call(changePassword.POST, "/api/v1/auth/change-password", { method: "POST", cookie: a, body: { currentPassword: password, newPassword: "new password 123" } });
    expect(ok.status).toBe(200);
    expect((await call(me.GET, "/api/v1/auth/me", { cookie: a })).status).toBe(200);
    expect((await call(me.GET, "/api/v1/auth/me", { cookie: b })).status).toBe(401);
    const old = await call(login.POST, "/api/v1/auth/login", { method: "POST", body: { username: user.username, password } });
    expect(old.status).toBe(401);
    const fresh = await call(login.POST, "/api/v1/auth/login", { method: "POST", body: { username: user.username, password: "new password 123" } });
    expect(fresh.status).toBe(200);
  });
});

describe("malformed input gets a 4xx envelope, never a 500", () => {
  it.each([
    ["invalid JSON", { rawBody: "{not json", headers: { "content-type": "application/json" } }, 400, ""],
    ["wrong type", { body: { username: 42, password: "x" } }, 400, "username"],
    ["missing field", { body: { username: "a" } }, 400, "password"],
    ["not JSON content type", { rawBody: "<xml/>", headers: { "content-type": "application/xml" } }, 400, "content-type"],
  ])("%s", async (_name, opts, status, field) => {
    const res = await call(login.POST, "/api/v1/auth/login", { method: "POST", ...(opts as object) });
    expect(res.status).toBe(status);
    expect(res.body.code).toBe("validation");
    expect(res.body.details[0].field).toBe(field);
  });

  it("oversized body is 413", async () => {
    process.env.MAX_BODY_BYTES = "1000";
    const { resetEnvCache } = await import("@/server/env");
    resetEnvCache();
    try {
      const res = await call(login.POST, "/api/v1/auth/login", { method: "POST", body: { username: "a".repeat(2000), password: "x" } });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe("payload_too_large");
    } finally {
      delete process.env.MAX_BODY_BYTES;
      resetEnvCache();
    }
  });
});

describe("NUL characters", () => {
  it("are refused with 400 instead of reaching PostgreSQL", async () => {
    const res = await call(login.POST, "/api/v1/auth/login", { method: "POST", rawBody: JSON.stringify({ username: "a\u0000b", password: "x" }), headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ location: "body", field: "username" });
  });
});

describe("stale session cookies", () => {
  it("do not stop anonymous endpoints such as login", async () => {
    const { user, password } = await makeUser();
    const res = await call(login.POST, "/api/v1/auth/login", { method: "POST", cookie: "polymock_session=long-gone-session-token", body: { username: user.username, password } });
    expect(res.status).toBe(200);
  });
});
