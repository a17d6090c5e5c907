// Webhooks as the public clients write them (type, timeout, retryCount,
// retryDelay, async, trigger, rabbit*/kafka*), end to end: the real node:http
// stub fast path in front, a real node:http receiver and the local RabbitMQ
// behind, the mocks saved through the REST route and re-read from the database.
// Kafka delivery against a real (kcat mock) cluster: webhooks-kafka.db.test.ts.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "amqplib";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as mocksRoute from "@/app/api/v1/mocks/route";
import { db } from "@/server/db/client";
import { PEER_HEADER } from "@/server/http/request-meta";
import { logger } from "@/server/lib/logger";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { drainWebhooks, webhookDispatcher } from "@/server/services/webhooks";
import { call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { handleStubRequest } from "./http-stub";
import { stubRecorder } from "@/server/serving/recorder";

useTestDatabase();

const RABBIT_URL = "amqp://guest:guest@127.0.0.1:5672";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
const seen: Seen[] = [];
const seenAt = (path: string) => seen.filter((s) => s.url.split("?")[0] === path);
const failuresLeft = new Map<string, number>();

// The receiver: records every request; /slow… never answers, /fail-N answers 500 N times, then 204.
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
    const path = req.url!.split("?")[0];
    if (path.startsWith("/slow")) return;
    const flaky = /^\/fail-(\d+)/.exec(path);
    if (flaky) {
      const left = failuresLeft.get(path) ?? Number(flaky[1]);
      failuresLeft.set(path, left - 1);
      res.writeHead(left > 0 ? 500 : 204);
      return res.end();
    }
    if (path === "/teapot") {
      res.writeHead(418);
      return res.end("short and stout");
    }
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end("{}");
  });
});

const stubServer = http.createServer((req, res) => {
  req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "unknown";
  void handleStubRequest(req, res, "webhook-test-request");
});

const listen = (server: http.Server) => new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));
async function closeServer(server: http.Server) {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
}

let hooks = 0;
let stubPort = 0;
let closedPort = 0;
let editor = "";

beforeAll(async () => {
  const { user } = await makeUser();
  await makeNamespace("hooks", { [user.id]: "editor" });
  editor = await sessionCookie(user.id);
  hooks = await listen(receiver);
  stubPort = await listen(stubServer);
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
  await closeServer(receiver);
});
afterEach(async () => {
  await drainWebhooks();
  delete process.env.OUTBOUND_ALLOW_PRIVATE_TEMPLATED;
  vi.restoreAllMocks();
});

/** Saves through POST /api/v1/mocks, as a client would. */
async function save(mock: Record<string, unknown>) {
  const res = await call(mocksRoute.POST, "/api/v1/mocks?namespace=hooks", { method: "POST", cookie: editor, body: mock });
  invalidateAll(); // the NOTIFY would do this a moment later; tests do not wait for it
  return res;
}

function stub(method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: stubPort, method, path: `/stubs/hooks${path}`, agent: false, headers: body ? { "Content-Type": "application/json" } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const logged = (spy: ReturnType<typeof vi.spyOn>, message: string) =>
  spy.mock.calls.filter(([, m]) => m === message).map(([fields]) => fields as Record<string, unknown>);

describe("saving webhooks", () => {
  it.each([
    ["a metadata URL", { url: "http://169.254.169.254/latest/meta-data" }, "webhooks.0.url", /cloud-metadata or link-local/],
    ["a link-local IPv6 URL", { url: "http://[fe80::1]/x" }, "webhooks.0.url", /cloud-metadata or link-local/],
    ["a metadata host name with a templated path", { url: "http://metadata.google.internal/$.req.p" }, "webhooks.0.url", /cloud-metadata host name/],
    ["an NAT64 form of the metadata address", { url: "http://[64:ff9b::a9fe:a9fe]/" }, "webhooks.0.url", /cloud-metadata or link-local/],
    ["an http webhook without url", { method: "POST" }, "webhooks.0.url", /required/],
    ["a rabbitmq webhook without rabbitURL", { type: "rabbitmq", rabbitQueue: "q" }, "webhooks.0.rabbitURL", /required/],
    ["a rabbitmq webhook to a metadata broker", { type: "rabbitmq", rabbitURL: "amqp://169.254.169.254", rabbitQueue: "q" }, "webhooks.0.rabbitURL", /cloud-metadata/],
    ["a kafka webhook without topic", { type: "kafka", kafkaBrokers: "127.0.0.1:9092" }, "webhooks.0.kafkaTopic", /required/],
    ["a kafka webhook to a metadata broker", { type: "kafka", kafkaBrokers: "127.0.0.1:9092, 169.254.169.254:9092", kafkaTopic: "t" }, "webhooks.0.kafkaBrokers", /cloud-metadata/],
    ["an unknown trigger", { url: "http://example.com/", trigger: "sometimes" }, "webhooks.0.trigger", /./],
  ])("%s is a 400 naming the field, and nothing is stored", async (label, webhook, field, message) => {
    const id = `bad-${label.replace(/\W+/g, "-")}`;
    const res = await save({ id, http: { route: `/${id}` }, webhooks: [webhook] });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body).toMatchObject({ code: "validation", request_id: expect.any(String) });
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field, message: expect.stringMatching(message) })]));
    expect(await db().mock.count({ where: { id } })).toBe(0);
  });

  it("stores every client field, kafka ones included", async () => {
    const webhook = {
      type: "kafka",
      kafkaBrokers: "127.0.0.1:9092,127.0.0.1:9093",
      kafkaTopic: "orders",
      kafkaKey: "$.req.id",
      kafkaUsername: "u",
      kafkaPassword: "p",
      kafkaUseSASL: true,
      kafkaUseTLS: false,
      body: { id: "$.req.id" },
      timeout: 500,
      retryCount: 2,
      retryDelay: 100,
      async: true,
      trigger: "on_success",
    };
    const res = await save({ id: "kafka-hook", http: { route: "/kafka-hook" }, webhooks: [webhook] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await db().mock.findFirstOrThrow({ where: { id: "kafka-hook" } });
    expect((row.definition as { webhooks: unknown[] }).webhooks[0]).toMatchObject(webhook);
  });
});

describe("URLs built from request data", () => {
  it("an anonymous caller cannot aim a templated webhook at loopback; the namespace can opt in", async () => {
    const res = await save({ id: "cb-hook", http: { route: "/cb", httpMethod: "POST" }, webhooks: [{ url: "$.req.cb" }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const warn = vi.spyOn(logger(), "warn");
    const target = `http://127.0.0.1:${hooks}/internal`;
    expect((await stub("POST", "/cb", JSON.stringify({ cb: target }))).status).toBe(200);
    await drainWebhooks();
    expect(seenAt("/internal")).toEqual([]);
    expect(logged(warn, "webhook not sent")).toEqual([expect.objectContaining({ mockId: "cb-hook", error: expect.stringMatching(/private or loopback address and the URL's host comes from request data/) })]);

    process.env.OUTBOUND_ALLOW_PRIVATE_TEMPLATED = "other, hooks";
    expect((await stub("POST", "/cb", JSON.stringify({ cb: target }))).status).toBe(200);
    await drainWebhooks();
    expect(seenAt("/internal")).toHaveLength(1);
  });

  it("a static URL written by the editor still reaches loopback (OUTBOUND_ALLOW_PRIVATE governs it)", async () => {
    await save({ id: "static-hook", http: { route: "/static" }, webhooks: [{ url: `http://127.0.0.1:${hooks}/static/$.pathParam.x` }] });
    await stub("GET", "/static");
    await drainWebhooks();
    expect(seenAt("/static/")).toHaveLength(1);
  });
});

describe("timeout and retries", () => {
  it("timeout aborts an attempt; retryCount and retryDelay retry it", async () => {
    await save({ id: "slow-hook", http: { route: "/slow-hook" }, webhooks: [{ url: `http://127.0.0.1:${hooks}/slow`, timeout: 200, retryCount: 1, retryDelay: 50 }] });
    const warn = vi.spyOn(logger(), "warn");
    expect((await stub("GET", "/slow-hook")).status).toBe(200);
    await drainWebhooks();
    expect(seenAt("/slow")).toHaveLength(2);
    expect(logged(warn, "webhook failed")).toEqual([expect.objectContaining({ mockId: "slow-hook", attempts: 2, error: "no answer within 200 ms" })]);
  });

  it("retries 5xx answers until one succeeds", async () => {
    await save({ id: "flaky-hook", http: { route: "/flaky" }, webhooks: [{ url: `http://127.0.0.1:${hooks}/fail-2`, retryCount: 3, retryDelay: 20, method: "PUT", body: "x" }] });
    const info = vi.spyOn(logger(), "info");
    await stub("GET", "/flaky");
    await drainWebhooks();
    expect(seenAt("/fail-2").map((s) => s.method)).toEqual(["PUT", "PUT", "PUT"]);
    expect(logged(info, "webhook delivered")).toEqual([expect.objectContaining({ mockId: "flaky-hook", status: 204, attempts: 3 })]);
  });

  it("retries network errors, and gives up after retryCount", async () => {
    await save({ id: "refused-hook", http: { route: "/refused" }, webhooks: [{ url: `http://127.0.0.1:${closedPort}/x`, retryCount: 2, retryDelay: 10 }] });
    const warn = vi.spyOn(logger(), "warn");
    await stub("GET", "/refused");
    await drainWebhooks();
    expect(logged(warn, "webhook failed")).toEqual([expect.objectContaining({ mockId: "refused-hook", attempts: 3, error: "ECONNREFUSED" })]);
  });

  it("the legacy names timeoutMs and retries still work", async () => {
    await save({ id: "legacy-hook", http: { route: "/legacy" }, webhooks: [{ url: `http://127.0.0.1:${hooks}/fail-1`, retries: 1, timeoutMs: 1000 }] });
    await stub("GET", "/legacy");
    await drainWebhooks();
    expect(seenAt("/fail-1")).toHaveLength(2);
  });
});

describe("async", () => {
  it("async: false delivers before the stub answers", async () => {
    await save({ id: "sync-hook", http: { route: "/sync" }, response: { payload: { done: true } }, webhooks: [{ url: `http://127.0.0.1:${hooks}/sync-target`, async: false }] });
    const info = vi.spyOn(logger(), "info");
    const res = await stub("GET", "/sync");
    // No waiting: the delivery had finished when the answer arrived.
    expect(seenAt("/sync-target")).toHaveLength(1);
    expect(logged(info, "webhook delivered")).toEqual([expect.objectContaining({ mockId: "sync-hook" })]);
    expect(res).toEqual({ status: 200, body: JSON.stringify({ done: true }) });
  });

  it("async: false waits at most the timeout, then answers unchanged while the retries go on", async () => {
    await save({
      id: "sync-slow",
      http: { route: "/sync-slow" },
      response: { statusCode: 202, payload: "ok" },
      webhooks: [{ url: `http://127.0.0.1:${hooks}/slow-sync`, async: false, timeout: 200, retryCount: 1, retryDelay: 1000 }],
    });
    const warn = vi.spyOn(logger(), "warn");
    const res = await stub("GET", "/sync-slow");
    expect(res).toEqual({ status: 202, body: "ok" });
    // The answer came while the delivery was still backing off before its second attempt.
    expect(seenAt("/slow-sync")).toHaveLength(1);
    expect(webhookDispatcher().size).toBe(1);
    await drainWebhooks();
    expect(seenAt("/slow-sync")).toHaveLength(2);
    expect(logged(warn, "webhook failed")).toEqual([expect.objectContaining({ mockId: "sync-slow", attempts: 2, error: "no answer within 200 ms" })]);
  });

  it("async webhooks (the default) start only after the answer", async () => {
    await save({ id: "async-hook", http: { route: "/async" }, response: { delay: 0, payload: 1 }, webhooks: [{ url: `http://127.0.0.1:${hooks}/async-target`, delay: 100 }] });
    await stub("GET", "/async");
    expect(seenAt("/async-target")).toHaveLength(0);
    await drainWebhooks();
    expect(seenAt("/async-target")).toHaveLength(1);
  });
});

describe("trigger", () => {
  const triggered = async (id: string) => {
    await drainWebhooks();
    return ["on_success", "on_error", "always"].filter((t) => seenAt(`/trigger/${id}/${t}`).length === 1);
  };
  const withTriggers = (id: string) => ["on_success", "on_error", "always"].map((trigger) => ({ url: `http://127.0.0.1:${hooks}/trigger/${id}/${trigger}`, trigger }));

  it.each([
    ["a 200 answer", 200, ["on_success", "always"]],
    ["a 302 answer", 302, ["on_success", "always"]],
    ["a 404 answer", 404, ["on_error", "always"]],
    ["a 503 answer", 503, ["on_error", "always"]],
  ])("%s fires %j", async (_label, statusCode, expected) => {
    const id = `status-${statusCode}`;
    await save({ id, http: { route: `/${id}` }, response: { statusCode }, webhooks: withTriggers(id) });
    expect((await stub("GET", `/${id}`)).status).toBe(statusCode);
    expect(await triggered(id)).toEqual(expected);
  });

  it("a proxy mock is judged on the upstream's status", async () => {
    await save({ id: "proxied", http: { route: "/teapot" }, proxy: { target: `http://127.0.0.1:${hooks}` }, webhooks: withTriggers("proxied") });
    expect((await stub("GET", "/teapot")).status).toBe(418);
    expect(await triggered("proxied")).toEqual(["on_error", "always"]);
  });
});

describe("rabbitmq webhooks (real broker at 127.0.0.1:5672)", () => {
  it("publishes the rendered body and headers to the queue", async () => {
    const queue = `polymock-webhook-${Date.now().toString(36)}`;
    const res = await save({
      id: "rabbit-hook",
      http: { route: "/orders/:id", httpMethod: "POST" },
      webhooks: [{ type: "rabbitmq", rabbitURL: RABBIT_URL, rabbitQueue: queue, headers: { "X-Order": "$.pathParam.id" }, body: { id: "$.pathParam.id", customer: "$.req.customer" } }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const info = vi.spyOn(logger(), "info");
    expect((await stub("POST", "/orders/42", JSON.stringify({ customer: "ann" }))).status).toBe(200);
    await drainWebhooks();
    expect(logged(info, "webhook delivered")).toEqual([expect.objectContaining({ mockId: "rabbit-hook", attempts: 1 })]);

    const conn = await connect(RABBIT_URL);
    try {
      const channel = await conn.createChannel();
      const message = await channel.get(queue, { noAck: true });
      expect(message).not.toBe(false);
      if (message === false) return;
      expect(JSON.parse(message.content.toString("utf8"))).toEqual({ id: "42", customer: "ann" });
      expect(message.properties.contentType).toBe("application/json");
      expect(message.properties.headers).toMatchObject({ "X-Order": "42" });
      await channel.deleteQueue(queue);
    } finally {
      await conn.close();
    }
  });

  it("an unroutable mandatory message fails the delivery without retrying", async () => {
    await save({
      id: "rabbit-unroutable",
      http: { route: "/unroutable" },
      webhooks: [{ type: "rabbitmq", rabbitURL: RABBIT_URL, rabbitExchange: "amq.direct", rabbitRoutingKey: `nobody-${Date.now()}`, rabbitMandatory: true, retryCount: 2, body: "x" }],
    });
    const warn = vi.spyOn(logger(), "warn");
    await stub("GET", "/unroutable");
    await drainWebhooks();
    expect(logged(warn, "webhook failed")).toEqual([expect.objectContaining({ mockId: "rabbit-unroutable", attempts: 1, error: expect.stringMatching(/unroutable/) })]);
  });

  it("a broker that is not there is retried, then reported", async () => {
    await save({ id: "rabbit-down", http: { route: "/rabbit-down" }, webhooks: [{ type: "rabbitmq", rabbitURL: `amqp://guest:guest@127.0.0.1:${closedPort}`, rabbitQueue: "q", retryCount: 1, retryDelay: 10, timeout: 2000 }] });
    const warn = vi.spyOn(logger(), "warn");
    await stub("GET", "/rabbit-down");
    await drainWebhooks();
    expect(logged(warn, "webhook failed")).toEqual([expect.objectContaining({ mockId: "rabbit-down", attempts: 2, error: expect.stringMatching(/ECONNREFUSED/) })]);
  });
});
