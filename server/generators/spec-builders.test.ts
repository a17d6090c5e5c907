// The specification builders, pure, each with its round trip through the
// generator of its format: Kafka, RabbitMQ and NATS mocks → AsyncAPI 2.6 →
// the same protocol, server, address, group, output and payload; HTTP mocks
// → OpenAPI 3.0 (valid for swagger-parser) → the same method, path, status
// and payload. Mocks a format cannot express are warnings naming why.
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { MockInput, protocolOf } from "@/server/contracts/mock";
import { asyncapiToMocks } from "./asyncapi";
import { openapiToMocks, PREFER_HEADER } from "./openapi";
import type { SpecMock } from "./spec-common";
import { mocksToAsyncapi } from "./spec-asyncapi";
import { mocksToOpenapi } from "./spec-openapi";

type Obj = Record<string, any>;
const mock = (id: string, input: Obj): SpecMock => ({ id, def: MockInput.parse(input), route: `route of ${id}` });
/** What a round trip must keep: the protocol block and the reply. */
const essence = (m: Obj) => {
  const p = protocolOf(m);
  return { [p]: m[p], payload: m.response?.payload };
};

const MESSAGING: SpecMock[] = [
  mock("orders-in", { kafka: { topic: "orders.created", serverName: "orders", consumerGroup: "billing", outputTopic: "orders.billed", outputKey: "bill" }, response: { payload: { billed: true, total: 12.5 } } }),
  mock("orders-log", { kafka: { topic: "orders.audit" }, response: { payload: "logged" } }),
  mock("quote-rpc", { rabbitmq: { queue: "quote.requests", serverName: "rabbit" }, response: { payload: { price: 4.9 } } }),
  mock("events", { rabbitmq: { exchange: "shipments", routingKey: "shipment.*", serverName: "rabbit", outputQueue: "shipment.receipts" }, response: { payload: { received: "$.req.id" } } }),
  mock("bound-queue", { rabbitmq: { queue: "invoices", exchange: "billing", routingKey: "invoice.created", outputExchange: "billing", outputRoutingKey: "invoice.ack" }, response: { payload: { ack: 1 } } }),
  mock("stock", { nats: { subject: "stock.check.*", serverName: "nats", queueGroup: "workers" }, response: { payload: { available: 3 } } }),
  mock("stock-gold", { nats: { subject: "stock.check.*", serverName: "nats", queueGroup: "workers", conditions: [{ path: "$.tier", assertAction: "equals", value: "gold" }] }, priority: 1, response: { payload: { available: 99 } } }),
  mock("notify", { nats: { subject: "jobs.done", outputSubject: "jobs.notified" }, response: { payload: { notified: true } } }),
  mock("listen-only", { nats: { subject: "metrics.>" } }),
];

describe("mocks → AsyncAPI 2.6 → mocks", () => {
  it("the document has the required fields and the x-service-* extensions on every channel", () => {
    const { spec, warnings, exported } = mocksToAsyncapi(MESSAGING, { namespace: "shop", title: "Shop events", version: "2.1.0", serverUrl: "broker.shop.test:1234" });
    expect(warnings).toEqual([]);
    expect(exported).toBe(MESSAGING.length);
    expect(spec).toMatchObject({ asyncapi: "2.6.0", info: { title: "Shop events", version: "2.1.0" } });
    const s = spec as Obj;
    expect(s.servers).toEqual({
      orders: { url: "broker.shop.test:1234", protocol: "kafka" },
      kafka: { url: "broker.shop.test:1234", protocol: "kafka", description: "every kafka protocol server of the namespace" },
      rabbit: { url: "broker.shop.test:1234", protocol: "amqp" },
      rabbitmq: { url: "broker.shop.test:1234", protocol: "amqp", description: "every rabbitmq protocol server of the namespace" },
      nats: { url: "broker.shop.test:1234", protocol: "nats" },
    });
    for (const [key, ch] of Object.entries<Obj>(s.channels)) {
      expect(["kafka", "rabbitmq", "nats"], key).toContain(ch["x-service-protocol"]);
      expect(typeof ch["x-service-address"], key).toBe("string");
      expect(ch.publish ?? ch.subscribe, key).toBeDefined();
      for (const op of [ch.publish, ch.subscribe].filter(Boolean)) expect(op.message, key).toBeDefined();
    }
    expect(s.channels["shipment.*"]).toMatchObject({ "x-service-protocol": "rabbitmq", "x-service-address": "shipment.*", "x-service-exchange": "shipments", "x-service-routing-key": "shipment.*", bindings: { amqp: { is: "routingKey", exchange: { name: "shipments" } } }, publish: { "x-service-reply-channel": "shipment.receipts" } });
    expect(s.channels["shipment.receipts"]).toMatchObject({ "x-service-address": "shipment.receipts", subscribe: { message: { examples: [{ payload: { received: "$.req.id" } }] } } });
    // Two mocks on one subject: two channels, the second keyed apart; its conditions in words.
    expect(s.channels["stock.check.*#2"].publish.description).toBe('when message $.tier equals "gold"');
  });

  it("posting the document to the AsyncAPI generator gives the same protocol, server, address, group, output and payload", async () => {
    const { spec } = mocksToAsyncapi(MESSAGING, { namespace: "shop" });
    const { mocks, warnings } = await asyncapiToMocks(spec);
    expect(mocks.map((m) => essence(m.mock))).toEqual(MESSAGING.map((m) => essence({ ...m.def, [protocolOf(m.def)]: Object.fromEntries(Object.entries(m.def[protocolOf(m.def)] as Obj).filter(([k]) => k !== "conditions")) })));
    // Kafka without an output keeps its reply but says it produces nothing.
    expect(warnings.map((w) => w.mockId)).toEqual(["shop-messaging-mocks-orders-log"]);
    expect(mocks.map((m) => m.mock.id)).toContain("shop-messaging-mocks-quote-rpc");
  });

  it("a mock AsyncAPI cannot express is skipped with a warning naming its protocol; what is left out of an exported mock is a warning too", () => {
    const { warnings, exported } = mocksToAsyncapi(
      [
        mock("web", { http: { route: "/a", httpMethod: "GET" }, response: { payload: 1 } }),
        mock("mail", { smtp: {} }),
        mock("chat", { socket: { serverName: "s" } }),
        mock("relay", { rabbitmq: { queue: "q", outputURL: "amqp://other:5672", outputQueue: "o", outputProps: { priority: 3 } }, response: { payload: "x" } }),
      ],
      { namespace: "n" },
    );
    expect(exported).toBe(1);
    expect(warnings).toEqual([
      { mockId: "web", route: "route of web", reason: "a http mock cannot be expressed in AsyncAPI (Kafka, RabbitMQ and NATS mocks only)" },
      { mockId: "mail", route: "route of mail", reason: "a smtp mock cannot be expressed in AsyncAPI (Kafka, RabbitMQ and NATS mocks only)" },
      { mockId: "chat", route: "route of chat", reason: "a socket mock cannot be expressed in AsyncAPI (Kafka, RabbitMQ and NATS mocks only)" },
      { mockId: "relay", route: "route of relay", reason: "exported without outputURL, outputProps (AsyncAPI has no field for them) on rabbitmq" },
    ]);
  });
});

const HTTP: SpecMock[] = [
  mock("user", { http: { route: "/users/:id", httpMethod: "GET" }, response: { payload: { id: "$.pathParam.id", name: "Ada", tags: ["a"], score: 1.5, admin: false, manager: null } } }),
  mock("user-missing", { http: { route: "/users/:id", httpMethod: "GET", header: [{ path: "X-Case", assertAction: "equals", value: "missing" }] }, priority: 1, response: { statusCode: 404, payload: { error: "not found" } } }),
  mock("user-vip", { http: { route: "/users/:id", httpMethod: "GET", queryParams: [{ path: "vip", assertAction: "equals", value: "1" }] }, response: { payload: { id: "vip" } } }),
  mock("create", { pathPrefix: "/v2", http: { route: "/users", httpMethod: "POST" }, response: { statusCode: 201, payload: { created: true }, headers: { Location: ["/v2/users/1"] } } }),
  mock("ping", { http: { route: "/ping", httpMethod: "GET" }, response: { payload: "pong" } }),
  mock("feed", { http: { route: "/feed.xml", httpMethod: "GET" }, response: { payload: "<feed/>", headers: { "Content-Type": ["application/atom+xml"] } } }),
  mock("delete", { http: { route: "/users/:id", httpMethod: "DELETE" }, response: { statusCode: 204 } }),
];

describe("mocks → OpenAPI 3.0 → mocks", () => {
  it("a valid OpenAPI 3.0 document: :id is {id} with a path parameter, mocks of one method and path are one operation", async () => {
    const { spec, warnings, exported } = mocksToOpenapi(HTTP, { namespace: "shop", title: "Shop", version: "3" });
    expect(warnings).toEqual([]);
    expect(exported).toBe(HTTP.length);
    await SwaggerParser.validate(structuredClone(spec) as never);
    const s = spec as Obj;
    expect(s).toMatchObject({ openapi: "3.0.3", info: { title: "Shop", version: "3" }, servers: [{ url: "/stubs/shop" }] });
    expect(Object.keys(s.paths).sort()).toEqual(["/feed.xml", "/ping", "/users/{id}", "/v2/users"]);
    const get = s.paths["/users/{id}"].get;
    expect(get.parameters).toEqual([
      { name: "id", in: "path", required: true, schema: { type: "string" } },
      { name: "X-Case", in: "header", required: false, schema: { type: "string" }, example: "missing" },
      { name: "vip", in: "query", required: false, schema: { type: "string" }, example: "1" },
    ]);
    // The mock without conditions is the first example: the default the generator makes again.
    expect(Object.keys(get.responses["200"].content["application/json"].examples)).toEqual(["user", "user-vip"]);
    expect(get.responses["200"].content["application/json"].examples["user-vip"]).toEqual({ summary: "mock user-vip", description: 'when query vip equals "1"', value: { id: "vip" } });
    expect(get.responses["200"].content["application/json"].schema).toEqual({ type: "object", properties: { id: { type: "string" }, name: { type: "string" }, tags: { type: "array", items: { type: "string" } }, score: { type: "number" }, admin: { type: "boolean" }, manager: { nullable: true } } });
    expect(get.responses["404"].content["application/json"]).toEqual({ schema: { type: "object", properties: { error: { type: "string" } } }, example: { error: "not found" } });
    expect(s.paths["/v2/users"].post.responses["201"]).toMatchObject({ headers: { Location: { schema: { type: "string" }, example: "/v2/users/1" } } });
    expect(s.paths["/users/{id}"].delete.responses["204"]).toEqual({ description: "No Content (mock delete)" });
  });

  it("the OpenAPI generator reads it back: the same method, path, status and payload", async () => {
    const { spec } = mocksToOpenapi(HTTP, { namespace: "shop" });
    const { mocks } = await openapiToMocks(structuredClone(spec));
    const shape = (m: Obj) => ({ method: m.http.httpMethod, path: (m.pathPrefix ?? "") + m.http.route, status: m.response?.statusCode ?? 200, payload: m.response?.payload });
    const back = mocks.map((m) => shape(m.mock)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const original = HTTP.map((m) => shape(m.def)).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(back).toEqual(original);
    // The conditioned mocks come back chosen by Prefer (the generator's way), the plain one as the default.
    const user = mocks.map((m) => m.mock as Obj).filter((m) => m.http?.route === "/users/:id" && m.http.httpMethod === "GET");
    expect(user.map((m) => (m.http.header ?? []).map((h: Obj) => h.path))).toEqual([[], [PREFER_HEADER], [PREFER_HEADER]]);
  });

  it("what OpenAPI cannot express is a warning naming why", () => {
    const { warnings, exported, spec } = mocksToOpenapi(
      [
        mock("grpc", { grpc: { service: "a.B", method: "C" }, response: { payload: {} } }),
        mock("kafka", { kafka: { topic: "t" } }),
        mock("rest", { http: { route: "/files/*", httpMethod: "GET" }, response: { payload: 1 } }),
        mock("regex", { http: { routePattern: "^/a/\\d+$" }, response: { payload: 1 } }),
        mock("proxy", { http: { route: "/p", httpMethod: "GET" }, proxy: { target: "http://example.com" } }),
        mock("any", { http: { route: "/any" }, response: { payload: 1 } }),
      ],
      { namespace: "n" },
    );
    expect(exported).toBe(1);
    expect(warnings.map((w) => `${w.mockId}: ${w.reason}`)).toEqual([
      "grpc: a grpc mock cannot be expressed in OpenAPI (HTTP mocks only)",
      "kafka: a kafka mock cannot be expressed in OpenAPI (HTTP mocks only)",
      "rest: a route with a * wildcard (or braces) cannot be expressed as an OpenAPI path",
      "regex: a route pattern (regular expression) cannot be expressed as an OpenAPI path",
      "proxy: it proxies to http://example.com: no response to describe",
      "any: it answers any method: exported as GET",
    ]);
    expect(Object.keys((spec as Obj).paths)).toEqual(["/any"]);
  });
});
