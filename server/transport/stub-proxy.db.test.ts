// Proxy mocks and webhooks end to end: the real node:http fast path
// (handleStubRequest) in front, a real node:http upstream / webhook receiver
// on 127.0.0.1 behind.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { MockInput } from "@/server/contracts/mock";
import { PEER_HEADER } from "@/server/http/request-meta";
import { logger } from "@/server/lib/logger";
import { actorFor, makeNamespace, makeUser } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { resolveNamespace } from "@/server/services/namespace-access";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { saveMock } from "@/server/services/mocks";
import { drainWebhooks, webhookDispatcher } from "@/server/services/webhooks";
import { handleStubRequest } from "./http-stub";
import { MAX_PROXY_HOPS, VIA_NAME } from "./stub-proxy";
import { stubRecorder } from "@/server/serving/recorder";

useTestDatabase();

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

const BINARY = Buffer.from(Array.from({ length: 1024 }, (_, i) => (i * 7) % 256));
const upstreamSeen: Seen[] = [];
let flakyCalls = 0;

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
}

async function closeServer(server: http.Server) {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

// The upstream and webhook receiver: records every request, answers by path.
const upstream = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    const seen: Seen = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks), at: Date.now() };
    upstreamSeen.push(seen);
    const path = req.url!.split("?")[0];
    if (path.endsWith("/slow")) return; // never answers
    if (path.endsWith("/binary")) {
      res.writeHead(200, [
        ["Content-Type", "application/octet-stream"],
        ["X-Upstream", "yes"],
        ["Set-Cookie", "a=1; Path=/"],
        ["Set-Cookie", "b=2; Path=/"],
      ]);
      return res.end(req.method === "HEAD" ? undefined : BINARY);
    }
    if (path.endsWith("/teapot")) {
      res.writeHead(418, { "Content-Type": "text/plain", "Keep-Alive": "timeout=5" });
      return res.end("short and stout");
    }
    if (path.startsWith("/flaky")) {
      flakyCalls++;
      res.writeHead(flakyCalls === 1 ? 500 : 204);
      return res.end();
    }
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ echoed: true }));
  });
});

// The stub server: what server.ts does for /stubs/*, without Next.
const stubServer = http.createServer((req, res) => {
  req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "unknown";
  void handleStubRequest(req, res, "proxy-test-request");
});

let up = 0;
let stubPort = 0;
let closedPort = 0;
let scope: Awaited<ReturnType<typeof resolveNamespace>>;
let actor: ReturnType<typeof actorFor>;

beforeAll(async () => {
  const { user } = await makeUser();
  await makeNamespace("sandbox", { [user.id]: "owner" });
  actor = actorFor(user);
  scope = await resolveNamespace(actor, "sandbox");
  up = await listen(upstream);
  stubPort = await listen(stubServer);
  // A port that was just free: nothing listens there.
  const probe = http.createServer();
  closedPort = await listen(probe);
  await closeServer(probe);
});
afterAll(async () => {
  await drainWebhooks();
  await stubRecorder().drain();
  await stopListening();
  invalidateAll();
  await closeServer(stubServer);
  await closeServer(upstream);
});
afterEach(() => {
  delete process.env.OUTBOUND_ALLOW_PRIVATE;
  vi.restoreAllMocks();
});

async function save(input: unknown) {
  const result = await saveMock(actor, scope, MockInput.parse(input));
  invalidateAll(); // the NOTIFY would do this a moment later; tests do not wait for it
  return result;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  at: number;
}

/** A raw node:http client, so hop-by-hop headers can be sent and raw bytes read. */
function call(method: string, path: string, opts: { headers?: Record<string, string>; body?: Buffer | string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: stubPort, method, path, headers: opts.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks), at: Date.now() }));
    });
    req.on("error", reject);
    req.end(opts.body);
  });
}

const json = (a: Answer) => JSON.parse(a.body.toString("utf8"));
const seenAt = (prefix: string) => upstreamSeen.filter((s) => s.url.startsWith(prefix));

async function waitFor<T>(read: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = read();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("proxy mocks", () => {
  it("forwards method, path, query, headers (minus hop-by-hop and Host, plus X-Forwarded-* and the mock's) and the raw body; records the hit", async () => {
    const { mock } = await save({
      id: "fwd",
      http: { route: "/up/*" },
      proxy: { target: `http://127.0.0.1:${up}/base?key=abc`, headers: { "X-Injected": "from-mock", Authorization: "Bearer upstream" } },
    });
    const body = '{"name":"lamp","price":12.5}';
    const a = await call("POST", "/stubs/sandbox/up/items/42?x=1&y=%20two", {
      body,
      headers: { "Content-Type": "application/json", "X-Custom": "a", Authorization: "Bearer client", Connection: "X-Secret-Hop", "X-Secret-Hop": "1", "Keep-Alive": "timeout=1", "X-Forwarded-For": "10.9.8.7" },
    });
    expect(a.status).toBe(200);
    expect(json(a)).toEqual({ echoed: true });
    const seen = seenAt("/base/up/items/42")[0];
    expect(seen.method).toBe("POST");
    expect(seen.url).toBe("/base/up/items/42?key=abc&x=1&y=%20two");
    expect(seen.body.toString("utf8")).toBe(body);
    expect(seen.headers).toMatchObject({
      host: `127.0.0.1:${up}`,
      "content-type": "application/json",
      "content-length": String(body.length),
      "x-custom": "a",
      "x-injected": "from-mock",
      authorization: "Bearer upstream",
      "x-forwarded-for": "10.9.8.7, 127.0.0.1",
      "x-forwarded-host": `127.0.0.1:${stubPort}`,
      "x-forwarded-proto": "http",
    });
    expect(seen.headers["x-secret-hop"]).toBeUndefined();
    expect(seen.headers[PEER_HEADER]).toBeUndefined();
    await stubRecorder().drain();
    const logs = await db().requestLog.findMany({ where: { mockId: mock.id } });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ method: "POST", url: "/up/items/42?x=1&y=%20two", status: 200 });
  });

  it("passes the upstream's status, headers and body bytes back unchanged", async () => {
    await save({ id: "bin", http: { route: "/files/*" }, proxy: { target: `http://127.0.0.1:${up}` } });
    const a = await call("GET", "/stubs/sandbox/files/binary");
    expect(a.status).toBe(200);
    expect(a.body.equals(BINARY)).toBe(true);
    expect(a.headers["content-type"]).toBe("application/octet-stream");
    expect(a.headers["content-length"]).toBe(String(BINARY.length));
    expect(a.headers["x-upstream"]).toBe("yes");
    expect(a.headers["set-cookie"]).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    expect(a.headers["x-request-id"]).toBe("proxy-test-request");

    const head = await call("HEAD", "/stubs/sandbox/files/binary");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);

    const teapot = await call("GET", "/stubs/sandbox/files/teapot");
    expect(teapot.status).toBe(418);
    expect(teapot.body.toString()).toBe("short and stout");
    expect(teapot.headers["content-type"]).toBe("text/plain");
  });

  it("stripPrefix drops the route's leading literal segments (pathPrefix included), keeping parameters and the rest", async () => {
    await save({ id: "strip", http: { route: "/strip/v1/*" }, proxy: { target: `http://127.0.0.1:${up}/inner/`, stripPrefix: true } });
    await save({ id: "strip-param", pathPrefix: "/svc", http: { route: "/accounts/:id/*" }, proxy: { target: `http://127.0.0.1:${up}`, stripPrefix: true } });
    await save({ id: "nostrip", http: { route: "/keep/v1/*" }, proxy: { target: `http://127.0.0.1:${up}/inner` } });
    expect((await call("GET", "/stubs/sandbox/strip/v1/users/7?q=1")).status).toBe(200);
    expect((await call("GET", "/stubs/sandbox/svc/accounts/5/orders")).status).toBe(200);
    expect((await call("GET", "/stubs/sandbox/keep/v1/users/7")).status).toBe(200);
    const urls = upstreamSeen.map((s) => s.url);
    expect(urls).toContain("/inner/users/7?q=1");
    expect(urls).toContain("/5/orders");
    expect(urls).toContain("/inner/keep/v1/users/7");
  });

  it("an upstream that does not answer within timeoutMs is a 504 envelope", async () => {
    await save({ id: "slow", http: { route: "/slow" }, proxy: { target: `http://127.0.0.1:${up}`, timeoutMs: 200 } });
    const started = Date.now();
    const a = await call("GET", "/stubs/sandbox/slow");
    expect(a.status).toBe(504);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(json(a)).toMatchObject({ code: "external", request_id: "proxy-test-request", error: expect.stringMatching(/did not answer within 200 ms/), details: { reason: "timeout" } });
  });

  it("a target nobody listens on is a 502 envelope", async () => {
    await save({ id: "closed", http: { route: "/closed" }, proxy: { target: `http://127.0.0.1:${closedPort}` } });
    const a = await call("GET", "/stubs/sandbox/closed");
    expect(a.status).toBe(502);
    expect(json(a)).toMatchObject({ code: "external", request_id: "proxy-test-request", error: expect.stringMatching(/ECONNREFUSED/), details: { reason: "connection_failed" } });
  });

  it("a cloud-metadata target is refused at save time, naming proxy.target", async () => {
    // The connect-time guard (server/lib/ssrf.ts, tested there) still refuses a name that resolves to one.
    for (const target of ["http://169.254.169.254/latest", "http://[::ffff:169.254.169.254]/", "http://metadata.google.internal/"]) {
      const parsed = MockInput.safeParse({ id: "imds", http: { route: "/imds/*" }, proxy: { target } });
      expect(parsed.success, target).toBe(false);
      expect(parsed.error?.issues[0]).toMatchObject({ path: ["proxy", "target"], message: expect.stringMatching(/metadata|link-local/) });
    }
  });

  it("with OUTBOUND_ALLOW_PRIVATE=0 a host name resolving to loopback is refused at connect time", async () => {
    await save({ id: "private", http: { route: "/private" }, proxy: { target: `http://localhost:${up}/private-target` } });
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    const a = await call("GET", "/stubs/sandbox/private");
    expect(a.status).toBe(502);
    expect(json(a)).toMatchObject({ code: "external", error: expect.stringMatching(/OUTBOUND_ALLOW_PRIVATE=0/), details: { reason: "blocked_target" } });
    expect(seenAt("/private-target")).toEqual([]);
    delete process.env.OUTBOUND_ALLOW_PRIVATE;
    expect((await call("GET", "/stubs/sandbox/private")).status).toBe(200);
  });
});

describe("webhooks", () => {
  it("a templated webhook is sent after the stub response, rendered with the request's context", async () => {
    await save({
      id: "order-hook",
      http: { route: "/orders/:id", httpMethod: "POST" },
      response: { statusCode: 201, payload: { ok: true }, delay: 200 },
      webhooks: [
        {
          url: `http://127.0.0.1:${up}/hook/$.pathParam.id?src={{$.queryParams.src}}`,
          headers: { "X-Customer": "$.req.customer", "X-Trace": "$.reqHeader.x-trace[0]" },
          body: { event: "order.created", id: "$.pathParam.id", customer: "$.req.customer", total: "$.req.total" },
          delay: 300,
        },
        { url: `http://127.0.0.1:${up}/hook-now/$.pathParam.id` },
      ],
    });
    const started = Date.now();
    const a = await call("POST", "/stubs/sandbox/orders/77?src=web", { headers: { "Content-Type": "application/json", "X-Trace": "t-1" }, body: JSON.stringify({ customer: "ann", total: 12.5 }) });
    expect(a.status).toBe(201);
    expect(json(a)).toEqual({ ok: true });
    // Without a delay of its own, a webhook still waits for the (200 ms delayed) response to go out.
    const now = await waitFor(() => seenAt("/hook-now/77")[0]);
    expect(now.at).toBeGreaterThanOrEqual(started + 200);
    expect(now.body.length).toBe(0);
    const hook = await waitFor(() => seenAt("/hook/77")[0]);
    expect(hook.at).toBeGreaterThanOrEqual(a.at + 250); // after the response, and after its own delay
    expect(hook.method).toBe("POST");
    expect(hook.url).toBe("/hook/77?src=web");
    expect(hook.headers).toMatchObject({ "x-customer": "ann", "x-trace": "t-1", "content-type": "application/json", "user-agent": "Polymock-Webhook" });
    expect(JSON.parse(hook.body.toString("utf8"))).toEqual({ event: "order.created", id: "77", customer: "ann", total: 12.5 });
  });

  it("retries after a 500 and then succeeds", async () => {
    await save({ id: "flaky-hook", http: { route: "/flaky-trigger" }, response: { payload: "ok" }, webhooks: [{ url: `http://127.0.0.1:${up}/flaky`, method: "PUT", body: "plain $.namespace", retries: 2 }] });
    const info = vi.spyOn(logger(), "info");
    const a = await call("GET", "/stubs/sandbox/flaky-trigger");
    expect(a.status).toBe(200);
    await drainWebhooks();
    expect(info).toHaveBeenCalledWith(expect.objectContaining({ mockId: "flaky-hook", status: 204, attempts: 2, url: `http://127.0.0.1:${up}/flaky` }), "webhook delivered");
    const calls = seenAt("/flaky");
    expect(calls).toHaveLength(2); // the 500, then the 204 that ends the delivery
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(450); // the first backoff step
    expect(calls.map((c) => c.method)).toEqual(["PUT", "PUT"]);
    expect(calls[1].body.toString()).toBe("plain sandbox");
    expect(calls[1].headers["content-type"]).toBe("text/plain; charset=utf-8");
  });

  it("failing webhooks never change or delay the stub response", async () => {
    await save({
      id: "broken-hooks",
      http: { route: "/broken" },
      response: { statusCode: 202, payload: { accepted: true } },
      // A literal metadata URL is refused at save time; one rendered from data reaches the call-time guard.
      mStore: { meta: "http://169.254.169.254/latest/meta-data" },
      webhooks: [
        { url: `http://127.0.0.1:${closedPort}/nobody`, retries: 1 },
        { url: `http://127.0.0.1:${up}/slow`, timeoutMs: 200 },
        { url: "$.mS.meta" },
        { url: "not a url $.req.x" },
      ],
    });
    const warn = vi.spyOn(logger(), "warn");
    const started = Date.now();
    const a = await call("GET", "/stubs/sandbox/broken");
    expect(a.status).toBe(202);
    expect(json(a)).toEqual({ accepted: true });
    expect(Date.now() - started).toBeLessThan(200); // the slow receiver's timeout alone would be 200 ms
    await waitFor(() => (webhookDispatcher().size > 0 ? true : undefined));
    await drainWebhooks();
    expect(webhookDispatcher().size).toBe(0);
    expect(seenAt("/slow").length).toBeGreaterThanOrEqual(1);
    const outcomes = warn.mock.calls.map(([fields, message]) => [message, (fields as { attempts?: number; error?: string }).attempts, (fields as { error?: string }).error]);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        ["webhook failed", 2, "ECONNREFUSED"],
        ["webhook failed", 1, "no answer within 200 ms"],
        ["webhook not sent", undefined, expect.stringMatching(/169\.254\.169\.254 is a cloud-metadata/)],
        ["webhook not sent", undefined, expect.stringMatching(/not an absolute URL/)],
      ]),
    );
  });
});

describe("proxy loops", () => {
  it("a proxy mock whose target is its own stub URL: one extra hop, then 508 loop_detected in the envelope", async () => {
    await save({ id: "self-loop", http: { route: "/loop/*" }, proxy: { target: `http://127.0.0.1:${stubPort}/stubs/sandbox` } });
    const arrivals: string[] = [];
    const count = (req: http.IncomingMessage) => arrivals.push(String(req.headers.via ?? ""));
    stubServer.on("request", count);
    try {
      const a = await call("GET", "/stubs/sandbox/loop/around");
      expect(a.status).toBe(508);
      expect(json(a)).toMatchObject({ code: "loop_detected", request_id: "proxy-test-request", details: { reason: "loop_detected", target: `http://127.0.0.1:${stubPort}` } });
      // The client's request, and the one the proxy sent with its Via: nothing else, nothing still going.
      expect(arrivals).toEqual(["", `1.1 ${VIA_NAME}`]);
    } finally {
      stubServer.off("request", count);
    }
  });

  it("passes on the Via it received with its own appended, and refuses a request that has passed through too many Polymock proxies", async () => {
    await save({ id: "via-chain", http: { route: "/via/*" }, proxy: { target: `http://127.0.0.1:${up}/via-seen` } });
    const ok = await call("GET", "/stubs/sandbox/via/one", { headers: { Via: "1.1 corporate-proxy, 1.1 polymock-0a1b2c3d" } });
    expect(ok.status).toBe(200);
    expect(seenAt("/via-seen/via/one")[0].headers.via).toBe(`1.1 corporate-proxy, 1.1 polymock-0a1b2c3d, 1.1 ${VIA_NAME}`);
    const chain = Array.from({ length: MAX_PROXY_HOPS }, (_, i) => `1.1 polymock-${String(i).padStart(8, "0")}`).join(", ");
    const refused = await call("GET", "/stubs/sandbox/via/two", { headers: { Via: chain } });
    expect(refused.status).toBe(508);
    expect(seenAt("/via-seen/via/two")).toEqual([]);
  });

  it("saving a mock whose proxy target is this instance's own /stubs URL is a 400 naming proxy.target; nothing is stored", async () => {
    const attempt = save({ id: "self-target", http: { route: "/self" }, proxy: { target: "http://localhost:5770/stubs/sandbox" } });
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({ status: 400, code: "validation", details: [{ location: "body", field: "proxy.target" }] });
    expect(await db().mock.count({ where: { id: "self-target" } })).toBe(0);
  });
});
