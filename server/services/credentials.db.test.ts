import { describe, expect, it } from "vitest";
import * as tokens from "@/app/api/v1/auth/tokens/route";
import * as token from "@/app/api/v1/auth/tokens/[id]/route";
import * as delegated from "@/app/api/v1/auth/delegated-credentials/route";
import * as delegatedOne from "@/app/api/v1/auth/delegated-credentials/[id]/route";
import * as rotate from "@/app/api/v1/auth/delegated-credentials/[id]/rotate/route";
import * as me from "@/app/api/v1/auth/me/route";
import * as namespaces from "@/app/api/v1/namespaces/route";
import { db } from "@/server/db/client";
import { sha256Hex } from "@/server/lib/crypto";
import { call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

async function userWithSession(opts: Parameters<typeof makeUser>[0] = {}) {
  const { user } = await makeUser(opts);
  return { user, cookie: await sessionCookie(user.id) };
}

describe("API tokens", () => {
  it("creates a token whose secret is shown once and stored only as a hash; X-API-Key and Bearer both work", async () => {
    const { user, cookie } = await userWithSession();
    const res = await call(tokens.POST, "/api/v1/auth/tokens", { method: "POST", cookie, body: { name: "ci", permissions: ["read"] } });
    expect(res.status).toBe(201);
    expect(res.body.token).toMatch(/^pmk_[A-Za-z0-9]{40}$/);
    expect(res.body).toMatchObject({ name: "ci", permissions: ["read"], namespace: null, status: "active", prefix: res.body.token.slice(0, 10) });
    const row = await db().credential.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(row.secretHash).toBe(sha256Hex(res.body.token));
    expect(JSON.stringify(row)).not.toContain(res.body.token);

    const viaKey = await call(me.GET, "/api/v1/auth/me", { token: res.body.token });
    expect(viaKey.body.id).toBe(user.id);
    const viaBearer = await call(me.GET, "/api/v1/auth/me", { headers: { authorization: `Bearer ${res.body.token}` } });
    expect(viaBearer.status).toBe(200);

    const listed = await call(tokens.GET, "/api/v1/auth/tokens", { cookie });
    expect(listed.body.count).toBe(1);
    expect(listed.body.tokens[0]).not.toHaveProperty("token");
    const got = await call(token.GET, `/api/v1/auth/tokens/${res.body.id}`, { cookie, params: { id: res.body.id } });
    expect(got.body.id).toBe(res.body.id);
    expect(got.body).not.toHaveProperty("token");
  });

  it("renames and changes expiry; revoked and expired tokens get 401", async () => {
    const { cookie } = await userWithSession();
    const created = (await call(tokens.POST, "/api/v1/auth/tokens", { method: "POST", cookie, body: { name: "a", expiresInDays: 30 } })).body;
    const renamed = await call(token.PATCH, "/", { method: "PATCH", cookie, params: { id: created.id }, body: { name: "b", expiresAt: null } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "b", expiresAt: null });
    const past = await call(token.PATCH, "/", { method: "PATCH", cookie, params: { id: created.id }, body: { expiresAt: "2001-01-01T00:00:00Z" } });
    expect(past.status).toBe(400);

    await db().credential.update({ where: { id: created.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await call(me.GET, "/api/v1/auth/me", { token: created.token });
    expect(expired.status).toBe(401);
    expect(expired.body.error).toMatch(/expired/);

    const other = (await call(tokens.POST, "/api/v1/auth/tokens", { method: "POST", cookie, body: { name: "c" } })).body;
    const revoked = await call(token.DELETE, "/", { method: "DELETE", cookie, params: { id: other.id } });
    expect(revoked.body.status).toBe("revoked");
    expect((await call(me.GET, "/api/v1/auth/me", { token: other.token })).status).toBe(401);
    expect((await call(me.GET, "/api/v1/auth/me", { token: "pmk_doesnotexist" })).status).toBe(401);
  });

  it("another user's token is not found", async () => {
    const a = await userWithSession();
    const b = await userWithSession();
    const created = (await call(tokens.POST, "/", { method: "POST", cookie: a.cookie, body: { name: "mine" } })).body;
    const res = await call(token.GET, "/", { cookie: b.cookie, params: { id: created.id } });
    expect(res.status).toBe(404);
    expect((await call(token.DELETE, "/", { method: "DELETE", cookie: b.cookie, params: { id: created.id } })).status).toBe(404);
  });

  it("a token never exceeds its creator: a read token cannot mint a write token, a viewer cannot pin write rights", async () => {
    const { user, cookie } = await userWithSession();
    await makeNamespace("viewonly", { [user.id]: "viewer" });
    const readOnly = (await call(tokens.POST, "/", { method: "POST", cookie, body: { name: "r", permissions: ["read", "write"] } })).body;
    const escalate = await call(tokens.POST, "/", { method: "POST", token: readOnly.token, body: { name: "x", permissions: ["read", "delete"] } });
    expect(escalate.status).toBe(403);
    const pinned = await call(tokens.POST, "/", { method: "POST", cookie, body: { name: "p", permissions: ["read", "write"], namespace: "viewonly" } });
    expect(pinned.status).toBe(403);
    const ok = await call(tokens.POST, "/", { method: "POST", cookie, body: { name: "p", permissions: ["read"], namespace: "viewonly" } });
    expect(ok.status).toBe(201);
    expect(ok.body.namespace).toBe("viewonly");
    const notMember = await call(tokens.POST, "/", { method: "POST", cookie, body: { name: "n", permissions: ["read"], namespace: "nope" } });
    expect(notMember.status).toBe(404);
  });

  it("a read-only token cannot create tokens or namespaces (write needed)", async () => {
    const { cookie } = await userWithSession();
    const ro = (await call(tokens.POST, "/", { method: "POST", cookie, body: { name: "ro", permissions: ["read"] } })).body;
    expect((await call(tokens.POST, "/", { method: "POST", token: ro.token, body: { name: "x", permissions: ["read"] } })).status).toBe(403);
    expect((await call(namespaces.POST, "/", { method: "POST", token: ro.token, body: { name: "new-ns" } })).status).toBe(403);
    expect((await call(namespaces.GET, "/", { token: ro.token })).status).toBe(200);
  });

  it("a token stops working when its owner is disabled", async () => {
    const { user, cookie } = await userWithSession();
    const t = (await call(tokens.POST, "/", { method: "POST", cookie, body: { name: "t" } })).body;
    await db().user.update({ where: { id: user.id }, data: { disabledAt: new Date() } });
    expect((await call(me.GET, "/", { token: t.token })).status).toBe(401);
  });

  it("rejects unknown permissions and fields with a 400 naming them", async () => {
    const { cookie } = await userWithSession();
    const bad = await call(tokens.POST, "/", { method: "POST", cookie, body: { name: "t", permissions: ["root"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe("permissions.0");
    const extra = await call(tokens.POST, "/", { method: "POST", cookie, body: { name: "t", admin: true } });
    expect(extra.status).toBe(400);
    const badId = await call(token.GET, "/", { cookie, params: { id: "not-a-uuid" } });
    expect(badId.status).toBe(400);
    expect(badId.body.details[0]).toMatchObject({ location: "path", field: "id" });
  });
});

describe("delegated credentials", () => {
  it("are frozen to a namespace, expire after 90 days, rotate to a new bearer with the same scope, and revoke", async () => {
    const { user, cookie } = await userWithSession();
    await makeNamespace("proj", { [user.id]: "owner" });
    await makeNamespace("other", { [user.id]: "owner" });
    const created = await call(delegated.POST, "/", { method: "POST", cookie, body: { name: "deploy bot", namespace: "proj", permissions: ["read", "write"] } });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^pmd_/);
    const days = (new Date(created.body.credentialExpiresAt).getTime() - Date.now()) / 86400000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThanOrEqual(90);

    const listed = await call(delegated.GET, "/", { cookie });
    expect(listed.body.count).toBe(1);

    // The bearer is pinned: naming another namespace is a 404.
    const nsList = await call(namespaces.GET, "/", { token: created.body.token });
    expect(nsList.body.namespaces).toEqual(["proj"]);

    await db().credential.update({ where: { id: created.body.id }, data: { expiresAt: new Date(Date.now() + 86400000) } });
    const rotated = await call(rotate.POST, "/", { method: "POST", cookie, params: { id: created.body.id } });
    expect(rotated.status).toBe(200);
    expect(rotated.body.token).not.toBe(created.body.token);
    expect(rotated.body).toMatchObject({ namespace: "proj", permissions: ["read", "write"] });
    expect(new Date(rotated.body.credentialExpiresAt).getTime()).toBeGreaterThan(Date.now() + 89 * 86400000);
    expect((await call(me.GET, "/", { token: created.body.token })).status).toBe(401);
    expect((await call(me.GET, "/", { token: rotated.body.token })).status).toBe(200);

    const revoked = await call(delegatedOne.DELETE, "/", { method: "DELETE", cookie, params: { id: created.body.id } });
    expect(revoked.body.status).toBe("revoked");
    expect((await call(me.GET, "/", { token: rotated.body.token })).status).toBe(401);
    expect((await call(rotate.POST, "/", { method: "POST", cookie, params: { id: created.body.id } })).status).toBe(409);
  });

  it("others cannot see or rotate them, but an owner of the namespace and an admin can", async () => {
    const a = await userWithSession();
    const owner = await userWithSession();
    const stranger = await userWithSession();
    const admin = await userWithSession({ role: "admin" });
    await makeNamespace("shared", { [a.user.id]: "editor", [owner.user.id]: "owner" });
    const c = (await call(delegated.POST, "/", { method: "POST", cookie: a.cookie, body: { name: "x", namespace: "shared" } })).body;
    expect((await call(delegatedOne.GET, "/", { cookie: stranger.cookie, params: { id: c.id } })).status).toBe(404);
    expect((await call(delegatedOne.GET, "/", { cookie: owner.cookie, params: { id: c.id } })).status).toBe(200);
    expect((await call(delegatedOne.GET, "/", { cookie: admin.cookie, params: { id: c.id } })).status).toBe(200);
    const notMember = await call(delegated.POST, "/", { method: "POST", cookie: stranger.cookie, body: { name: "x", namespace: "shared" } });
    expect(notMember.status).toBe(404);
  });
});
