// The Mock contract as the public clients send it, through the REST routes:
// a fetched mock posted back, the Go client's empty blocks, aliases, and the
// wire fields stored for other runners (gRPC errors, Kafka / RabbitMQ outputs).
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
  await makeNamespace("wire", { [user.id]: "editor" });
  cookie = await sessionCookie(user.id);
});

const save = (body: unknown) => call(mocks.POST, "/api/v1/mocks?namespace=wire", { method: "POST", cookie, body });
const get = (id: string) => call(mockOne.GET, "/?namespace=wire", { cookie, params: { id } });
const patch = (id: string, body: unknown) => call(mockOne.PATCH, "/?namespace=wire", { method: "PATCH", cookie, params: { id }, body });
const stored = async (id: string) => (await db().mock.findFirstOrThrow({ where: { id, namespace: { name: "wire" } } })).definition as Record<string, unknown>;

describe("a mock as the clients send it", () => {
  it("posting back exactly what GET returned is an update (version + 1), server-owned fields ignored", async () => {
    const created = await save({ http: { route: "/round/:id", httpMethod: "GET" }, response: { statusCode: 201, payload: { id: "$.pathParam.id" } }, tags: ["a"] });
    expect(created.status).toBe(200);
    const fetched = await get(created.body.mock.id);
    expect(fetched.body).toMatchObject({ version: 1, protocol: "http", deleted: false, deletedAt: null, useCounter: 0 });
    expect(fetched.body.createdAt).toEqual(expect.any(Number));

    const again = await save(fetched.body);
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ overwritten: true, mock: { id: created.body.mock.id } });
    const after = await get(created.body.mock.id);
    expect(after.body.version).toBe(2);
    expect(after.body.createdAt).toBe(fetched.body.createdAt);
    const def = await stored(created.body.mock.id);
    for (const k of ["createdAt", "updatedAt", "useCounter", "version", "deleted", "deletedAt", "protocol"]) expect(def).not.toHaveProperty(k);

    // PATCH with the fetched body (and a change) is accepted the same way.
    const patched = await patch(created.body.mock.id, { ...after.body, tags: ["b"] });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body).toMatchObject({ version: 3, tags: ["b"] });
  });

  it("ignores the clients' timestamps in seconds (createdAt, lastUse, expireAt, closedAt) and the Python client's _meta", async () => {
    const res = await save({ id: "with-stamps", http: { route: "/stamps" }, createdAt: 1_700_000_000, lastUse: 1_700_000_100, expireAt: 1_900_000_000, closedAt: 0, _meta: { createdAt: 1 } });
    expect(res.status, res.text).toBe(200);
    const got = await get("with-stamps");
    expect(got.body.createdAt).toBeGreaterThan(1_700_000_000_000);
    expect(await stored("with-stamps")).not.toHaveProperty("lastUse");
  });

  it("the Go client's empty blocks change nothing: the protocol stays, oneOf without responses and events: null are no-ops", async () => {
    const empty = { http: {}, grpc: {}, mcp: {}, soap: {}, graphql: {}, smtp: {}, socket: {}, kafka: {}, rabbitmq: {}, sse: {}, proxy: {}, extract: {} };
    const res = await save({ ...empty, id: "go-soap", soap: { method: "GetUser", path: "/ws" }, oneOf: { order: "", offset: 0 }, response: { payload: "<ok/>", sseEventChain: { events: null } } });
    expect(res.status, res.text).toBe(200);
    const got = await get("go-soap");
    expect(got.body.protocol).toBe("soap");
    const def = await stored("go-soap");
    expect(Object.keys(def).filter((k) => ["http", "grpc", "mcp", "graphql", "smtp", "socket", "kafka", "rabbitmq", "sse", "proxy", "oneOf"].includes(k))).toEqual([]);
    expect(def.response).toEqual({ payload: "<ok/>" });

    const http = await save({ ...empty, id: "go-http", http: { route: "/go" }, response: { payload: 1 } });
    expect(http.status, http.text).toBe(200);
    expect((await get("go-http")).body.protocol).toBe("http");

    // Alone, an empty block is no filler: it names no endpoint.
    const lone = await save({ http: {}, response: { payload: 1 } });
    expect(lone.status).toBe(400);
    expect(lone.body.details[0].field).toBe("http.route");
  });

  it("an unknown key is a 400 naming it, at the top and inside blocks", async () => {
    const top = await save({ http: { route: "/typo" }, respnse: { payload: 1 } });
    expect(top.status).toBe(400);
    expect(top.body).toMatchObject({ code: "validation", error: expect.stringContaining("respnse") });
    const inner = await save({ http: { route: "/typo", rout: "/x" } });
    expect(inner.status).toBe(400);
    expect(inner.body.error).toContain("rout");
    expect(inner.body.details[0].field).toBe("http");
  });

  it("response.body is an alias of payload; both and different is a 400 naming response.body", async () => {
    const res = await save({ id: "alias", http: { route: "/alias" }, response: { statusCode: 201, body: "hi" } });
    expect(res.status, res.text).toBe(200);
    expect((await stored("alias")).response).toEqual({ statusCode: 201, payload: "hi" });
    expect((await save({ id: "alias-same", http: { route: "/alias2" }, response: { body: { a: 1, b: 2 }, payload: { b: 2, a: 1 } } })).status).toBe(200);
    const both = await save({ http: { route: "/alias3" }, response: { body: "a", payload: "b" } });
    expect(both.status).toBe(400);
    expect(both.body.details[0].field).toBe("response.body");
    // A PATCH through the alias replaces the payload.
    const patched = await patch("alias", { response: { body: "bye" } });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.response).toEqual({ statusCode: 201, payload: "bye" });
  });

  it("decode=base64 needs base64 text in the payload (400 naming response.payload)", async () => {
    expect((await save({ http: { route: "/b64" }, response: { decode: "base64", payload: "aGVsbG8=" } })).status).toBe(200);
    for (const payload of ["not base64!", { a: 1 }]) {
      const bad = await save({ http: { route: "/b64-bad" }, response: { decode: "base64", payload } });
      expect(bad.status).toBe(400);
      expect(bad.body.details[0].field).toBe("response.payload");
    }
  });

  it("gRPC error, errorDetails and methodType are validated (400 naming the field) and stored", async () => {
    const ok = await save({
      id: "grpc-err",
      grpc: { service: "pkg.Users", method: "Get", methodType: "server-stream" },
      response: { statusCode: 5, error: "user not found", errorDetails: [{ type: "errorInfo", details: { reason: "NOT_FOUND", domain: "users" } }, { type: "retryInfo", details: { retryDelay: "1s" } }] },
    });
    expect(ok.status, ok.text).toBe(200);
    const got = await get("grpc-err");
    expect(got.body.grpc.methodType).toBe("server-stream");
    expect(got.body.response).toMatchObject({ error: "user not found", errorDetails: [{ type: "errorInfo", details: { reason: "NOT_FOUND" } }, { type: "retryInfo" }] });
    const cases: [unknown, string][] = [
      [{ grpc: { service: "s", method: "m", methodType: "duplex" } }, "grpc.methodType"],
      [{ grpc: { service: "s", method: "m" }, response: { errorDetails: [{ type: "stackTrace", details: {} }] } }, "response.errorDetails.0.type"],
    ];
    for (const [body, field] of cases) {
      const res = await save(body);
      expect(res.status).toBe(400);
      expect(res.body.details[0].field).toBe(field);
    }
  });

  it("kafka and rabbitmq output fields are stored and returned on GET", async () => {
    const kafka = {
      topic: "orders",
      serverName: "main",
      consumerGroup: "mocks",
      headers: [{ path: "x-tenant", assertAction: "equals", value: "acme" }],
      outputTopic: "orders.out",
      outputBrokers: "kafka-1:9092,kafka-2:9092",
      outputKey: "$.req.id",
      outputHeaders: { "x-source": "polymock" },
    };
    expect((await save({ id: "k", kafka, response: { payload: { ok: true } } })).status).toBe(200);
    expect((await get("k")).body).toMatchObject({ protocol: "kafka", kafka });
    const rabbitmq = {
      exchange: "events",
      routingKey: "user.*",
      serverName: "main",
      headers: [{ path: "x-kind", assertAction: "any" }],
      outputURL: "amqp://guest:guest@localhost:5672/",
      outputExchange: "replies",
      outputRoutingKey: "user.reply",
      outputQueue: "replies-q",
      outputProps: { deliveryMode: 2, correlationId: "$.req.id", replyTo: "r", contentType: "application/json", priority: 5, messageId: "m1", type: "reply", appId: "polymock" },
    };
    expect((await save({ id: "r", rabbitmq })).status).toBe(200);
    expect((await get("r")).body).toMatchObject({ protocol: "rabbitmq", rabbitmq });
    const bad = await save({ rabbitmq: { queue: "q", outputProps: { deliveryMode: 7 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe("rabbitmq.outputProps.deliveryMode");
    expect((await save({ rabbitmq: { routingKey: "x" } })).body.details[0].field).toBe("rabbitmq.queue");
  });

  it("the nats block is stored and returned on GET; bad subjects are 400s naming the field", async () => {
    const nats = {
      subject: "orders.*.created",
      serverName: "bus",
      queueGroup: "mocks",
      conditions: [{ path: "$.id", assertAction: "notEmpty" }],
      headers: [{ path: "x-tenant", assertAction: "equals", value: "acme" }],
      sortArray: true,
      outputSubject: "audit.orders",
      outputHeaders: { "x-source": "polymock" },
    };
    expect((await save({ id: "n", nats, response: { payload: { ok: true } } })).status).toBe(200);
    expect((await get("n")).body).toMatchObject({ protocol: "nats", nats });
    expect((await save({ nats: { subject: "orders.>.x" } })).body.details[0].field).toBe("nats.subject");
    expect((await save({ nats: { subject: "a.b", outputSubject: "c.*" } })).body.details[0].field).toBe("nats.outputSubject");
    expect((await save({ nats: {} })).body.details[0].field).toBe("nats.subject");
  });

  it("SSE description, chain controls and event id/retry/templatePath are stored; loopDelay under 100 ms is a 400", async () => {
    const chain = { events: [{ eventName: "tick", data: null, id: "1", retry: 3000 }, { templatePath: "tick.json", delay: 10 }], loop: true, loopDelay: 100, heartbeat: 500, maxLoops: 3, maxTime: 60, logBatch: 5 };
    const res = await save({ id: "sse", sse: { eventPath: "/feed", description: "price ticks", headerConditions: [{ path: "x-a", assertAction: "any" }] }, response: { sseEventChain: chain } });
    expect(res.status, res.text).toBe(200);
    expect((await get("sse")).body).toMatchObject({ sse: { description: "price ticks" }, response: { sseEventChain: chain } });
    const bad = await save({ sse: { eventPath: "/f" }, response: { sseEventChain: { events: [{ data: 1 }], loop: true, loopDelay: 50 } } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe("response.sseEventChain.loopDelay");
  });

  it("http.routePattern may replace route; a pattern RE2 refuses is a 400 naming it", async () => {
    const ok = await save({ id: "re", http: { routePattern: "/users/[0-9]+" } });
    expect(ok.status, ok.text).toBe(200);
    expect((await get("re")).body.http).toEqual({ routePattern: "/users/[0-9]+" });
    const bad = await save({ http: { routePattern: "/(a)\\1" } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe("http.routePattern");
    const neither = await save({ http: { httpMethod: "GET" } });
    expect(neither.status).toBe(400);
    expect(neither.body.details[0].field).toBe("http.route");
  });
});
