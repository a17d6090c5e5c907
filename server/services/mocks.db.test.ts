import { beforeAll, describe, expect, it } from "vitest";
import * as mocks from "@/app/api/v1/mocks/route";
import * as mockOne from "@/app/api/v1/mocks/[id]/route";
import { db } from "@/server/db/client";
import { call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

let cookie = "";
beforeAll(async () => {
  const { user } = await makeUser();
  await makeNamespace("sandbox", { [user.id]: "editor" });
  cookie = await sessionCookie(user.id);
});

const save = (body: unknown, query = "") => call(mocks.POST, `/api/v1/mocks${query}`, { method: "POST", cookie, body });

describe("POST /api/v1/mocks", () => {
  it("creates a mock and returns the Save result with integer createdAt and useCounter", async () => {
    const res = await save({ http: { route: "/api/users/:id", httpMethod: "GET" }, response: { statusCode: 200, payload: { id: "$.pathParam.id" } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ overwritten: false, mock: { namespace: "sandbox", useCounter: 0 } });
    expect(Number.isInteger(res.body.mock.createdAt)).toBe(true);
    const got = await call(mockOne.GET, "/", { cookie, params: { id: res.body.mock.id } });
    expect(got.body).toMatchObject({ id: res.body.mock.id, protocol: "http", version: 1, http: { route: "/api/users/:id", httpMethod: "GET" }, priority: 0, ttl: 0, useLimiter: 0, transient: false });
  });

  it("answers 409 duplicate_entity (strict / similar) for the same endpoint and conditions; intents overwrite or keep both", async () => {
    const def = { http: { route: "/dup", httpMethod: "POST", conditions: [{ path: "$.a", assertAction: "equals", value: 1 }] }, response: { payload: "one" } };
    const first = await save(def);
    const strict = await save(def);
    expect(strict.status).toBe(409);
    expect(strict.body).toMatchObject({ code: "duplicate_entity", matchLevel: "strict", existing: { id: first.body.mock.id, summary: "POST /dup" } });
    const similar = await save({ ...def, response: { payload: "two" } });
    expect(similar.body.matchLevel).toBe("similar");
    const overwritten = await save({ ...def, response: { payload: "two" } }, "?intent=overwrite");
    expect(overwritten.body).toMatchObject({ overwritten: true, mock: { id: first.body.mock.id } });
    const got = await call(mockOne.GET, "/", { cookie, params: { id: first.body.mock.id } });
    expect(got.body).toMatchObject({ version: 2, response: { payload: "two" } });
    const kept = await save(def, "?intent=create_new");
    expect(kept.body.overwritten).toBe(false);
    expect(kept.body.mock.id).not.toBe(first.body.mock.id);
    // Other conditions on the same route are a separate variant, not a conflict.
    const variant = await save({ ...def, http: { ...def.http, conditions: [{ path: "$.a", assertAction: "equals", value: 2 }] } });
    expect(variant.status).toBe(200);
    expect(await db().mockVersion.count({ where: { mock: { id: first.body.mock.id } } })).toBe(2);
  });

  it("saving with an existing id overwrites it as a new version", async () => {
    await save({ id: "fixed-id", http: { route: "/f" }, response: { payload: 1 } });
    const again = await save({ id: "fixed-id", http: { route: "/g" }, response: { payload: 2 } });
    expect(again.body).toMatchObject({ overwritten: true, mock: { id: "fixed-id" } });
    expect((await save({ id: "fixed-id", http: { route: "/h" } }, "?intent=create_new")).status).toBe(409);
  });

  it("refuses bad input with a 400 naming the field, and writes nothing", async () => {
    const before = await db().mock.count();
    const cases: [unknown, string][] = [
      [{ http: { route: "/x", conditions: [{ path: "a", assertAction: "looks_like", value: 1 }] } }, "http.conditions.0.assertAction"],
      [{ http: { route: "/x" }, unknownField: true }, ""],
      [{ http: { route: "/x", httpMethod: "FETCH" } }, "http.httpMethod"],
      [{ http: { route: "/x" }, response: { statusCode: "200" } }, "response.statusCode"],
      [{ http: { route: "/x", conditions: [{ path: "a", assertAction: "matches", value: "(a)\\1" }] } }, "conditions"],
      [{ id: "has space", http: { route: "/x" } }, "id"],
      [{ id: "batch", http: { route: "/x" } }, "id"],
      [{ folderId: "7d7a0e3c-1111-4a4a-9a9a-000000000000", http: { route: "/x" } }, "folderId"],
    ];
    for (const [body, field] of cases) {
      const res = await save(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("validation");
      expect(res.body.details[0].field).toBe(field);
    }
    expect(await db().mock.count()).toBe(before);
  });

  it("a mock in another namespace is not found; a viewer cannot save", async () => {
    const other = await makeUser();
    await makeNamespace("elsewhere", { [other.user.id]: "viewer" });
    const viewerCookie = await sessionCookie(other.user.id);
    expect((await call(mocks.POST, "/api/v1/mocks?namespace=elsewhere", { method: "POST", cookie: viewerCookie, body: { http: { route: "/v" } } })).status).toBe(403);
    expect((await call(mocks.POST, "/api/v1/mocks?namespace=sandbox", { method: "POST", cookie: viewerCookie, body: { http: { route: "/v" } } })).status).toBe(404);
    expect((await call(mockOne.GET, "/?namespace=elsewhere", { cookie: viewerCookie, params: { id: "fixed-id" } })).status).toBe(404);
  });
});

describe("payload key order", () => {
  it("comes back as written, through save and batch alike", async () => {
    const payload = { zeta: 1, alpha: { name: "x", at: 2 }, mid: [3] };
    const res = await save({ http: { route: "/order-of-keys" }, response: { payload } });
    const got = await call(mockOne.GET, "/", { cookie, params: { id: res.body.mock.id } });
    expect(JSON.stringify(got.body.response.payload)).toBe(JSON.stringify(payload));
  });
});
