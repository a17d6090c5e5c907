// Naming the namespace (query, headers, path form, pinned token, default) and
// what a namespace the caller cannot see looks like, through real route
// handlers against a real database. The isolation table itself is
// server/http/isolation.db.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import * as members from "@/app/api/v1/members/route";
import { call, makeNamespace, makeToken, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

type Who = { cookie?: string; token?: string };
const who: Record<string, Who> = {};

beforeAll(async () => {
  const owner = await makeUser({ username: "owner" });
  const outsider = await makeUser({ username: "outsider" });
  await makeNamespace("team-a", { [owner.user.id]: "owner" });
  await makeNamespace("team-b", { [owner.user.id]: "owner", [outsider.user.id]: "owner" });
  who.owner = { cookie: await sessionCookie(owner.user.id) };
  who.outsider = { cookie: await sessionCookie(outsider.user.id) };
  who.ownerTokenPinnedB = { token: await makeToken(owner.user, { permissions: ["read", "write", "delete"], namespace: "team-b" }) };
});

// The caller × resource × action table (members included, with writes that
// change something) is server/http/isolation.db.test.ts.
describe("namespace isolation: what a hidden namespace looks like", () => {
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
