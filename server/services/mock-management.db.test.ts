// The mock lifecycle endpoints (list, patch, recycle bin, batches, chains,
// versions, copy), exercised through their route handlers against a real
// database: envelopes, filters, bad input, namespace isolation, and that every
// change announces itself on "mocks_changed".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as mocks from "@/app/api/v1/mocks/route";
import * as mockOne from "@/app/api/v1/mocks/[id]/route";
import * as purge from "@/app/api/v1/mocks/[id]/purge/route";
import * as versions from "@/app/api/v1/mocks/[id]/versions/route";
import * as versionOne from "@/app/api/v1/mocks/[id]/versions/[version]/route";
import * as versionRestore from "@/app/api/v1/mocks/[id]/versions/[version]/restore/route";
import * as batch from "@/app/api/v1/mocks/batch/route";
import * as batchRestore from "@/app/api/v1/mocks/batch/restore/route";
import * as batchTags from "@/app/api/v1/mocks/batch/tags/route";
import * as batchMove from "@/app/api/v1/mocks/batch/move/route";
import * as chains from "@/app/api/v1/mocks/chains/[id]/route";
import * as copy from "@/app/api/v1/mocks/copy-to-namespace/route";
import { db } from "@/server/db/client";
import { listen, MOCKS_CHANNEL, type Listener } from "@/server/db/notify";
import { call, makeNamespace, makeToken, makeUser, sessionCookie, type CallOptions } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

type Handler = Parameters<typeof call>[0];
let cookie = "";
let viewerCookie = "";
let readOnlyToken = "";
const ns: Record<string, string> = {}; // name → id
let notified: string[] = [];
let listener: Listener;

beforeAll(async () => {
  const editor = await makeUser({ username: "editor" });
  const viewer = await makeUser({ username: "viewer" });
  const stranger = await makeUser({ username: "stranger" });
  for (const [name, members] of Object.entries({
    sandbox: { [editor.user.id]: "editor", [viewer.user.id]: "viewer" },
    listing: { [editor.user.id]: "editor" },
    bulk: { [editor.user.id]: "editor" },
    warmup: { [editor.user.id]: "editor" },
    target: { [editor.user.id]: "editor", [viewer.user.id]: "editor" },
    "read-only": { [editor.user.id]: "viewer" },
    secret: { [stranger.user.id]: "owner" },
  } as const)) {
    ns[name] = (await makeNamespace(name, members)).id;
  }
  cookie = await sessionCookie(editor.user.id);
  viewerCookie = await sessionCookie(viewer.user.id);
  readOnlyToken = await makeToken(editor.user, { permissions: ["read"] });
  listener = listen(MOCKS_CHANNEL, (payload) => notified.push(payload));
  await new Promise((r) => setTimeout(r, 200)); // LISTEN is issued asynchronously
});

afterAll(async () => {
  await listener.close();
});

/** Calls a handler as the editor in `namespace` (default sandbox). */
function as(handler: Handler, path: string, opts: CallOptions & { namespace?: string } = {}) {
  const { namespace = "sandbox", ...rest } = opts;
  const url = `${path}${path.includes("?") ? "&" : "?"}namespace=${namespace}`;
  return call(handler, url, { cookie, ...rest });
}

const save = (body: unknown, namespace = "sandbox") => as(mocks.POST, "/api/v1/mocks", { method: "POST", body, namespace });
const get = (id: string, namespace = "sandbox") => as(mockOne.GET, `/api/v1/mocks/${id}`, { params: { id }, namespace });
const patch = (id: string, body: unknown, opts: CallOptions & { namespace?: string } = {}) => as(mockOne.PATCH, `/api/v1/mocks/${id}`, { method: "PATCH", params: { id }, body, ...opts });
const list = (query: string, namespace = "listing") => as(mocks.GET, `/api/v1/mocks?${query}`, { namespace });
const versionCount = (id: string, namespace = "sandbox") => db().mockVersion.count({ where: { mock: { id, namespaceId: ns[namespace] } } });

/** Waits for a "mocks_changed" notification naming the namespace, after clearing older ones. */
async function expectNotified(namespace: string, action: () => Promise<unknown>) {
  notified = [];
  await action();
  for (let i = 0; i < 50 && !notified.includes(ns[namespace]); i++) await new Promise((r) => setTimeout(r, 20));
  expect(notified, `mocks_changed for ${namespace}`).toContain(ns[namespace]);
}

describe("GET /api/v1/mocks", () => {
  beforeAll(async () => {
    const folder = await db().mockFolder.create({ data: { namespaceId: ns.listing, name: "payments" } });
    // Saved one after another, so updatedAt orders them a, b, c, d, e (e newest).
    const defs = [
      { id: "a-users", http: { route: "/api/users", httpMethod: "GET" }, tags: ["team-x", "Users"] },
      { id: "b-orders", http: { route: "/api/Orders/:id", httpMethod: "GET" }, tags: ["team-x"], folderId: folder.id },
      { id: "c-grpc", grpc: { service: "pkg.Billing", method: "Charge" }, tags: ["billing"], folderId: folder.id },
      { id: "d_under", http: { route: "/x" } },
      { id: "e-kafka", kafka: { topic: "orders" }, tags: ["team-x", "events"] },
    ];
    for (const def of defs) {
      expect((await save(def, "listing")).status).toBe(200);
      await new Promise((r) => setTimeout(r, 5));
    }
    await as(mockOne.DELETE, "/api/v1/mocks/d_under", { method: "DELETE", params: { id: "d_under" }, namespace: "listing" });
    (globalThis as { folderId?: string }).folderId = folder.id;
  });

  const ids = (res: { body: { mocks: { id: string }[] } }) => res.body.mocks.map((m) => m.id);

  it("returns the paged envelope {mocks, total, limit, offset}, newest updated first, active only by default", async () => {
    const res = await list("");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 4, limit: 50, offset: 0 });
    expect(ids(res)).toEqual(["e-kafka", "c-grpc", "b-orders", "a-users"]);
    expect(res.body.mocks[0]).toMatchObject({ id: "e-kafka", namespace: "listing", protocol: "kafka", deleted: false, version: 1 });
    const page = await list("limit=2&offset=1");
    expect(page.body).toMatchObject({ total: 4, limit: 2, offset: 1 });
    expect(ids(page)).toEqual(["c-grpc", "b-orders"]);
    const beyond = await list("offset=100");
    expect(beyond.body).toMatchObject({ mocks: [], total: 4 });
  });

  it("filters by tags (all of them), search (ids, tags, routes; case-insensitive, literal), folder, protocol", async () => {
    const folderId = (globalThis as { folderId?: string }).folderId;
    expect(ids(await list("tags=team-x"))).toEqual(["e-kafka", "b-orders", "a-users"]);
    expect(ids(await list("tags=team-x,%20events"))).toEqual(["e-kafka"]);
    expect(ids(await list("tags=team-x,billing"))).toEqual([]);
    expect(ids(await list("search=ORDERS"))).toEqual(["e-kafka", "b-orders"]); // kafka topic is its route; route /api/Orders/:id
    expect(ids(await list("search=users"))).toEqual(["a-users"]);
    expect(ids(await list("search=BILL"))).toEqual(["c-grpc"]); // tag "billing" and service pkg.Billing
    expect(ids(await list("search=EVENT"))).toEqual(["e-kafka"]); // only in a tag
    expect(ids(await list("search=_&onlyActive=false"))).toEqual(["d_under"]); // "_" is not a wildcard
    expect(ids(await list(`folderId=${folderId}`))).toEqual(["c-grpc", "b-orders"]);
    expect(ids(await list("folderId=root"))).toEqual(["e-kafka", "a-users"]);
    expect(ids(await list("protocol=grpc"))).toEqual(["c-grpc"]);
    expect(ids(await list("protocol=http&tags=team-x&search=orders"))).toEqual(["b-orders"]);
  });

  it("onlyActive=false includes the recycle bin; deleted=true lists only the bin", async () => {
    const all = await list("onlyActive=false");
    expect(all.body.total).toBe(5);
    expect(all.body.mocks.find((m: { id: string }) => m.id === "d_under")).toMatchObject({ deleted: true });
    expect(ids(await list("onlyActive=true"))).toHaveLength(4);
    const bin = await list("deleted=true");
    expect(bin.body).toMatchObject({ total: 1, mocks: [{ id: "d_under", deleted: true }] });
    expect(typeof bin.body.mocks[0].deletedAt).toBe("number");
  });

  it("refuses bad query values with a 400 naming the parameter", async () => {
    const cases: [string, string][] = [
      ["limit=0", "limit"],
      ["limit=1001", "limit"],
      ["offset=-1", "offset"],
      ["folderId=not-a-uuid", "folderId"],
      ["protocol=ftp", "protocol"],
      ["onlyActive=yes", "onlyActive"],
      ["deleted=true&onlyActive=true", "deleted"],
    ];
    for (const [query, field] of cases) {
      const res = await list(query);
      expect(res.status, query).toBe(400);
      expect(res.body.details[0]).toMatchObject({ location: "query", field });
    }
  });

  it("another namespace's mocks are not listed; a namespace the caller cannot read is 404", async () => {
    expect(ids(await list("search=a-users", "sandbox"))).toEqual([]);
    expect((await list("", "secret")).status).toBe(404);
    expect((await call(mocks.GET, "/api/v1/mocks?namespace=listing", { cookie: viewerCookie })).status).toBe(404);
  });
});

describe("PATCH /api/v1/mocks/{id}", () => {
  const base = {
    id: "p1",
    http: { route: "/patch/me", httpMethod: "GET", conditions: [{ path: "$.a", assertAction: "equals", value: 1 }] },
    response: { statusCode: 200, payload: { keep: { nested: true }, drop: 1 }, headers: { "X-One": "1", "X-Two": "2" } },
    tags: ["t1"],
    chainId: "c-1",
  };
  beforeAll(async () => {
    expect((await save(base)).status).toBe(200);
  });

  it("deep-merges blocks and response, replaces arrays and payload, removes fields set to null; a new version", async () => {
    const before = await versionCount("p1");
    const res = await expectNotifiedResult("sandbox", () =>
      patch("p1", {
        http: { httpMethod: "POST", conditions: [{ path: "$.b", assertAction: "any" }] },
        response: { payload: { only: "this" }, headers: { "X-Two": null, "X-Three": "3" } },
        chainId: null,
        tags: ["t2", "t3"],
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: "p1",
      version: 2,
      http: { route: "/patch/me", httpMethod: "POST", conditions: [{ path: "$.b", assertAction: "any" }] },
      response: { statusCode: 200, payload: { only: "this" }, headers: { "X-One": ["1"], "X-Three": ["3"] } },
      tags: ["t2", "t3"],
    });
    expect(res.body.response.headers).not.toHaveProperty("X-Two");
    expect(res.body).not.toHaveProperty("chainId");
    expect(await versionCount("p1")).toBe(before + 1);
    const row = await db().mock.findFirstOrThrow({ where: { id: "p1", namespaceId: ns.sandbox } });
    expect(row).toMatchObject({ method: "POST", chainId: null, tags: ["t2", "t3"], version: 2 });
    const latest = await db().mockVersion.findFirstOrThrow({ where: { mockPk: row.pk }, orderBy: { version: "desc" } });
    expect(latest).toMatchObject({ version: 2, change: "patched", createdBy: "editor" });
  });

  it("accepts a fetched mock sent back edited (read-only fields ignored); a patch that changes nothing writes nothing", async () => {
    const fetched = (await get("p1")).body;
    const res = await patch("p1", { ...fetched, priority: 7, version: 99, useCounter: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ priority: 7, version: 3, useCounter: 0 });
    const count = await versionCount("p1");
    const same = await patch("p1", { priority: 7 });
    expect(same.body.version).toBe(3);
    expect(await versionCount("p1")).toBe(count);
  });

  it("an invalid merged mock is a 400 naming the field, and nothing is written", async () => {
    const before = await db().mock.findFirstOrThrow({ where: { id: "p1", namespaceId: ns.sandbox } });
    const versionsBefore = await versionCount("p1");
    const cases: [unknown, string][] = [
      [{ http: { route: null } }, "http.route"],
      [{ http: { httpMethod: "FETCH" } }, "http.httpMethod"],
      [{ response: { statusCode: "200" } }, "response.statusCode"],
      [{ priority: 1.5 }, "priority"],
      [{ http: { conditions: [{ path: "$.a", assertAction: "matches", value: "(a)\\1" }] } }, "conditions"],
      [{ unknownField: 1 }, ""],
      [{ id: "renamed" }, "id"],
      [{ namespace: "target" }, "namespace"],
      [{ folderId: "6f1c1f43-3c8a-4c1e-9d57-000000000000" }, "folderId"],
    ];
    for (const [body, field] of cases) {
      const res = await patch("p1", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe("validation");
      expect(res.body.details[0].field, JSON.stringify(body)).toBe(field);
    }
    const after = await db().mock.findFirstOrThrow({ where: { id: "p1", namespaceId: ns.sandbox } });
    expect(after.definition).toEqual(before.definition);
    expect(after.version).toBe(before.version);
    expect(await versionCount("p1")).toBe(versionsBefore);
  });

  it("404 for an unknown mock, a deleted one and another namespace's; 403 for a viewer", async () => {
    expect((await patch("nope", { priority: 1 })).status).toBe(404);
    await save({ id: "p-deleted", http: { route: "/p/deleted" } });
    await as(mockOne.DELETE, "/api/v1/mocks/p-deleted", { method: "DELETE", params: { id: "p-deleted" } });
    expect((await patch("p-deleted", { priority: 1 })).status).toBe(404);
    await save({ id: "only-in-target", http: { route: "/t" } }, "target");
    expect((await patch("only-in-target", { priority: 1 })).status).toBe(404);
    expect((await patch("p1", { priority: 1 }, { cookie: viewerCookie })).status).toBe(403);
    expect((await patch("p1", { priority: 1 }, { cookie: "", token: readOnlyToken })).status).toBe(403);
  });
});

/** Like expectNotified, returning the action's result. */
async function expectNotifiedResult<T>(namespace: string, action: () => Promise<T>): Promise<T> {
  let result: T | undefined;
  await expectNotified(namespace, async () => {
    result = await action();
  });
  return result as T;
}

describe("DELETE /api/v1/mocks/{id} and /purge", () => {
  it("soft-deletes into the recycle bin, keeping history; a second delete is 404", async () => {
    await save({ id: "del-1", http: { route: "/del/1" } });
    const res = await expectNotifiedResult("sandbox", () => as(mockOne.DELETE, "/api/v1/mocks/del-1", { method: "DELETE", params: { id: "del-1" } }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: "del-1", deleted: true, version: 2 });
    expect(Math.abs(res.body.deletedAt - Date.now())).toBeLessThan(60_000);
    expect((await get("del-1")).body).toMatchObject({ deleted: true });
    const history = await as(versions.GET, "/api/v1/mocks/del-1/versions", { params: { id: "del-1" } });
    expect(history.body.versions.map((v: { change: string }) => v.change)).toEqual(["deleted", "created"]);
    expect((await as(mockOne.DELETE, "/api/v1/mocks/del-1", { method: "DELETE", params: { id: "del-1" } })).status).toBe(404);
    expect((await call(mockOne.DELETE, "/api/v1/mocks/del-1?namespace=sandbox", { method: "DELETE", cookie: viewerCookie, params: { id: "del-1" } })).status).toBe(403);
  });

  it("purge removes a mock and its versions for good, from the bin or active; audited", async () => {
    await save({ id: "purge-active", http: { route: "/purge/a" } });
    const res = await expectNotifiedResult("sandbox", () => as(purge.DELETE, "/api/v1/mocks/del-1/purge", { method: "DELETE", params: { id: "del-1" } }));
    expect(res.body).toEqual({ id: "del-1", purged: true });
    expect((await get("del-1")).status).toBe(404);
    expect(await versionCount("del-1")).toBe(0);
    expect((await as(purge.DELETE, "/api/v1/mocks/purge-active/purge", { method: "DELETE", params: { id: "purge-active" } })).status).toBe(200);
    expect((await as(purge.DELETE, "/api/v1/mocks/del-1/purge", { method: "DELETE", params: { id: "del-1" } })).status).toBe(404);
    expect(await db().auditEvent.count({ where: { action: "mock.purge", targetId: "del-1", namespace: "sandbox" } })).toBe(1);
  });
});

describe("POST /api/v1/mocks/batch", () => {
  const post = (body: unknown, query = "", namespace = "sandbox") => as(batch.POST, `/api/v1/mocks/batch${query}`, { method: "POST", body, namespace });

  it("creates new mocks and overwrites existing ids (also from the recycle bin), in one request", async () => {
    await save({ id: "b-existing", http: { route: "/b/existing" }, response: { payload: "old" } });
    await save({ id: "b-binned", http: { route: "/b/binned" } });
    await as(mockOne.DELETE, "/api/v1/mocks/b-binned", { method: "DELETE", params: { id: "b-binned" } });
    const res = await expectNotifiedResult("sandbox", () =>
      post([
        { id: "b-new", http: { route: "/b/new" }, tags: ["bulk"] },
        { http: { route: "/b/generated" } },
        { id: "b-existing", http: { route: "/b/existing" }, response: { payload: "new" } },
        { id: "b-binned", http: { route: "/b/binned" }, response: { payload: "back" } },
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 2, overwritten: 2 });
    expect(res.body.mocks.map((m: { id: string }) => m.id).slice(0, 1)).toEqual(["b-new"]);
    expect(res.body.mocks[2]).toMatchObject({ id: "b-existing", namespace: "sandbox", useCounter: 0 });
    expect(Number.isInteger(res.body.mocks[1].createdAt)).toBe(true);
    const created = (await get("b-new")).body;
    expect(created).toMatchObject({ version: 1, tags: ["bulk"], protocol: "http", createdAt: res.body.mocks[0].createdAt, updatedAt: res.body.mocks[0].createdAt });
    expect(Math.abs(created.createdAt - Date.now())).toBeLessThan(60_000); // stored as UTC whatever the time zones
    expect((await get(res.body.mocks[1].id)).body).toMatchObject({ http: { route: "/b/generated" } });
    expect((await get("b-existing")).body).toMatchObject({ version: 2, response: { payload: "new" } });
    expect((await get("b-binned")).body).toMatchObject({ deleted: false, version: 3, response: { payload: "back" } });
    const row = await db().mock.findFirstOrThrow({ where: { id: "b-new", namespaceId: ns.sandbox } });
    expect(row).toMatchObject({ route: "/b/new", method: null, tags: ["bulk"], createdBy: "editor" });
    expect(await db().mockVersion.findFirst({ where: { mockPk: row.pk } })).toMatchObject({ version: 1, change: "created" });
  });

  it("any invalid item is a 400 naming the item index, and nothing is written", async () => {
    const before = await db().mock.count();
    const good = { id: "b-never", http: { route: "/never" } };
    const cases: [unknown, string][] = [
      [[good, good, good, { http: {} }], "3.http.route"],
      [[good, { http: { route: "/x", conditions: [{ path: "$.a", assertAction: "matches", value: "(a)\\1" }] } }], "1.conditions"],
      [[good, { id: "b-never", http: { route: "/dup" } }], "1.id"],
      [[good, { http: { route: "/f" }, folderId: "6f1c1f43-3c8a-4c1e-9d57-000000000000" }], "1.folderId"],
      [{ not: "an array" }, ""],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details[0].field).toBe(field);
    }
    const tooMany = await post(Array.from({ length: 10_001 }, (_, i) => ({ http: { route: `/m/${i}` } })));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details[0]).toMatchObject({ location: "body", field: "" });
    expect(await db().mock.count()).toBe(before);
  });

  it("intent=create_new refuses ids that exist (409, nothing written); a viewer gets 403", async () => {
    const before = await db().mock.count();
    const res = await post([{ id: "b-fresh", http: { route: "/fresh" } }, { id: "b-existing", http: { route: "/x" } }], "?intent=create_new");
    expect(res.status).toBe(409);
    expect(res.body.details[0]).toMatchObject({ field: "1.id", message: "already exists" });
    expect(await db().mock.count()).toBe(before);
    const viewer = await call(batch.POST, "/api/v1/mocks/batch?namespace=sandbox", { method: "POST", cookie: viewerCookie, body: [{ http: { route: "/v" } }] });
    expect(viewer.status).toBe(403);
  });

  it("loads 10,000 mocks in one transaction (time logged), then batch-deletes, restores and re-tags them all", async () => {
    const make = (n: number, prefix: string) =>
      Array.from({ length: n }, (_, i) => ({
        id: `${prefix}-${i}`,
        http: { route: `/${prefix}/${i}/:id`, httpMethod: i % 2 ? "GET" : "POST", conditions: [{ path: "$.n", assertAction: "equals", value: i }] },
        response: { statusCode: 200, payload: { n: i, name: "$.fake.FirstName" }, headers: { "Content-Type": "application/json" } },
        tags: ["load"],
      }));
    // A fresh test process runs this code cold (JIT, connection pool); a server is warm. Both are logged.
    let started = performance.now();
    expect((await post(make(1_000, "warm"), "", "warmup")).status).toBe(200);
    const warmupMs = Math.round(performance.now() - started);
    const items = make(10_000, "load");
    started = performance.now();
    const res = await post(items, "", "bulk");
    const createMs = Math.round(performance.now() - started);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ created: 10_000, overwritten: 0 });
    expect(await db().mock.count({ where: { namespaceId: ns.bulk } })).toBe(10_000);
    expect(await db().mockVersion.count({ where: { mock: { namespaceId: ns.bulk } } })).toBe(10_000);

    started = performance.now();
    const again = await post(items, "", "bulk");
    const overwriteMs = Math.round(performance.now() - started);
    expect(again.body).toMatchObject({ created: 0, overwritten: 10_000 });

    const ids = items.map((m) => m.id);
    started = performance.now();
    const del = await as(batch.DELETE, "/api/v1/mocks/batch", { method: "DELETE", body: { ids }, namespace: "bulk" });
    const deleteMs = Math.round(performance.now() - started);
    expect(del.body).toEqual({ deleted: 10_000, notFound: [] });
    const restored = await as(batchRestore.POST, "/api/v1/mocks/batch/restore", { method: "POST", body: { ids }, namespace: "bulk" });
    expect(restored.body).toEqual({ restored: 10_000, notFound: [] });
    started = performance.now();
    const tagged = await as(batchTags.PATCH, "/api/v1/mocks/batch/tags", { method: "PATCH", body: { ids, addTags: ["more"] }, namespace: "bulk" });
    const tagMs = Math.round(performance.now() - started);
    expect(tagged.body).toEqual({ updated: 10_000, notFound: [] });
    expect((await list("tags=load,more&limit=1", "bulk")).body.total).toBe(10_000);
    console.log(`batch of 1,000 mocks in a cold process: ${warmupMs} ms; 10,000 mocks: batch create ${createMs} ms, overwrite ${overwriteMs} ms, delete ${deleteMs} ms, tag ${tagMs} ms`);
  }, 120_000);
});

describe("batch delete, restore, tags, move", () => {
  beforeAll(async () => {
    for (const id of ["x1", "x2", "x3"]) await save({ id, http: { route: `/batch/${id}` }, tags: ["old", "keep"] });
  });

  it("DELETE /batch soft-deletes the active ones and reports the rest; /batch/restore brings them back", async () => {
    const del = await expectNotifiedResult("sandbox", () => as(batch.DELETE, "/api/v1/mocks/batch", { method: "DELETE", body: { ids: ["x1", "x2", "x2", "ghost"] } }));
    expect(del.body).toEqual({ deleted: 2, notFound: ["ghost"] });
    expect((await get("x1")).body).toMatchObject({ deleted: true, version: 2 });
    const again = await as(batch.DELETE, "/api/v1/mocks/batch", { method: "DELETE", body: { ids: ["x1"] } });
    expect(again.body).toEqual({ deleted: 0, notFound: ["x1"] });
    const restored = await expectNotifiedResult("sandbox", () => as(batchRestore.POST, "/api/v1/mocks/batch/restore", { method: "POST", body: { ids: ["x1", "x2", "x3"] } }));
    expect(restored.body).toEqual({ restored: 2, notFound: ["x3"] }); // x3 was never in the bin
    expect((await get("x1")).body).toMatchObject({ deleted: false, deletedAt: null, version: 3 });
    const changes = await as(versions.GET, "/api/v1/mocks/x1/versions", { params: { id: "x1" } });
    expect(changes.body.versions.map((v: { change: string }) => v.change)).toEqual(["restored", "deleted", "created"]);
  });

  it("PATCH /batch/tags removes, then adds, in the definition and the tags column; unchanged mocks get no version", async () => {
    const res = await expectNotifiedResult("sandbox", () => as(batchTags.PATCH, "/api/v1/mocks/batch/tags", { method: "PATCH", body: { ids: ["x1", "x3", "ghost"], addTags: ["new"], removeTags: ["old"] } }));
    expect(res.body).toEqual({ updated: 2, notFound: ["ghost"] });
    expect((await get("x1")).body.tags).toEqual(["keep", "new"]);
    expect((await db().mock.findFirstOrThrow({ where: { id: "x3", namespaceId: ns.sandbox } })).tags).toEqual(["keep", "new"]);
    const v = await versionCount("x3");
    await as(batchTags.PATCH, "/api/v1/mocks/batch/tags", { method: "PATCH", body: { ids: ["x3"], addTags: ["new"] } });
    expect(await versionCount("x3")).toBe(v);
    const emptied = await as(batchTags.PATCH, "/api/v1/mocks/batch/tags", { method: "PATCH", body: { ids: ["x3"], removeTags: ["keep", "new"] } });
    expect(emptied.status).toBe(200);
    expect((await get("x3")).body).not.toHaveProperty("tags");
  });

  it("refuses bad tag and id input with a 400 naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ ids: [] }, "ids"],
      [{ ids: ["x1"] }, "addTags"],
      [{ ids: ["x1"], addTags: [""] }, "addTags.0"],
      [{ ids: ["bad id"], addTags: ["a"] }, "ids.0"],
      [{ ids: ["x1"], addTags: Array.from({ length: 50 }, (_, i) => `t${i}`) }, "addTags"], // 52 tags on x1
    ];
    for (const [body, field] of cases) {
      const res = await as(batchTags.PATCH, "/api/v1/mocks/batch/tags", { method: "PATCH", body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details[0].field).toBe(field);
    }
    const tooMany = await as(batch.DELETE, "/api/v1/mocks/batch", { method: "DELETE", body: { ids: Array.from({ length: 10_001 }, (_, i) => `m${i}`) } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details[0].field).toBe("ids");
  });

  it("PATCH /batch/move puts mocks in a folder of the namespace or the root; another namespace's folder is 404", async () => {
    const folder = await db().mockFolder.create({ data: { namespaceId: ns.sandbox, name: "moved" } });
    const foreign = await db().mockFolder.create({ data: { namespaceId: ns.target, name: "theirs" } });
    const res = await expectNotifiedResult("sandbox", () => as(batchMove.PATCH, "/api/v1/mocks/batch/move", { method: "PATCH", body: { ids: ["x1", "x2", "ghost"], folderId: folder.id } }));
    expect(res.body).toEqual({ moved: 2, notFound: ["ghost"] });
    expect((await get("x1")).body).toMatchObject({ folderId: folder.id });
    expect((await as(mocks.GET, `/api/v1/mocks?folderId=${folder.id}`)).body.total).toBe(2);
    expect((await as(batchMove.PATCH, "/api/v1/mocks/batch/move", { method: "PATCH", body: { ids: ["x1"], folderId: foreign.id } })).status).toBe(404);
    expect((await as(batchMove.PATCH, "/api/v1/mocks/batch/move", { method: "PATCH", body: { ids: ["x1"], folderId: "not-a-uuid" } })).status).toBe(400);
    const root = await as(batchMove.PATCH, "/api/v1/mocks/batch/move", { method: "PATCH", body: { ids: ["x1"], folderId: null } });
    expect(root.body).toEqual({ moved: 1, notFound: [] });
    expect((await get("x1")).body).not.toHaveProperty("folderId");
    expect((await db().mock.findFirstOrThrow({ where: { id: "x2", namespaceId: ns.sandbox } })).folderId).toBe(folder.id);
  });
});

describe("chains", () => {
  it("GET lists the chain's active mocks in creation order; DELETE bins them and clears the chain store", async () => {
    for (const id of ["step-1", "step-2", "step-3"]) await save({ id, chainId: "checkout", http: { route: `/chain/${id}` } });
    await save({ id: "other-chain", chainId: "other", http: { route: "/chain/other" } });
    await as(mockOne.DELETE, "/api/v1/mocks/step-3", { method: "DELETE", params: { id: "step-3" } });
    await db().storeEntry.createMany({ data: [{ namespaceId: ns.sandbox, chainId: "checkout", key: "cart", value: "42" }, { namespaceId: ns.sandbox, chainId: "other", key: "k", value: 1 }] });

    const got = await as(chains.GET, "/api/v1/mocks/chains/checkout", { params: { id: "checkout" } });
    expect(got.status).toBe(200);
    expect(got.body.count).toBe(2);
    expect(got.body.mocks.map((m: { id: string }) => m.id)).toEqual(["step-1", "step-2"]);

    const del = await expectNotifiedResult("sandbox", () => as(chains.DELETE, "/api/v1/mocks/chains/checkout", { method: "DELETE", params: { id: "checkout" } }));
    expect(del.body).toEqual({ deleted: 2, clearedStoreKeys: 1 });
    expect((await get("step-1")).body.deleted).toBe(true);
    expect(await db().storeEntry.count({ where: { namespaceId: ns.sandbox, chainId: "checkout" } })).toBe(0);
    expect(await db().storeEntry.count({ where: { namespaceId: ns.sandbox, chainId: "other" } })).toBe(1);
    expect((await as(chains.GET, "/api/v1/mocks/chains/checkout", { params: { id: "checkout" } })).body).toEqual({ mocks: [], count: 0 });
    expect((await as(chains.DELETE, "/api/v1/mocks/chains/checkout", { method: "DELETE", params: { id: "checkout" } })).status).toBe(404);
    expect((await call(chains.DELETE, "/api/v1/mocks/chains/other?namespace=sandbox", { method: "DELETE", cookie: viewerCookie, params: { id: "other" } })).status).toBe(403);
  });
});

describe("versions", () => {
  it("lists newest first, reads one with its definition, and restores one as a new version", async () => {
    await save({ id: "v1", http: { route: "/v/one" }, response: { payload: "first" } });
    await patch("v1", { response: { payload: "second" } });
    const listed = await as(versions.GET, "/api/v1/mocks/v1/versions", { params: { id: "v1" } });
    expect(listed.body.count).toBe(2);
    expect(listed.body.versions.map((v: { version: number; change: string }) => [v.version, v.change])).toEqual([[2, "patched"], [1, "created"]]);
    expect(listed.body.versions[0]).toMatchObject({ createdBy: "editor" });
    expect(listed.body.versions[0]).not.toHaveProperty("definition");

    const one = await as(versionOne.GET, "/api/v1/mocks/v1/versions/1", { params: { id: "v1", version: "1" } });
    expect(one.body).toMatchObject({ version: 1, change: "created", definition: { http: { route: "/v/one" }, response: { payload: "first" } } });

    const restored = await expectNotifiedResult("sandbox", () => as(versionRestore.POST, "/api/v1/mocks/v1/versions/1/restore", { method: "POST", params: { id: "v1", version: "1" } }));
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ id: "v1", version: 3, response: { payload: "first" } });
    const after = await as(versions.GET, "/api/v1/mocks/v1/versions", { params: { id: "v1" } });
    expect(after.body.versions.map((v: { change: string }) => v.change)).toEqual(["restored_version:1", "patched", "created"]);
  });

  it("a restored version whose folder was deleted lands in the root", async () => {
    const folder = await db().mockFolder.create({ data: { namespaceId: ns.sandbox, name: "gone soon" } });
    await save({ id: "v-folder", http: { route: "/v/folder" }, folderId: folder.id });
    await patch("v-folder", { priority: 2 });
    await db().mockFolder.delete({ where: { id: folder.id } });
    const res = await as(versionRestore.POST, "/api/v1/mocks/v-folder/versions/1/restore", { method: "POST", params: { id: "v-folder", version: "1" } });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty("folderId");
    expect(res.body).toMatchObject({ version: 3, priority: 0 });
  });

  it("404 for an unknown version or mock, a restore of a deleted mock; 400 for a bad version; 403 for a viewer", async () => {
    expect((await as(versionOne.GET, "/api/v1/mocks/v1/versions/9", { params: { id: "v1", version: "9" } })).status).toBe(404);
    expect((await as(versionRestore.POST, "/api/v1/mocks/v1/versions/9/restore", { method: "POST", params: { id: "v1", version: "9" } })).status).toBe(404);
    expect((await as(versions.GET, "/api/v1/mocks/ghost/versions", { params: { id: "ghost" } })).status).toBe(404);
    const bad = await as(versionOne.GET, "/api/v1/mocks/v1/versions/abc", { params: { id: "v1", version: "abc" } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0]).toMatchObject({ location: "path", field: "version" });
    await as(mockOne.DELETE, "/api/v1/mocks/v1", { method: "DELETE", params: { id: "v1" } });
    expect((await as(versions.GET, "/api/v1/mocks/v1/versions", { params: { id: "v1" } })).body.count).toBe(4); // history of a binned mock stays readable
    expect((await as(versionRestore.POST, "/api/v1/mocks/v1/versions/1/restore", { method: "POST", params: { id: "v1", version: "1" } })).status).toBe(404);
    const viewer = await call(versionRestore.POST, "/api/v1/mocks/v-folder/versions/1/restore?namespace=sandbox", { method: "POST", cookie: viewerCookie, params: { id: "v-folder", version: "1" } });
    expect(viewer.status).toBe(403);
  });
});

describe("POST /api/v1/mocks/copy-to-namespace", () => {
  const copyAs = (body: unknown, opts: CallOptions = { cookie }) => call(copy.POST, "/api/v1/mocks/copy-to-namespace", { method: "POST", body, ...opts });

  it("copies active mocks, keeping ids that are free in the target and giving new ids otherwise", async () => {
    const folder = await db().mockFolder.create({ data: { namespaceId: ns.sandbox, name: "source-only" } });
    await save({ id: "cp-free", http: { route: "/cp/free" }, folderId: folder.id, tags: ["cp"] });
    await save({ id: "cp-taken", http: { route: "/cp/taken" } });
    await save({ id: "cp-taken", http: { route: "/already/here" } }, "target");
    const res = await expectNotifiedResult("target", () => copyAs({ sourceNamespace: "sandbox", targetNamespace: "target", mockIds: ["cp-free", "cp-taken"] }));
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(2);
    expect(res.body.copied[0]).toEqual({ sourceId: "cp-free", id: "cp-free" });
    expect(res.body.copied[1].sourceId).toBe("cp-taken");
    expect(res.body.copied[1].id).not.toBe("cp-taken");
    const copied = await get("cp-free", "target");
    expect(copied.body).toMatchObject({ namespace: "target", version: 1, tags: ["cp"], http: { route: "/cp/free" } });
    expect(copied.body).not.toHaveProperty("folderId");
    expect((await get(res.body.copied[1].id, "target")).body).toMatchObject({ http: { route: "/cp/taken" } });
    expect((await get("cp-taken", "target")).body).toMatchObject({ http: { route: "/already/here" } });
    const v = await db().mockVersion.findFirstOrThrow({ where: { mock: { id: "cp-free", namespaceId: ns.target } } });
    expect(v.change).toBe("copied_from:sandbox/cp-free");
  });

  it("an unknown or deleted source mock is 404 and nothing is copied", async () => {
    const before = await db().mock.count({ where: { namespaceId: ns.target } });
    const res = await copyAs({ sourceNamespace: "sandbox", targetNamespace: "target", mockIds: ["cp-free", "ghost"] });
    expect(res.status).toBe(404);
    expect(res.body.details[0]).toMatchObject({ field: "mockIds.1" });
    expect((await copyAs({ sourceNamespace: "sandbox", targetNamespace: "target", mockIds: ["x3-deleted-never"] })).status).toBe(404);
    expect(await db().mock.count({ where: { namespaceId: ns.target } })).toBe(before);
  });

  it("needs read in the source (404 when it cannot be read) and write in the target (403)", async () => {
    await save({ id: "ro-mock", http: { route: "/ro" } }, "target");
    expect((await copyAs({ sourceNamespace: "secret", targetNamespace: "target", mockIds: ["a"] })).status).toBe(404);
    expect((await copyAs({ sourceNamespace: "sandbox", targetNamespace: "secret", mockIds: ["cp-free"] })).status).toBe(404);
    expect((await copyAs({ sourceNamespace: "sandbox", targetNamespace: "read-only", mockIds: ["cp-free"] })).status).toBe(403);
    expect((await copyAs({ sourceNamespace: "sandbox", targetNamespace: "target", mockIds: ["cp-free"] }, { token: readOnlyToken })).status).toBe(403);
    // The viewer of sandbox is an editor of target: reading the source is enough.
    const res = await copyAs({ sourceNamespace: "sandbox", targetNamespace: "target", mockIds: ["cp-free"] }, { cookie: viewerCookie });
    expect(res.status).toBe(200);
    expect(res.body.copied[0].id).not.toBe("cp-free");
  });

  it("refuses bad input with a 400 naming the field", async () => {
    const res = await copyAs({ sourceNamespace: "sandbox", targetNamespace: "target", mockIds: [] });
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe("mockIds");
    expect((await copyAs({ sourceNamespace: "sandbox", mockIds: ["a"] })).body.details[0].field).toBe("targetNamespace");
  });
});
