// Standalone tests: saved run configurations over collections. CRUD with
// search, validation 400s, namespace 404s and reference checks; running a
// saved test makes a functional run referencing it (JSON and SSE), running
// inline saves nothing, and the list shows each test's newest run.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as collectionsRoute from "@/app/api/v1/api-tester/collections/route";
import * as requestsRoute from "@/app/api/v1/api-tester/collections/[id]/requests/route";
import * as environmentsRoute from "@/app/api/v1/api-tester/environments/route";
import * as listRoute from "@/app/api/v1/api-tester/tests/route";
import * as oneRoute from "@/app/api/v1/api-tester/tests/[id]/route";
import * as runRoute from "@/app/api/v1/api-tester/tests/[id]/run/route";
import * as inlineRoute from "@/app/api/v1/api-tester/tests/run/route";
import { db } from "@/server/db/client";
import { call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "standalone";
const q = `?namespace=${NS}`;
let cookie: string;
let viewer: string;
let outsider: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  const v = await makeUser();
  await makeNamespace(NS, { [v.user.id]: "viewer" });
  const x = await makeUser({ namespaces: { "standalone-other": "owner" } });
  cookie = await sessionCookie(o.user.id);
  viewer = await sessionCookie(v.user.id);
  outsider = await sessionCookie(x.user.id);
  server = http.createServer((req, res) => {
    const url = new URL(req.url!, "http://x");
    const code = url.pathname.startsWith("/status/") ? Number(url.pathname.slice(8)) : 200;
    res.writeHead(code, { "content-type": "application/json" });
    res.end(JSON.stringify({ path: url.pathname, query: Object.fromEntries(url.searchParams) }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const post = (route: { POST: any }, path: string, body: unknown, opts: { params?: Record<string, string>; as?: string; ns?: string } = {}) =>
  call(route.POST, `${path}?namespace=${opts.ns ?? NS}`, { method: "POST", cookie: opts.as ?? cookie, body, params: opts.params });
const create = (body: Record<string, unknown>, as = cookie) => post(listRoute, "/api/v1/api-tester/tests", body, { as });
const get = (id: string, as = cookie) => call(oneRoute.GET, `/api/v1/api-tester/tests/${id}${q}`, { cookie: as, params: { id } });
const put = (id: string, body: unknown, as = cookie) => call(oneRoute.PUT, `/api/v1/api-tester/tests/${id}${q}`, { method: "PUT", cookie: as, body, params: { id } });
const remove = (id: string, as = cookie) => call(oneRoute.DELETE, `/api/v1/api-tester/tests/${id}${q}`, { method: "DELETE", cookie: as, params: { id } });
const run = (id: string, body: unknown = {}, as = cookie) => post(runRoute, `/api/v1/api-tester/tests/${id}/run`, body, { params: { id }, as });
const list = (query = "", as = cookie) => call(listRoute.GET, `/api/v1/api-tester/tests${q}&${query}`, { cookie: as });

async function collection(name: string, requests: { name: string; url: string; test?: string }[]) {
  const r = await post(collectionsRoute, "/api/v1/api-tester/collections", { name });
  expect(r.status).toBe(201);
  const ids: string[] = [];
  for (const req of requests) {
    const made = await post(requestsRoute, `/api/v1/api-tester/collections/${r.body.id}/requests`, { name: req.name, url: req.url, ...(req.test ? { scripts: { test: req.test } } : {}) }, { params: { id: r.body.id } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    ids.push(made.body.id);
  }
  return { id: r.body.id as string, requestIds: ids };
}

describe("standalone tests: CRUD", () => {
  it("creates, reads, searches, updates and deletes; runs stay after the delete", async () => {
    const a = await collection("Smoke A", [{ name: "a", url: `${base}/a` }]);
    const r = await create({ name: "Smoke", description: "Checks the health pages", collectionIds: [a.id], iterations: 2, delayMs: 0, bail: true });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ namespace: NS, name: "Smoke", description: "Checks the health pages", collectionIds: [a.id], environmentId: null, iterations: 2, data: null, bail: true, lastRun: null });
    const id = r.body.id;
    expect((await get(id)).body.name).toBe("Smoke");
    expect((await get(id, viewer)).status).toBe(200); // readers of the namespace see tests
    await create({ name: "Regression", collectionIds: [a.id] });
    expect((await list("search=HEALTH")).body.tests.map((t: { name: string }) => t.name)).toEqual(["Smoke"]);
    expect((await list()).body.total).toBe(2);

    const changed = await put(id, { name: "Smoke v2", iterations: null, data: [{ n: 1 }, { n: 2 }] });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ name: "Smoke v2", iterations: null, data: [{ n: 1 }, { n: 2 }], description: "Checks the health pages" });
    expect((await put(id, { data: null })).body.data).toBeNull();

    const ran = await run(id);
    expect(ran.status).toBe(200);
    expect((await remove(id)).status).toBe(200);
    expect((await get(id)).status).toBe(404);
    expect((await remove(id)).status).toBe(404);
    expect(await db().testRun.count({ where: { referenceId: id } })).toBe(1);
  });

  it("400 for bad input, nothing saved", async () => {
    const a = await collection("Bad input", []);
    for (const body of [{ collectionIds: [a.id] }, { name: "x", collectionIds: [] }, { name: "x", collectionIds: ["not-a-uuid"] }, { name: "x", collectionIds: [a.id], iterations: 0 }, { name: "x", collectionIds: [a.id], surprise: true }]) {
      const r = await create(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe("validation");
    }
    expect(await db().testerTest.count({ where: { name: "x" } })).toBe(0);
  });

  it("404 for unknown or other-namespace references, and for tests of another namespace; viewers cannot write", async () => {
    const theirs = await post(collectionsRoute, "/api/v1/api-tester/collections", { name: "Theirs" }, { as: outsider, ns: "standalone-other" });
    const unknown = "00000000-0000-4000-8000-000000000002";
    const a = await create({ name: "refs", collectionIds: [theirs.body.id] });
    const b = await create({ name: "refs", collectionIds: [unknown] });
    expect([a.status, b.status]).toEqual([404, 404]);
    expect(a.body.error.replace(theirs.body.id, "ID")).toBe(b.body.error.replace(unknown, "ID"));
    const col = await collection("Refs", []);
    expect((await create({ name: "refs", collectionIds: [col.id], environmentId: unknown })).status).toBe(404);
    expect(await db().testerTest.count({ where: { name: "refs" } })).toBe(0);

    const mine = await create({ name: "Private to the namespace", collectionIds: [col.id] });
    expect((await get(mine.body.id, outsider)).status).toBe(404);
    expect((await create({ name: "by a viewer", collectionIds: [col.id] }, viewer)).status).toBe(403);
    expect((await put(mine.body.id, { name: "viewer edit" }, viewer)).status).toBe(403);
  });
});

describe("standalone tests: running", () => {
  it("a saved test runs its collections in order with its environment, data and iterations; the run references it", async () => {
    const a = await collection("Run A", [{ name: "a1", url: `${base}/a1/{{who}}`, test: "pm.test('status', () => pm.response.to.have.status(200))" }, { name: "a2", url: `${base}/a2` }]);
    const b = await collection("Run B", [{ name: "b1", url: `${base}/b1?n={{n}}` }]);
    const env = await post(environmentsRoute, "/api/v1/api-tester/environments", { name: "stage", variables: { who: "grace" } });
    const made = await create({ name: "Ordered", collectionIds: [b.id, { collectionId: a.id, requestIds: [a.requestIds[0]] }], environmentId: env.body.id, data: [{ n: "1" }, { n: "2" }] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.collectionIds).toEqual([b.id, { collectionId: a.id, requestIds: [a.requestIds[0]] }]);
    const r = await run(made.body.id);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ mode: "functional", name: "Ordered", referenceId: made.body.id, iterations: 2, status: "passed", environmentId: env.body.id });
    expect(r.body.results.map((x: { url: string }) => x.url)).toEqual([`${base}/b1?n=1`, `${base}/a1/grace`, `${base}/b1?n=2`, `${base}/a1/grace`]);
    const after = await get(made.body.id);
    expect(after.body.lastRun).toMatchObject({ id: r.body.id, status: "passed" });
    expect((await list()).body.tests.find((t: { id: string }) => t.id === made.body.id).lastRun.id).toBe(r.body.id);
  });

  it("a failing assertion fails the run; bail stops at the first failure", async () => {
    const c = await collection("Failing", [{ name: "bad", url: `${base}/status/500`, test: "pm.test('is ok', () => pm.response.to.have.status(200))" }, { name: "never", url: `${base}/never` }]);
    const made = await create({ name: "Bails", collectionIds: [c.id], bail: true });
    const r = await run(made.body.id);
    expect(r.body.status).toBe("failed");
    expect(r.body.results.map((x: { name: string }) => x.name)).toEqual(["bad"]);
  });

  it("streams server-sent events when asked", async () => {
    const c = await collection("Streamed", [{ name: "s", url: `${base}/s` }]);
    const made = await create({ name: "SSE", collectionIds: [c.id] });
    const r = await run(made.body.id, { useSSE: true });
    expect(r.headers.get("content-type")).toContain("text/event-stream");
    const events = [...r.text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events[0]).toBe("started");
    expect(events.at(-1)).toBe("finished");
  });

  it("runs inline without saving a test; a missing collection is 404 and no run starts", async () => {
    const c = await collection("Inline", [{ name: "i", url: `${base}/i` }]);
    const before = await db().testerTest.count();
    const r = await post(inlineRoute, "/api/v1/api-tester/tests/run", { name: "Ad hoc", collectionIds: [c.id], iterations: 3 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ name: "Ad hoc", iterations: 3, referenceId: null, status: "passed" });
    expect(r.body.results).toHaveLength(3);
    expect(await db().testerTest.count()).toBe(before);
    const runsBefore = await db().testRun.count();
    const missing = await post(inlineRoute, "/api/v1/api-tester/tests/run", { collectionIds: ["00000000-0000-4000-8000-000000000003"] });
    expect(missing.status).toBe(404);
    expect(await db().testRun.count()).toBe(runsBefore);
    expect((await run("00000000-0000-4000-8000-000000000004")).status).toBe(404);
  });
});
