// Mocks from API tester traffic, through the route handlers: the round trip
// (a collection with tests run against a real node:http server, mocks
// generated from it, the same collection run against the stub server with
// the same test results), history as the source, mock-from-response inline
// and from a history entry, and the 400/404 answers.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as collectionsRoute from "@/app/api/v1/api-tester/collections/route";
import * as collectionRoute from "@/app/api/v1/api-tester/collections/[id]/route";
import * as requestsRoute from "@/app/api/v1/api-tester/collections/[id]/requests/route";
import * as executeCollectionRoute from "@/app/api/v1/api-tester/collections/[id]/execute/route";
import * as executeRoute from "@/app/api/v1/api-tester/requests/execute/route";
import * as fromResponseRoute from "@/app/api/v1/api-tester/mock-from-response/route";
import * as fromCollectionRoute from "@/app/api/v1/api-tester/mocks-from-collection/route";
import { invalidateAll } from "@/server/serving/mock-index";
import { checkAnswer } from "@/server/testing/api-routes";
import { call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useStubServer } from "@/server/testing/stub-server";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();
const NS = "traffic";
const stub = useStubServer(NS);

let cookie: string;
let real: http.Server;
let realBase: string;
let realHits = 0;

beforeAll(async () => {
  cookie = await sessionCookie(stub.actor.user.id);
  real = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      realHits++;
      const url = new URL(req.url!, "http://x");
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", "x-served-by": "real", ...headers });
        res.end(JSON.stringify(body));
      };
      if (req.method === "GET" && url.pathname === "/users/1") return json(200, { id: 1, name: "Ada" }, { "cache-control": "no-store" });
      if (req.method === "GET" && url.pathname === "/search") {
        const q = url.searchParams.get("q");
        return json(200, q === "ada" ? [{ id: 1, name: "Ada" }] : []);
      }
      if (req.method === "POST" && url.pathname === "/orders") {
        const item = (JSON.parse(Buffer.concat(chunks).toString() || "{}") as { item?: string }).item;
        return json(201, { orderId: item === "book" ? 7 : 8, item });
      }
      if (url.pathname === "/text") {
        res.writeHead(200, { "content-type": "text/plain" });
        return void res.end("plain words");
      }
      json(404, { error: "missing" });
    });
  });
  await new Promise<void>((r) => real.listen(0, "127.0.0.1", r));
  realBase = `http://127.0.0.1:${(real.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => real.close(() => r())));

const q = `?namespace=${NS}`;
const post = (route: { POST: any }, path: string, body: unknown, params?: Record<string, string>, who = cookie) => call(route.POST, `${path}${q}`, { method: "POST", cookie: who, body, params });

async function collection(name: string, baseUrl: string) {
  const r = await post(collectionsRoute, "/api/v1/api-tester/collections", { name, variables: [{ key: "baseUrl", value: baseUrl }] });
  expect(r.status).toBe(201);
  return r.body.id as string;
}
async function request(collectionId: string, body: Record<string, unknown>) {
  const r = await post(requestsRoute, `/api/v1/api-tester/collections/${collectionId}/requests`, body, { id: collectionId });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}
const runOf = (id: string) => post(executeCollectionRoute, `/api/v1/api-tester/collections/${id}/execute`, { environmentId: null }, { id });
const outcome = (body: { results: { name: string; responseCode: number; tests: { name: string; status: string }[] }[] }) =>
  body.results.map((r) => ({ name: r.name, code: r.responseCode, tests: r.tests.map((t) => `${t.status}: ${t.name}`) }));

describe("round trip: real server → mocks → same test results", () => {
  it("runs a collection against the real server, generates mocks, and the rerun against the stubs gives the same results", async () => {
    const col = await collection("Shop", realBase);
    const json = { "content-type": "application/json" };
    await request(col, { name: "user", url: "{{baseUrl}}/users/1", scripts: { test: "pm.test('200', () => pm.response.to.have.status(200)); pm.test('name', () => pm.expect(pm.response.json().name).to.eql('Ada'))" } });
    await request(col, { name: "search ada", url: "{{baseUrl}}/search?q=ada", scripts: { test: "pm.test('one hit', () => pm.expect(pm.response.json()).to.have.length(1))" } });
    await request(col, { name: "search bob", url: "{{baseUrl}}/search?q=bob", scripts: { test: "pm.test('no hit', () => pm.expect(pm.response.json()).to.have.length(0))" } });
    await request(col, { name: "order book", method: "POST", url: "{{baseUrl}}/orders", headers: json, body: { mode: "raw", raw: '{"item":"book"}' }, scripts: { test: "pm.test('201', () => pm.response.to.have.status(201)); pm.test('id 7', () => pm.expect(pm.response.json().orderId).to.eql(7))" } });
    await request(col, { name: "order pen", method: "POST", url: "{{baseUrl}}/orders", headers: json, body: { mode: "raw", raw: '{"item":"pen"}' }, scripts: { test: "pm.test('id 8', () => pm.expect(pm.response.json().orderId).to.eql(8))" } });
    await request(col, { name: "missing", url: "{{baseUrl}}/nothing", scripts: { test: "pm.test('404', () => pm.response.to.have.status(404)); pm.test('says missing', () => pm.expect(pm.response.json().error).to.eql('missing'))" } });

    const first = await runOf(col);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.status).toBe("passed");
    expect(first.body.counts).toMatchObject({ requests: 6, tests: 9, passedTests: 9 });

    const gen = await post(fromCollectionRoute, "/api/v1/api-tester/mocks-from-collection", { collectionId: col, execute: true, environmentId: null, tags: ["from-traffic"] });
    expect(gen.status, JSON.stringify(gen.body)).toBe(201);
    expect(checkAnswer("POST /api/v1/api-tester/mocks-from-collection", { status: gen.status, contentType: gen.headers.get("content-type"), text: gen.text })).toEqual([]);
    expect(gen.body.skipped).toEqual([]);
    const created = gen.body.created as { name: string; route: string; method: string; conditions: number }[];
    expect(created.map((c) => `${c.name} ${c.method} ${c.route} ${c.conditions}`)).toEqual([
      "user GET /users/1 0",
      "search ada GET /search 1",
      "search bob GET /search 1",
      "order book POST /orders 1",
      "order pen POST /orders 1",
      "missing GET /nothing 0",
    ]);
    invalidateAll(); // the NOTIFY would rebuild the index a moment later; the test does not wait

    const moved = await call(collectionRoute.PUT, `/api/v1/api-tester/collections/${col}${q}`, { method: "PUT", cookie, body: { variables: [{ key: "baseUrl", value: stub.base }] }, params: { id: col } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const hitsBefore = realHits;
    const second = await runOf(col);
    expect(second.status).toBe(200);
    expect(realHits).toBe(hitsBefore); // the rerun never reached the real server
    expect(second.body.results.every((r: { url: string }) => r.url.startsWith(stub.base))).toBe(true);
    expect(outcome(second.body)).toEqual(outcome(first.body));
    expect(second.body.status).toBe("passed");

    // Generating again updates the same mocks rather than adding copies.
    const again = await post(fromCollectionRoute, "/api/v1/api-tester/mocks-from-collection", { collectionId: col, execute: true, environmentId: null });
    expect(again.status).toBe(201);
    const { db } = await import("@/server/db/client");
    expect(await db().mock.count({ where: { namespace: { name: NS }, deletedAt: null, id: { startsWith: "tester-" } } })).toBe(6);
  });
});

describe("mocks-from-collection from history", () => {
  it("uses the caller's last recorded response and skips requests never sent, with the reason", async () => {
    const col = await collection("History", realBase);
    const sent = await request(col, { name: "sent one", url: "{{baseUrl}}/users/1?from=history" });
    await request(col, { name: "never sent", url: "{{baseUrl}}/search?q=ada" });
    const exec = await post(executeRoute, "/api/v1/api-tester/requests/execute", { requestId: sent, environmentId: null });
    expect(exec.body.ok).toBe(true);
    const gen = await post(fromCollectionRoute, "/api/v1/api-tester/mocks-from-collection", { collectionId: col, targetNamespace: NS });
    expect(gen.status, JSON.stringify(gen.body)).toBe(201);
    expect(gen.body.created.map((c: { name: string }) => c.name)).toEqual(["sent one"]);
    expect(gen.body.skipped).toEqual([{ requestId: expect.any(String), name: "never sent", reason: expect.stringContaining("no recorded response") }]);
  });
});

describe("mock-from-response", () => {
  it("creates a mock from an inline exchange that the stub path serves, without transfer headers", async () => {
    const r = await post(fromResponseRoute, "/api/v1/api-tester/mock-from-response", {
      request: { method: "get", url: "https://api.example.test/inline/thing?x=1", headers: [{ key: "X-Tenant", value: "t1" }] },
      response: { status: 202, headers: [{ key: "Content-Type", value: "application/json" }, { key: "Content-Length", value: "11" }, { key: "Transfer-Encoding", value: "chunked" }, { key: "X-Trace", value: "abc" }], body: '{"ok":true}' },
      matchQuery: true,
      matchHeaders: ["x-tenant"],
      id: "inline-thing",
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(checkAnswer("POST /api/v1/api-tester/mock-from-response", { status: r.status, contentType: r.headers.get("content-type"), text: r.text })).toEqual([]);
    expect(r.body.mock).toMatchObject({ id: "inline-thing", http: { route: "/inline/thing", httpMethod: "GET", queryParams: [{ path: "x", assertAction: "equals", value: "1" }], header: [{ path: "x-tenant", value: "t1" }] }, response: { statusCode: 202, payload: { ok: true } } });
    expect(Object.keys(r.body.mock.response.headers)).toEqual(["content-type", "x-trace"]);
    invalidateAll();
    const served = await fetch(`${stub.base}/inline/thing?x=1`, { headers: { "x-tenant": "t1" } });
    expect(served.status).toBe(202);
    expect(await served.json()).toEqual({ ok: true });
    expect(served.headers.get("x-trace")).toBe("abc");
    const other = await fetch(`${stub.base}/inline/thing?x=2`, { headers: { "x-tenant": "t1" } });
    expect(other.status).not.toBe(202);

    const dup = await post(fromResponseRoute, "/api/v1/api-tester/mock-from-response", {
      request: { method: "GET", url: "https://api.example.test/inline/thing?x=1", headers: [{ key: "X-Tenant", value: "t1" }] },
      response: { status: 200, body: "again" },
      matchQuery: true,
      matchHeaders: ["x-tenant"],
    });
    expect(dup.status).toBe(409);
  });

  it("creates a mock from a history entry", async () => {
    const exec = await post(executeRoute, "/api/v1/api-tester/requests/execute", { request: { url: `${realBase}/text` }, environmentId: null });
    expect(exec.body.historyId).toBeTruthy();
    const r = await post(fromResponseRoute, "/api/v1/api-tester/mock-from-response", { historyId: exec.body.historyId });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.mock).toMatchObject({ http: { route: "/text", httpMethod: "GET" }, response: { statusCode: 200, payload: "plain words" } });
    invalidateAll();
    const served = await fetch(`${stub.base}/text`);
    expect(await served.text()).toBe("plain words");
  });

  it("answers 400 for missing parts, a relative URL or a cut body, and 404 for a history entry not the caller's", async () => {
    const none = await post(fromResponseRoute, "/api/v1/api-tester/mock-from-response", {});
    expect(none.status).toBe(400);
    expect(JSON.stringify(none.body.details)).toContain("request");
    const relative = await post(fromResponseRoute, "/api/v1/api-tester/mock-from-response", { request: { method: "GET", url: "/no/host" }, response: { status: 200 } });
    expect(relative.status).toBe(400);
    expect(relative.body.error).toContain("not an absolute URL");
    const cut = await post(fromResponseRoute, "/api/v1/api-tester/mock-from-response", { request: { method: "GET", url: "http://h/x" }, response: { status: 200, body: "par", bodyTruncated: true } });
    expect(cut.status).toBe(400);
    const missing = await post(fromResponseRoute, "/api/v1/api-tester/mock-from-response", { historyId: "00000000-0000-4000-8000-000000000000" });
    expect(missing.status).toBe(404);
  });
});

describe("mocks-from-collection: access and input", () => {
  it("answers 404 for an unknown collection and for one of a namespace the caller cannot reach, 400 for bad input", async () => {
    const unknown = await post(fromCollectionRoute, "/api/v1/api-tester/mocks-from-collection", { collectionId: "00000000-0000-4000-8000-000000000000" });
    expect(unknown.status).toBe(404);

    const other = await makeUser({ namespaces: { "traffic-other": "owner" } });
    const otherCookie = await sessionCookie(other.user.id);
    const foreign = await call(collectionsRoute.POST, "/api/v1/api-tester/collections?namespace=traffic-other", { method: "POST", cookie: otherCookie, body: { name: "Theirs" } });
    expect(foreign.status).toBe(201);
    const cross = await post(fromCollectionRoute, "/api/v1/api-tester/mocks-from-collection", { collectionId: foreign.body.id });
    expect(cross.status).toBe(404);
    // Nor can the other user write the generated mocks into a namespace they cannot see.
    await makeNamespace("traffic-private");
    const col = await collection("Private target", realBase);
    const target = await post(fromCollectionRoute, "/api/v1/api-tester/mocks-from-collection", { collectionId: col, targetNamespace: "traffic-private" });
    expect(target.status).toBe(404);

    const bad = await post(fromCollectionRoute, "/api/v1/api-tester/mocks-from-collection", { collectionId: "not-a-uuid" });
    expect(bad.status).toBe(400);
    const wrongRequest = await post(fromCollectionRoute, "/api/v1/api-tester/mocks-from-collection", { collectionId: col, requestIds: ["00000000-0000-4000-8000-000000000000"] });
    expect(wrongRequest.status).toBe(400);
    expect(wrongRequest.body.error).toContain("not in collection");
  });
});
