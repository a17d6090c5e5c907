import { beforeAll, describe, expect, it } from "vitest";
import * as users from "@/app/api/v1/admin/users/route";
import * as userOne from "@/app/api/v1/admin/users/[id]/route";
import * as userPassword from "@/app/api/v1/admin/users/[id]/password/route";
import * as userDisable from "@/app/api/v1/admin/users/[id]/disable/route";
import * as userEnable from "@/app/api/v1/admin/users/[id]/enable/route";
import * as adminNs from "@/app/api/v1/admin/namespaces/route";
import * as adminNsOne from "@/app/api/v1/admin/namespaces/[namespace]/route";
import * as adminNsRestore from "@/app/api/v1/admin/namespaces/[namespace]/restore/route";
import * as adminNsUsers from "@/app/api/v1/admin/namespaces/[namespace]/users/route";
import * as adminNsUser from "@/app/api/v1/admin/namespaces/[namespace]/users/[user_id]/route";
import * as adminNsRole from "@/app/api/v1/admin/namespaces/[namespace]/users/[user_id]/role/route";
import * as namespaces from "@/app/api/v1/namespaces/route";
import * as login from "@/app/api/v1/auth/login/route";
import * as me from "@/app/api/v1/auth/me/route";
import * as tokens from "@/app/api/v1/auth/tokens/route";
import * as members from "@/app/api/v1/members/route";
import { db } from "@/server/db/client";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

let admin = "";
let adminId = "";
let plain = "";

beforeAll(async () => {
  const a = await makeUser({ username: "boss", role: "admin" });
  adminId = a.user.id;
  admin = await sessionCookie(a.user.id);
  plain = await sessionCookie((await makeUser({ username: "pleb" })).user.id);
  await db().namespace.create({ data: { name: "sandbox" } });
});

describe("admin users", () => {
  it("needs the admin role (403 for a user, 401 for nobody)", async () => {
    expect((await call(users.GET, "/api/v1/admin/users", { cookie: plain })).status).toBe(403);
    expect((await call(users.GET, "/api/v1/admin/users")).status).toBe(401);
  });

  it("creates, lists (paged), updates, sets a password, disables, enables and deletes", async () => {
    const created = await call(users.POST, "/", { method: "POST", cookie: admin, body: { username: "carol", password: "carol password", fullName: "Carol", namespaces: [{ name: "sandbox", role: "editor" }] } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: "carol", role: "user", namespaceCount: 1, disabled: false });
    const id = created.body.id;

    const dup = await call(users.POST, "/", { method: "POST", cookie: admin, body: { username: "carol", password: "whatever123" } });
    expect(dup.status).toBe(409);
    const badNs = await call(users.POST, "/", { method: "POST", cookie: admin, body: { username: "dave", namespaces: [{ name: "nope", role: "editor" }] } });
    expect(badNs.status).toBe(400);
    expect(await db().user.findUnique({ where: { username: "dave" } })).toBeNull(); // nothing half-written

    const list = await call(users.GET, "/api/v1/admin/users?search=car&limit=1&offset=0", { cookie: admin });
    expect(list.body).toMatchObject({ total: 1, limit: 1, offset: 0 });
    expect(list.body.users[0].username).toBe("carol");

    const updated = await call(userOne.PUT, "/", { method: "PUT", cookie: admin, params: { id }, body: { fullName: "Carol C", role: "admin" } });
    expect(updated.body).toMatchObject({ fullName: "Carol C", role: "admin" });

    const pw = await call(userPassword.PUT, "/", { method: "PUT", cookie: admin, params: { id }, body: { password: "brand new pass" } });
    expect(pw.status).toBe(200);
    const loggedIn = await call(login.POST, "/", { method: "POST", body: { username: "carol", password: "brand new pass" } });
    expect(loggedIn.status).toBe(200);
    const carolCookie = loggedIn.headers.get("set-cookie")!.split(";")[0];
    const carolToken = (await call(tokens.POST, "/", { method: "POST", cookie: carolCookie, body: { name: "t" } })).body.token;

    const disabled = await call(userDisable.POST, "/", { method: "POST", cookie: admin, params: { id } });
    expect(disabled.body.disabled).toBe(true);
    expect((await call(me.GET, "/", { cookie: carolCookie })).status).toBe(401);
    expect((await call(me.GET, "/", { token: carolToken })).status).toBe(401);
    expect((await call(login.POST, "/", { method: "POST", body: { username: "carol", password: "brand new pass" } })).status).toBe(401);

    const enabled = await call(userEnable.POST, "/", { method: "POST", cookie: admin, params: { id } });
    expect(enabled.body.disabled).toBe(false);
    expect((await call(me.GET, "/", { token: carolToken })).status).toBe(200);

    const deleted = await call(userOne.DELETE, "/", { method: "DELETE", cookie: admin, params: { id } });
    expect(deleted.status).toBe(200);
    expect(await db().credential.count({ where: { userId: id } })).toBe(0);
    expect((await call(userOne.DELETE, "/", { method: "DELETE", cookie: admin, params: { id } })).status).toBe(404);
  });

  it("protects the last admin and the caller's own account", async () => {
    expect((await call(userOne.DELETE, "/", { method: "DELETE", cookie: admin, params: { id: adminId } })).status).toBe(409);
    expect((await call(userDisable.POST, "/", { method: "POST", cookie: admin, params: { id: adminId } })).status).toBe(409);
  });

  it("records admin actions in the audit log", async () => {
    const actions = (await db().auditEvent.findMany({ where: { actorName: "boss" } })).map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["admin.user_create", "admin.user_update", "admin.user_set_password", "admin.user_disable", "admin.user_enable", "admin.user_delete"]));
  });
});

describe("namespaces", () => {
  it("a user creates a namespace and becomes its owner; duplicates are 409; bad names 400", async () => {
    const { user } = await makeUser({ username: "erin" });
    const cookie = await sessionCookie(user.id);
    const res = await call(namespaces.POST, "/", { method: "POST", cookie, body: { name: "erin-team" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "erin-team", role: "owner", permissions: ["read", "write", "delete"] });
    expect((await call(namespaces.POST, "/", { method: "POST", cookie, body: { name: "erin-team" } })).status).toBe(409);
    const bad = await call(namespaces.POST, "/", { method: "POST", cookie, body: { name: "Bad Name!" } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe("name");
    const list = await call(namespaces.GET, "/", { cookie });
    expect(list.body).toEqual({ namespaces: ["erin-team"], count: 1 });
    const forOther = await call(namespaces.POST, "/", { method: "POST", cookie, body: { name: "x-team", owner: "boss" } });
    expect(forOther.status).toBe(403);
  });

  it("admin lists, deletes, restores, and manages members", async () => {
    const { user } = await makeUser({ username: "frank" });
    await call(namespaces.POST, "/", { method: "POST", cookie: admin, body: { name: "ops", owner: "frank" } });
    const list = await call(adminNs.GET, "/api/v1/admin/namespaces", { cookie: admin });
    expect(list.body.namespaces.find((n: { name: string }) => n.name === "ops")).toMatchObject({ owner: { username: "frank" }, memberCount: 1, deletedAt: null });

    const grace = await makeUser({ username: "grace" });
    const added = await call(adminNsUsers.POST, "/", { method: "POST", cookie: admin, params: { namespace: "ops" }, body: { username: "grace", role: "viewer" } });
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({ username: "grace", role: "viewer" });
    const role = await call(adminNsRole.PUT, "/", { method: "PUT", cookie: admin, params: { namespace: "ops", user_id: grace.user.id }, body: { role: "editor" } });
    expect(role.body.role).toBe("editor");
    const badRole = await call(adminNsRole.PUT, "/", { method: "PUT", cookie: admin, params: { namespace: "ops", user_id: grace.user.id }, body: { role: "god" } });
    expect(badRole.status).toBe(400);
    const lastOwner = await call(adminNsRole.PUT, "/", { method: "PUT", cookie: admin, params: { namespace: "ops", user_id: user.id }, body: { role: "viewer" } });
    expect(lastOwner.status).toBe(409);
    const listed = await call(adminNsUsers.GET, "/", { cookie: admin, params: { namespace: "ops" } });
    expect(listed.body.count).toBe(2);
    const removed = await call(adminNsUser.DELETE, "/", { method: "DELETE", cookie: admin, params: { namespace: "ops", user_id: grace.user.id } });
    expect(removed.status).toBe(200);

    const frankCookie = await sessionCookie(user.id);
    const del = await call(adminNsOne.DELETE, "/", { method: "DELETE", cookie: admin, params: { namespace: "ops" } });
    expect(del.body.deletedAt).not.toBeNull();
    expect((await call(members.GET, "/api/v1/members?namespace=ops", { cookie: frankCookie })).status).toBe(404);
    expect((await call(adminNs.GET, "/api/v1/admin/namespaces", { cookie: admin })).body.namespaces.some((n: { name: string }) => n.name === "ops")).toBe(false);
    expect((await call(adminNs.GET, "/api/v1/admin/namespaces?includeDeleted=true", { cookie: admin })).body.namespaces.some((n: { name: string }) => n.name === "ops")).toBe(true);
    const restored = await call(adminNsRestore.POST, "/", { method: "POST", cookie: admin, params: { namespace: "ops" } });
    expect(restored.body.deletedAt).toBeNull();
    expect((await call(members.GET, "/api/v1/members?namespace=ops", { cookie: frankCookie })).status).toBe(200);
    expect((await call(adminNsOne.DELETE, "/", { method: "DELETE", cookie: admin, params: { namespace: "missing" } })).status).toBe(404);
    expect((await call(adminNsUsers.GET, "/", { cookie: plain, params: { namespace: "ops" } })).status).toBe(403);
  });
});
