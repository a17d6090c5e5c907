import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { MockInput } from "@/server/contracts/mock";
import { actorFor, makeNamespace, makeUser } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { resolveNamespace } from "@/server/services/namespace-access";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { saveMock } from "@/server/services/mocks";
import { serveStub } from "./stub-core";
import { stubRecorder } from "@/server/serving/recorder";

useTestDatabase();

let scope: Awaited<ReturnType<typeof resolveNamespace>>;
let actor: ReturnType<typeof actorFor>;

beforeAll(async () => {
  const { user } = await makeUser();
  await makeNamespace("sandbox", { [user.id]: "owner" });
  actor = actorFor(user);
  scope = await resolveNamespace(actor, "sandbox");
});
afterAll(async () => {
  await stubRecorder().drain();
  await stopListening();
  invalidateAll();
});

// Mock answers are text (only proxied ones are bytes).
const stub = (method: string, url: string, body?: unknown, headers: Record<string, string[]> = {}) =>
  serveStub({ method, url, headers: body === undefined ? headers : { "content-type": ["application/json"], ...headers }, rawBody: body === undefined ? "" : JSON.stringify(body), requestId: "test-request-id" }).then((out) => ({ ...out, body: String(out.body) }));

async function save(input: unknown) {
  const result = await saveMock(actor, scope, MockInput.parse(input));
  invalidateAll(); // the NOTIFY would do this a moment later; tests do not wait for it
  return result;
}

describe("serving stubs", () => {
  it("answers with the mock's status, headers and templated payload, and logs the hit off the response path", async () => {
    const { mock } = await save({ http: { route: "/users/:id", httpMethod: "GET" }, response: { statusCode: 200, headers: { "X-Source": "mock" }, payload: { id: "$.pathParam.id", q: "$.queryParams.q" } } });
    const out = await stub("GET", "/stubs/sandbox/users/42?q=hello");
    expect(out.status).toBe(200);
    expect(out.headers["Content-Type"]).toBe("application/json");
    expect(out.headers["X-Source"]).toBe("mock"); // a lone value goes out as a string
    expect(JSON.parse(out.body)).toEqual({ id: "42", q: "hello" });
    await stubRecorder().drain();
    const logs = await db().requestLog.findMany({ where: { mockId: mock.id } });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ method: "GET", url: "/users/42?q=hello", status: 200 });
    // What was answered is kept with the request, for the console's log detail.
    expect(logs[0].response).toEqual({ status: 200, headers: { "X-Source": ["mock"] }, body: { id: "42", q: "hello" } });
    expect((await db().mock.findFirstOrThrow({ where: { id: mock.id } })).useCounter).toBe(1);
  });

  it("an unmatched request is a 404 envelope naming the nearest mocks, and is captured as an undefined request", async () => {
    await save({ http: { route: "/orders", httpMethod: "POST", conditions: [{ path: "$.type", assertAction: "equals", value: "gold" }] }, response: { payload: "gold" } });
    const out = await stub("POST", "/stubs/sandbox/orders", { type: "silver" });
    expect(out.status).toBe(404);
    const body = JSON.parse(out.body);
    expect(body).toMatchObject({ code: "not_found", request_id: "test-request-id", details: { method: "POST", path: "/orders" } });
    expect(body.details.nearest[0].reasons[0].message).toMatch(/\$\.type equals "gold": got "silver"/);
    await stubRecorder().drain();
    const captured = await db().undefinedRequest.findMany({ where: { path: "/orders" } });
    expect(captured).toHaveLength(1);
    expect(captured[0]).toMatchObject({ method: "POST", count: 1 });
  });

  it("transient mocks skip the request log", async () => {
    const { mock } = await save({ transient: true, http: { route: "/quiet" }, response: { payload: "shh" } });
    expect((await stub("GET", "/stubs/sandbox/quiet")).status).toBe(200);
    await stubRecorder().drain();
    expect(await db().requestLog.count({ where: { mockId: mock.id } })).toBe(0);
  });

  it("useLimiter is exact under concurrency: 30 parallel calls to a mock limited to 10 get exactly 10 answers", async () => {
    await save({ useLimiter: 10, http: { route: "/limited" }, response: { payload: "yes" } });
    const results = await Promise.all(Array.from({ length: 30 }, () => stub("GET", "/stubs/sandbox/limited")));
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 404)).toHaveLength(20);
  });

  it("stores written by one request are read by the next", async () => {
    await save({ http: { route: "/cart", httpMethod: "POST" }, extract: { gStore: { item: "$.req.item" } }, response: { statusCode: 201 } });
    await save({ http: { route: "/cart", httpMethod: "GET" }, response: { payload: { item: "$.gS.item" } } });
    expect((await stub("POST", "/stubs/sandbox/cart", { item: "lamp" })).status).toBe(201);
    expect(JSON.parse((await stub("GET", "/stubs/sandbox/cart")).body)).toEqual({ item: "lamp" });
    expect(await db().storeEntry.findFirst({ where: { key: "item" } })).toMatchObject({ value: "lamp" });
  });

  it("text payloads go out as text; an unknown namespace is a 404", async () => {
    await save({ http: { route: "/soap" }, response: { payload: "<ok/>", headers: { "Content-Type": "text/xml" } } });
    const out = await stub("GET", "/stubs/sandbox/soap");
    expect(out.body).toBe("<ok/>");
    expect(out.headers["Content-Type"]).toBe("text/xml");
    expect((await stub("GET", "/stubs/nowhere/x")).status).toBe(404);
  });
});
