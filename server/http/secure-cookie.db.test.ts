// The session cookie's Secure flag and the client address recorded for a
// login, through the real login and logout routes, for each way a deployment
// can tell us it is behind TLS (PUBLIC_URL, or TRUST_PROXY with X-Forwarded-*).
import { afterEach, describe, expect, it } from "vitest";
import * as login from "@/app/api/v1/auth/login/route";
import * as logout from "@/app/api/v1/auth/logout/route";
import { db } from "@/server/db/client";
import { call, makeUser } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const saved = { TRUST_PROXY: process.env.TRUST_PROXY, PUBLIC_URL: process.env.PUBLIC_URL };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

describe("Secure session cookie and client address behind a proxy", () => {
  it.each([
    // [TRUST_PROXY, PUBLIC_URL, X-Forwarded-Proto, X-Forwarded-For, Secure?, recorded IP]
    [undefined, "http://localhost:5770", undefined, undefined, false, "10.1.1.1"],
    [undefined, "http://localhost:5770", "https", "203.0.113.7", false, "10.1.1.1"],
    [undefined, "https://mocks.example.com", undefined, undefined, true, "10.1.1.1"],
    ["1", "http://localhost:5770", "https", "198.51.100.1, 203.0.113.7", true, "203.0.113.7"],
    ["1", "http://localhost:5770", "http", "203.0.113.7", false, "203.0.113.7"],
    ["true", "http://localhost:5770", undefined, undefined, false, "10.1.1.1"],
  ])("TRUST_PROXY=%s PUBLIC_URL=%s proto=%s for=%s → Secure %s, ip %s", async (trust, publicUrl, proto, forwarded, secure, ip) => {
    if (trust === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = trust;
    process.env.PUBLIC_URL = publicUrl;
    const { user, password } = await makeUser();
    const headers: Record<string, string> = {};
    if (proto) headers["x-forwarded-proto"] = proto;
    if (forwarded) headers["x-forwarded-for"] = forwarded;

    const res = await call(login.POST, "/api/v1/auth/login", { method: "POST", body: { username: user.username, password }, headers, ip: "10.1.1.1" });
    expect(res.status).toBe(200);
    expect(/;\s*Secure(;|$)/.test(res.headers.get("set-cookie")!)).toBe(secure);
    const session = await db().session.findFirst({ where: { userId: user.id }, orderBy: { createdAt: "desc" } });
    expect(session?.ip).toBe(ip);

    const out = await call(logout.POST, "/api/v1/auth/logout", { method: "POST", headers: { ...headers, cookie: res.headers.get("set-cookie")!.split(";")[0] } });
    expect(/;\s*Secure(;|$)/.test(out.headers.get("set-cookie")!)).toBe(secure);
  });
});
