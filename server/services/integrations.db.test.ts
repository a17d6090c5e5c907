import { describe, expect, it } from "vitest";
import * as integrations from "@/app/api/v1/integrations/route";
import * as one from "@/app/api/v1/integrations/[id]/route";
import * as revoke from "@/app/api/v1/integrations/[id]/revoke/route";
import * as rotate from "@/app/api/v1/integrations/[id]/rotate/route";
import * as forNs from "@/app/api/v1/integrations/namespace/[ns]/route";
import * as me from "@/app/api/v1/auth/me/route";
import * as namespaces from "@/app/api/v1/namespaces/route";
import { call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

describe("integration credentials", () => {
  it("admins create instance-wide ones with a 90-day expiry; rotate, revoke and delete", async () => {
    const admin = await makeUser({ role: "admin" });
    const cookie = await sessionCookie(admin.user.id);
    const created = await call(integrations.POST, "/", { method: "POST", cookie, body: { name: "runner-1", permissions: ["read", "write"] } });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^pmi_/);
    expect(created.body).toMatchObject({ kind: "integration", namespace: null, status: "active" });
    const days = (Date.parse(created.body.credentialExpiresAt) - Date.now()) / 86400000;
    expect(Math.round(days)).toBe(90);
    expect((await call(me.GET, "/", { token: created.body.token })).status).toBe(200);

    const rotated = await call(rotate.POST, "/", { method: "POST", cookie, params: { id: created.body.id } });
    expect(rotated.body.token).not.toBe(created.body.token);
    expect((await call(me.GET, "/", { token: created.body.token })).status).toBe(401);
    expect((await call(me.GET, "/", { token: rotated.body.token })).status).toBe(200);

    const revoked = await call(revoke.POST, "/", { method: "POST", cookie, params: { id: created.body.id } });
    expect(revoked.body.status).toBe("revoked");
    expect((await call(me.GET, "/", { token: rotated.body.token })).status).toBe(401);

    const list = await call(integrations.GET, "/", { cookie });
    expect(list.body.count).toBe(1);
    expect((await call(one.DELETE, "/", { method: "DELETE", cookie, params: { id: created.body.id } })).status).toBe(200);
    expect((await call(integrations.GET, "/", { cookie })).body.count).toBe(0);
  });

  it("a non-admin cannot create an instance-wide integration; a namespace owner can create a pinned one, others cannot", async () => {
    const owner = await makeUser();
    const editor = await makeUser();
    await makeNamespace("svc", { [owner.user.id]: "owner", [editor.user.id]: "editor" });
    const ownerCookie = await sessionCookie(owner.user.id);
    const editorCookie = await sessionCookie(editor.user.id);
    expect((await call(integrations.POST, "/", { method: "POST", cookie: ownerCookie, body: { name: "x" } })).status).toBe(403);
    const pinned = await call(forNs.POST, "/", { method: "POST", cookie: ownerCookie, params: { ns: "svc" }, body: { name: "ci" } });
    expect(pinned.status).toBe(201);
    expect(pinned.body.namespace).toBe("svc");
    const nsList = await call(namespaces.GET, "/", { token: pinned.body.token });
    expect(nsList.body.namespaces).toEqual(["svc"]);
    expect((await call(forNs.POST, "/", { method: "POST", cookie: editorCookie, params: { ns: "svc" }, body: { name: "ci" } })).status).toBe(403);
    expect((await call(forNs.POST, "/", { method: "POST", cookie: editorCookie, params: { ns: "nope" }, body: { name: "ci" } })).status).toBe(404);
    expect((await call(integrations.GET, "/", { cookie: editorCookie })).body.count).toBe(0);
    expect((await call(integrations.GET, "/", { cookie: ownerCookie })).body.count).toBe(1);
    expect((await call(one.DELETE, "/", { method: "DELETE", cookie: editorCookie, params: { id: pinned.body.id } })).status).toBe(404);
  });
});
