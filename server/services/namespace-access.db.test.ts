// Namespace isolation: who gets 2xx, 403 or 404 for read, write and delete in a
// namespace, and the three ways to name it. Exercised through real route
// handlers against a real database.
import { beforeAll, describe, expect, it } from "vitest";
import * as members from "@/app/api/v1/members/route";
import * as member from "@/app/api/v1/members/[user_id]/route";
import { call, makeNamespace, makeToken, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import type { Permission } from "@/server/contracts/endpoint";

useTestDatabase();

type Who = { cookie?: string; token?: string };
const who: Record<string, Who> = {};
let victimId = "";

beforeAll(async () => {
  const owner = await makeUser({ username: "owner" });
  const editor = await makeUser({ username: "editor" });
  const viewer = await makeUser({ username: "viewer" });
  const outsider = await makeUser({ username: "outsider" });
  const admin = await makeUser({ username: "root", role: "admin" });
  await makeNamespace("team-a", { [owner.user.id]: "owner", [editor.user.id]: "editor", [viewer.user.id]: "viewer" });
  await makeNamespace("team-b", { [owner.user.id]: "owner", [outsider.user.id]: "owner" });
  const victim = await makeUser({ username: "victim", namespaces: { "team-a": "viewer" } });
  victimId = victim.user.id;

  who.owner = { cookie: await sessionCookie(owner.user.id) };
  who.editor = { cookie: await sessionCookie(editor.user.id) };
  who.viewer = { cookie: await sessionCookie(viewer.user.id) };
  who.outsider = { cookie: await sessionCookie(outsider.user.id) };
  who.admin = { cookie: await sessionCookie(admin.user.id) };
  const tok = (permissions: Permission[], namespace?: string) => makeToken(owner.user, { permissions, namespace });
  who.ownerTokenRead = { token: await tok(["read"]) };
  who.ownerTokenReadWrite = { token: await tok(["read", "write"]) };
  who.ownerTokenAll = { token: await tok(["read", "write", "delete"]) };
  who.ownerTokenPinnedA = { token: await tok(["read", "write", "delete"], "team-a") };
  who.ownerTokenPinnedB = { token: await tok(["read", "write", "delete"], "team-b") };
  who.anonymous = {};
});

// read = GET /members; write = PUT /members/:id (role change); delete = DELETE /members/:id.
// Member management also needs the owner role, so editors and viewers get 403 for write/delete.
const table: [string, number, number, number][] = [
  //  caller                read write delete
  ["owner",                  200, 200, 200],
  ["editor",                 200, 403, 403],
  ["viewer",                 200, 403, 403],
  ["outsider",               404, 404, 404],
  ["admin",                  200, 200, 200],
  ["ownerTokenRead",         200, 403, 403],
  ["ownerTokenReadWrite",    200, 200, 403],
  ["ownerTokenAll",          200, 200, 200],
  ["ownerTokenPinnedA",      200, 200, 200],
  ["ownerTokenPinnedB",      404, 404, 404],
  ["anonymous",              401, 401, 401],
];

describe("namespace isolation: caller x permission in namespace team-a", () => {
  it.each(table)("%s → read %i, write %i, delete %i", async (name, read, write, del) => {
    const c = who[name];
    const r = await call(members.GET, "/api/v1/members?namespace=team-a", c);
    expect(r.status, JSON.stringify(r.body)).toBe(read);
    const w = await call(member.PUT, `/api/v1/members/${victimId}?namespace=team-a`, { ...c, method: "PUT", params: { user_id: victimId }, body: { role: "viewer" } });
    expect(w.status, JSON.stringify(w.body)).toBe(write);
    if (del === 200) {
      // Deleting for real would change later rows; check on a throwaway member instead.
      const temp = await makeUser({ namespaces: { "team-a": "viewer" } });
      const d = await call(member.DELETE, `/api/v1/members/${temp.user.id}?namespace=team-a`, { ...c, method: "DELETE", params: { user_id: temp.user.id } });
      expect(d.status, JSON.stringify(d.body)).toBe(200);
    } else {
      const d = await call(member.DELETE, `/api/v1/members/${victimId}?namespace=team-a`, { ...c, method: "DELETE", params: { user_id: victimId } });
      expect(d.status, JSON.stringify(d.body)).toBe(del);
    }
    for (const res of [r, w]) if (res.status >= 400) expect(res.body).toHaveProperty("request_id");
  });

  it("a 404 for a namespace the caller cannot read looks exactly like a missing one", async () => {
    const hidden = await call(members.GET, "/api/v1/members?namespace=team-a", who.outsider);
    const missing = await call(members.GET, "/api/v1/members?namespace=does-not-exist", who.outsider);
    expect(hidden.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(hidden.body.error.replace("team-a", "X")).toBe(missing.body.error.replace("does-not-exist", "X"));
  });
});

describe("naming the namespace", () => {
  it("accepts query, X-Service-Namespace, X-Namespace, the path-form header, and a pinned token's namespace", async () => {
    const ways: [string, Parameters<typeof call>[2]][] = [
      ["query", { ...who.owner }],
      ["X-Service-Namespace", { ...who.owner, headers: { "x-service-namespace": "team-b" } }],
      ["X-Namespace", { ...who.owner, headers: { "x-namespace": "team-b" } }],
      ["path form", { ...who.owner, headers: { "x-polymock-path-namespace": "team-b" } }],
      ["pinned token", { ...who.ownerTokenPinnedB }],
    ];
    for (const [label, opts] of ways) {
      const url = label === "query" ? "/api/v1/members?namespace=team-b" : "/api/v1/members";
      const res = await call(members.GET, url, opts);
      expect(res.status, label).toBe(200);
      expect(res.body.users.map((u: { username: string }) => u.username).sort(), label).toEqual(["outsider", "owner"]);
    }
  });

  it("defaults to sandbox when nothing names a namespace", async () => {
    const { user } = await makeUser({ namespaces: { sandbox: "viewer" } });
    const res = await call(members.GET, "/api/v1/members", { cookie: await sessionCookie(user.id) });
    expect(res.status).toBe(200);
    expect(res.body.users.some((u: { userId: string }) => u.userId === user.id)).toBe(true);
  });

  it("a pinned token naming another namespace gets 404", async () => {
    const res = await call(members.GET, "/api/v1/members?namespace=team-a", who.ownerTokenPinnedB);
    expect(res.status).toBe(404);
  });

  it("an invalid namespace name is simply not found, never a 500", async () => {
    const res = await call(members.GET, "/api/v1/members?namespace=../../etc", who.owner);
    expect(res.status).toBe(404);
  });
});

describe("hostile namespace names", () => {
  it("a NUL in the namespace query is a 400, not a database error", async () => {
    const res = await call(members.GET, "/api/v1/members?namespace=a%00b", who.owner);
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ location: "query", field: "namespace" });
  });
});
