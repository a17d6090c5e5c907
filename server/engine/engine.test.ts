import { describe, expect, it } from "vitest";
import { MockInput, type MockDefinition } from "@/server/contracts/mock";
import { buildNamespace, handle } from "./engine";
import { memoryDeps } from "./testing";
import type { EngineRequest } from "./types";

let seq = 0;
function mock(input: Record<string, unknown>): { mock: MockDefinition; sequence: number; createdAt: number } {
  const parsed = MockInput.parse({ id: `m${seq}`, ...input });
  return { mock: { ...parsed, id: parsed.id!, namespace: "sandbox" }, sequence: seq++, createdAt: Date.UTC(2026, 0, 1) };
}

function req(method: string, path: string, extra: Partial<EngineRequest> = {}): EngineRequest {
  return { namespace: "sandbox", method, path, headers: {}, query: {}, body: undefined, ...extra };
}


/** What a webhook without type, retryDelay, async and trigger renders with. */
const HTTP_HOOK_DEFAULTS = { type: "http", fromRequestData: false, retryDelayMs: undefined, async: true, trigger: "always" } as const;
describe("engine", () => {
  it("serves the mock of a route with status, headers and payload", async () => {
    const ns = buildNamespace("sandbox", [mock({ id: "hello", http: { route: "/hello", httpMethod: "get" }, response: { statusCode: 201, headers: { "X-Mock": "yes" }, payload: { hi: true } } })]);
    const r = await handle(ns, req("GET", "/hello"), memoryDeps());
    expect(r).toMatchObject({ matched: true, response: { status: 201, headers: { "X-Mock": ["yes"] }, body: { hi: true }, delayMs: 0 } });
    expect((await handle(ns, req("POST", "/hello"), memoryDeps())).matched).toBe(false);
  });

  it("serialises a payload without placeholders once and hands the same bytes to every request; templated payloads have none", async () => {
    const ns = buildNamespace("sandbox", [
      mock({ id: "static", http: { route: "/static" }, response: { payload: { hi: "there", n: [1, 2] } } }),
      mock({ id: "text", http: { route: "/text" }, response: { payload: "plain text" } }),
      mock({ id: "templated", http: { route: "/t/:id" }, response: { payload: { id: "$.pathParam.id" } } }),
    ]);
    const deps = memoryDeps();
    const first = await handle(ns, req("GET", "/static"), deps);
    const second = await handle(ns, req("GET", "/static"), deps);
    if (!first.matched || !second.matched) throw new Error("no match");
    expect(first.response.wire?.bytes.toString()).toBe(JSON.stringify({ hi: "there", n: [1, 2] }));
    expect(second.response.wire).toBe(first.response.wire);
    expect(second.response.wire?.of).toBe(second.response.body);
    const text = await handle(ns, req("GET", "/text"), deps);
    expect(text.matched && text.response.wire?.bytes.toString()).toBe("plain text");
    const templated = await handle(ns, req("GET", "/t/7"), deps);
    expect(templated.matched && templated.response.wire).toBeUndefined();
  });

  it("selects among mocks of one route by body condition, and falls back to the unconditioned one", async () => {
    const ns = buildNamespace("sandbox", [
      mock({ id: "plain", http: { route: "/orders", httpMethod: "POST" }, response: { payload: "plain" } }),
      ...Array.from({ length: 10 }, (_, i) => mock({ id: `t${i}`, http: { route: "/orders", httpMethod: "POST", conditions: [{ path: "$.type", assertAction: "equals", value: `t${i}` }] }, response: { payload: `t${i}` } })),
    ]);
    const deps = memoryDeps();
    const pick = async (body: unknown) => {
      const r = await handle(ns, req("POST", "/orders", { body }), deps);
      return r.matched ? r.response.body : null;
    };
    expect(await pick({ type: "t7" })).toBe("t7");
    expect(await pick({ type: "nope" })).toBe("plain");
    expect(await pick(undefined)).toBe("plain");
  });

  it("honours priority over specificity", async () => {
    const ns = buildNamespace("sandbox", [
      mock({ id: "specific", http: { route: "/u/me" }, response: { payload: "specific" } }),
      mock({ id: "urgent", priority: 10, http: { route: "/u/:id" }, response: { payload: "urgent" } }),
    ]);
    const r = await handle(ns, req("GET", "/u/me"), memoryDeps());
    expect(r.matched && r.mock.id).toBe("urgent");
  });

  it("renders templates: path parameters, request fields, fake values with their types", async () => {
    const ns = buildNamespace("sandbox", [
      mock({ http: { route: "/items/:id", httpMethod: "POST" }, response: { payload: { id: "$.pathParam.id", name: "$.req.name", uid: "$.fake.UUID", n: "$.req.count", ns: "$.namespace" }, headers: { Location: "/items/$.pathParam.id" } } }),
    ]);
    const r = await handle(ns, req("POST", "/items/42", { body: { name: "lamp", count: 3 } }), memoryDeps());
    if (!r.matched) throw new Error("no match");
    const body = r.response.body as Record<string, unknown>;
    expect(body).toMatchObject({ id: "42", name: "lamp", n: 3, ns: "sandbox" });
    expect(body.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.response.headers.Location).toEqual(["/items/42"]);
  });

  it("oneOf order goes round-robin; random picks from the list", async () => {
    const ns = buildNamespace("sandbox", [
      mock({ http: { route: "/rr" }, oneOf: { order: "order", responses: [{ payload: 1 }, { payload: 2 }, { payload: 3 }] } }),
      mock({ http: { route: "/rnd" }, oneOf: { order: "random", responses: [{ payload: "a" }, { payload: "b" }] } }),
    ]);
    const deps = memoryDeps();
    const seen = [];
    for (let i = 0; i < 4; i++) {
      const r = await handle(ns, req("GET", "/rr"), deps);
      seen.push(r.matched && r.response.body);
    }
    expect(seen).toEqual([1, 2, 3, 1]);
    const random = new Set();
    for (let i = 0; i < 20; i++) {
      const r = await handle(ns, req("GET", "/rnd"), deps);
      random.add(r.matched && r.response.body);
    }
    expect(random).toEqual(new Set(["a", "b"]));
  });

  it("an expired mock (ttl) stops matching and the request falls through", async () => {
    const ns = buildNamespace("sandbox", [
      mock({ id: "short", ttl: 1000, priority: 1, http: { route: "/t" }, response: { payload: "short" } }),
      mock({ id: "long", http: { route: "/t" }, response: { payload: "long" } }),
    ]);
    const deps = memoryDeps();
    expect((await handle(ns, req("GET", "/t"), deps)).matched && "short").toBeTruthy();
    deps.clockAt.now += 1000;
    const r = await handle(ns, req("GET", "/t"), deps);
    expect(r.matched && r.mock.id).toBe("long");
  });

  it("a used-up mock (useLimiter) stops matching; without another it is a miss naming it", async () => {
    const ns = buildNamespace("sandbox", [mock({ id: "twice", useLimiter: 2, http: { route: "/l" }, response: { payload: "ok" } })]);
    const deps = memoryDeps();
    expect((await handle(ns, req("GET", "/l"), deps)).matched).toBe(true);
    expect((await handle(ns, req("GET", "/l"), deps)).matched).toBe(true);
    const third = await handle(ns, req("GET", "/l"), deps);
    expect(third.matched).toBe(false);
    if (!third.matched) expect(third.nearest[0]).toMatchObject({ id: "twice", reasons: [{ message: expect.stringMatching(/used up/) }] });
  });

  it("extract writes stores before the response renders; the next request reads them", async () => {
    const ns = buildNamespace("sandbox", [
      mock({ chainId: "c1", http: { route: "/login", httpMethod: "POST" }, extract: { gStore: { user: "$.req.user" }, cStore: { token: "$.fake.UUID" }, mStore: { greeting: "hello $.req.user" } }, response: { payload: { token: "$.cS.token", greeting: "$.mS.greeting" } } }),
      mock({ chainId: "c1", http: { route: "/me" }, response: { payload: { user: "$.gS.user", token: "$.cS.token" } } }),
    ]);
    const deps = memoryDeps();
    const login = await handle(ns, req("POST", "/login", { body: { user: "ann" } }), deps);
    if (!login.matched) throw new Error("no match");
    const token = (login.response.body as { token: string }).token;
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    expect(login.response.body).toMatchObject({ greeting: "hello ann" });
    const me = await handle(ns, req("GET", "/me"), deps);
    expect(me.matched && me.response.body).toEqual({ user: "ann", token });
  });

  it("payloadTemplatePath renders an uploaded template file", async () => {
    const ns = buildNamespace("sandbox", [mock({ http: { route: "/f/:id" }, response: { payloadTemplatePath: "order-{{$.pathParam.id}}.json" } })]);
    const deps = memoryDeps({ files: { "order-7.json": '{"id": "$.pathParam.id", "ok": true}' } });
    const r = await handle(ns, req("GET", "/f/7"), deps);
    expect(r.matched && r.response.body).toEqual({ id: "7", ok: true });
    await expect(async () => handle(ns, req("GET", "/f/8"), deps)).rejects.toThrow(/order-8.json/);
  });

  it("reports the nearest misses with what failed", async () => {
    const ns = buildNamespace("sandbox", [
      mock({ id: "cond", http: { route: "/pay", httpMethod: "POST", conditions: [{ path: "$.amount", assertAction: "gt", value: 100 }] } }),
      mock({ id: "method", http: { route: "/pay", httpMethod: "PUT" } }),
      mock({ id: "route", http: { route: "/payments", httpMethod: "POST" } }),
      mock({ id: "far", http: { route: "/x/y/z", httpMethod: "GET" } }),
    ]);
    const r = await handle(ns, req("POST", "/pay", { body: { amount: 50 } }), memoryDeps());
    if (r.matched) throw new Error("should miss");
    expect(r.nearest.map((n) => n.id)).toEqual(["cond", "method", "route"]);
    expect(r.nearest[0].reasons[0].message).toMatch(/\$\.amount gt 100: got 50/);
    expect(r.nearest[1].reasons[0].kind).toBe("method");
  });

  it("one mock with a regex RE2 refuses does not take down its namespace", () => {
    const built = buildNamespace("sandbox", [
      mock({ id: "bad", http: { route: "/r", conditions: [{ path: "a", assertAction: "matches", value: "(a)\\1" }] } }),
      mock({ id: "good", http: { route: "/g" } }),
    ]);
    expect(built.rejected.map((r) => r.id)).toEqual(["bad"]);
    expect(built.index.size).toBe(1);
  });
});

describe("engine: webhooks", () => {
  it("renders webhooks with the response's context: request, path parameters, query, headers, stores, mock store", async () => {
    const ns = buildNamespace("sandbox", [
      mock({
        chainId: "c9",
        http: { route: "/orders/:id", httpMethod: "POST" },
        extract: { gStore: { lastOrder: "$.pathParam.id" }, mStore: { total: "$.req.total" } },
        response: { statusCode: 201, payload: { ok: true } },
        webhooks: [
          {
            url: "http://hooks.example/orders/$.pathParam.id?src={{$.queryParams.src}}",
            headers: { "X-Order": "$.pathParam.id", "X-Trace": "$.reqHeader.x-trace[0]" },
            body: { id: "$.pathParam.id", total: "$.mS.total", customer: "$.req.customer", last: "$.gS.lastOrder", ns: "$.namespace", note: "order $.pathParam.id placed" },
            delay: 250,
            timeoutMs: 2000,
            retries: 3,
          },
          { url: "http://hooks.example/plain", method: "put", body: "text $.req.customer" },
        ],
      }),
    ]);
    const r = await handle(ns, req("POST", "/orders/77", { body: { customer: "ann", total: 12.5 }, query: { src: ["web"] }, headers: { "x-trace": ["t-1"] } }), memoryDeps());
    if (!r.matched) throw new Error("no match");
    expect(r.response).toMatchObject({ status: 201, body: { ok: true } });
    expect(r.webhookErrors).toEqual([]);
    expect(r.webhooks).toEqual([
      {
        url: "http://hooks.example/orders/77?src=web",
        method: "POST",
        headers: { "X-Order": ["77"], "X-Trace": ["t-1"] },
        body: { id: "77", total: 12.5, customer: "ann", last: "77", ns: "sandbox", note: "order 77 placed" },
        delayMs: 250,
        timeoutMs: 2000,
        retries: 3,
        ...HTTP_HOOK_DEFAULTS,
      },
      { url: "http://hooks.example/plain", method: "PUT", headers: {}, body: "text ann", delayMs: 0, timeoutMs: 10_000, retries: 0, ...HTTP_HOOK_DEFAULTS },
    ]);
  });

  it("a mock without webhooks yields none; a proxy mock carries its proxy and still renders its webhooks", async () => {
    const ns = buildNamespace("sandbox", [
      mock({ http: { route: "/plain" }, response: { payload: 1 } }),
      mock({ http: { route: "/api/*" }, proxy: { target: "http://upstream.example", stripPrefix: true }, webhooks: [{ url: "http://hooks.example/seen" }] }),
    ]);
    const deps = memoryDeps();
    const plain = await handle(ns, req("GET", "/plain"), deps);
    expect(plain.matched && plain.webhooks).toEqual([]);
    const proxied = await handle(ns, req("GET", "/api/users"), deps);
    if (!proxied.matched) throw new Error("no match");
    expect(proxied.proxy).toEqual({ target: "http://upstream.example", stripPrefix: true });
    expect(proxied.webhooks).toEqual([{ url: "http://hooks.example/seen", method: "POST", headers: {}, body: undefined, delayMs: 0, timeoutMs: 10_000, retries: 0, ...HTTP_HOOK_DEFAULTS }]);
  });

  it("a webhook whose template cannot render is reported and skipped; the response and the other webhooks are unaffected", async () => {
    const ns = buildNamespace("sandbox", [
      mock({
        http: { route: "/big", httpMethod: "POST" },
        response: { payload: "fine" },
        webhooks: [{ url: "http://hooks.example/a", body: { blob: "$.req.blob", again: "$.req.blob" } }, { url: "http://hooks.example/b", body: { ok: true } }],
      }),
    ]);
    // Two copies of a 6 MiB string exceed the 10 MiB rendering limit of one template.
    const blob = "x".repeat(6 * 1024 * 1024);
    const r = await handle(ns, req("POST", "/big", { body: { blob } }), memoryDeps());
    if (!r.matched) throw new Error("no match");
    expect(r.response.body).toBe("fine");
    expect(r.webhooks.map((w) => w.url)).toEqual(["http://hooks.example/b"]);
    expect(r.webhookErrors).toEqual([{ index: 0, error: expect.stringMatching(/exceeds .* characters/) }]);
  });
});
