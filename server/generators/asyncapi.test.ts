// The AsyncAPI generator, pure: both fixtures (2.6 and 3.0, the same shop in
// each version's idiom) give valid Kafka, RabbitMQ and NATS mocks the
// engine places and answers; bindings, parameters, replies and sampled
// payloads map as docs/decisions.md says; unreadable documents say where.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { buildNamespace, handle } from "@/server/engine/engine";
import { natsRoute } from "@/server/engine/protocols/nats";
import { rabbitmqRoute } from "@/server/engine/protocols/rabbitmq";
import { memoryDeps } from "@/server/engine/testing";
import { asyncapiToMocks } from "./asyncapi";
import { parseDocumentText } from "./document-text";
import { GeneratorInputError } from "./input-error";

type Obj = Record<string, any>;
const fixture = (name: string) => parseDocumentText(readFileSync(path.join(__dirname, "__fixtures__", name), "utf8")) as Obj;
const byId = (mocks: { mock: Obj }[]) => Object.fromEntries(mocks.map((m) => [m.mock.id, m.mock]));

async function refusal(doc: unknown) {
  const err = await asyncapiToMocks(doc).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GeneratorInputError);
  return err as GeneratorInputError;
}

describe("AsyncAPI 2.6 → mocks", () => {
  it("one mock per publish operation (what the application receives), on the broker its server names", async () => {
    const { mocks, warnings } = await asyncapiToMocks(fixture("shop-asyncapi-2.6.yaml"));
    const m = byId(mocks);
    expect(Object.keys(m)).toEqual(["shop-fulfilment-receiveordercreated", "shop-fulfilment-quoteshipping", "shop-fulfilment-onshipmentdispatched", "shop-fulfilment-checkstock"]);
    // Kafka: the binding's topic and group; no reply is described, so nothing is produced.
    expect(m["shop-fulfilment-receiveordercreated"]).toEqual({ id: "shop-fulfilment-receiveordercreated", kafka: { topic: "shop.orders.created", serverName: "orders-kafka", consumerGroup: "fulfilment" } });
    // RabbitMQ RPC: the queue binding's name; the same channel's subscribe message answers replyTo.
    expect(m["shop-fulfilment-quoteshipping"]).toEqual({ id: "shop-fulfilment-quoteshipping", rabbitmq: { queue: "shipping.quote.requests", serverName: "shipping-rabbit" }, response: { payload: { carrier: "DHL", price: 4.9, currency: "EUR" } } });
    // is: routingKey: the exchange with the channel name as routing key; the reply is sampled from its schema.
    expect(m["shop-fulfilment-onshipmentdispatched"]).toEqual({
      id: "shop-fulfilment-onshipmentdispatched",
      rabbitmq: { exchange: "shipments", routingKey: "shipment.dispatched", serverName: "shipping-rabbit" },
      response: { payload: { shipmentId: "$.fake.UUID", receivedAt: "$.fake.RFC3339", carrier: "DHL" } },
    });
    // NATS: the {sku} parameter is a wildcard token; the queue binding is the queue group.
    expect(m["shop-fulfilment-checkstock"]).toEqual({ id: "shop-fulfilment-checkstock", nats: { subject: "stock.check.*", serverName: "stock-nats", queueGroup: "stock-workers" }, response: { payload: { sku: "BOOK-1", available: 12 } } });
    expect(mocks.map((x) => x.summary)).toEqual(["kafka shop.orders.created → no reply", "rabbitmq queue shipping.quote.requests → replyTo", "rabbitmq exchange shipments key shipment.dispatched → replyTo", "nats stock.check.* → the reply subject"]);
    expect(warnings).toEqual([{ pointer: "/channels/sensors~1temperature/publish", message: "not generated: its servers (telemetry) are not Kafka, AMQP or NATS servers" }]);
    for (const x of mocks) expect(MockInput.safeParse(x.mock).success, x.mock.id).toBe(true);
  });

  it("the engine places every mock and answers a message on its route with the reply", async () => {
    const { mocks } = await asyncapiToMocks(fixture("shop-asyncapi-2.6.yaml"));
    const ns = buildNamespace("ns", mocks.map((m, i) => ({ mock: { ...MockInput.parse(m.mock), id: m.mock.id, namespace: "ns" }, sequence: i, createdAt: 0 })));
    expect(ns.rejected).toEqual([]);
    const ask = (protocol: "nats" | "rabbitmq", route: string, headers: Record<string, string[]> = {}) => handle(ns, { namespace: "ns", method: "MESSAGE", path: route, headers, query: {}, body: { warehouse: "north" } }, memoryDeps(), protocol);
    const stock = await ask("nats", natsRoute("stock-nats", "stock.check.* stock-workers"), { "x-nats-subject": ["stock.check.BOOK-1"] });
    expect(stock.matched && stock.response.body).toEqual({ sku: "BOOK-1", available: 12 });
    const quote = await ask("rabbitmq", rabbitmqRoute("shipping-rabbit", "q:shipping.quote.requests"));
    expect(quote.matched && quote.response.body).toEqual({ carrier: "DHL", price: 4.9, currency: "EUR" });
  });

  it("options: serverName, idPrefix, tags and folder apply to every mock", async () => {
    const folderId = "7f1c9a52-53b6-4df4-8a0b-2f55e4d0e6a1";
    const { mocks } = await asyncapiToMocks(fixture("shop-asyncapi-2.6.yaml"), { serverName: "local", idPrefix: "shop", tags: ["async"], folderId });
    expect(mocks.map((m) => m.mock.id)).toEqual(["shop-receiveordercreated", "shop-quoteshipping", "shop-onshipmentdispatched", "shop-checkstock"]);
    for (const { mock } of mocks) {
      const block = (mock.kafka ?? mock.rabbitmq ?? mock.nats) as Obj;
      expect(block.serverName).toBe("local");
      expect(mock).toMatchObject({ tags: ["async"], folderId });
    }
  });

  it("a Kafka channel parameter takes its example value (Kafka has no wildcard), with a warning; an x-service-reply-channel is the output", async () => {
    const doc = {
      asyncapi: "2.6.0",
      info: { title: "T", version: "1" },
      servers: { k: { url: "localhost:9092", protocol: "kafka" } },
      channels: {
        "audit.{region}": { parameters: { region: { schema: { type: "string", enum: ["eu", "us"] } } }, publish: { operationId: "audit", "x-service-reply-channel": "audit.done", message: { payload: { type: "object" } } } },
        "audit.done": { subscribe: { message: { payload: { type: "object", properties: { ok: { type: "boolean" } } } } } },
      },
    };
    const { mocks, warnings } = await asyncapiToMocks(doc);
    expect(mocks[0]!.mock).toEqual({ id: "t-audit", kafka: { topic: "audit.eu", serverName: "k", outputTopic: "audit.done" }, response: { payload: { ok: true } } });
    expect(warnings).toEqual([{ pointer: "/channels/audit.{region}", message: 'parameter {region} is "eu" in the address (this broker has no wildcard for it)' }]);
  });

  it("a Kafka reply on the consumed topic would answer itself: no outputTopic, and a warning", async () => {
    const doc = { asyncapi: "2.6.0", info: { title: "T", version: "1" }, servers: { k: { url: "x:9092", protocol: "kafka" } }, channels: { t: { publish: { operationId: "loop", "x-service-reply-channel": "t" }, subscribe: { message: { payload: { type: "string", enum: ["pong"] } } } } } };
    const { mocks, warnings } = await asyncapiToMocks(doc);
    expect(mocks[0]!.mock).toEqual({ id: "t-loop", kafka: { topic: "t", serverName: "k" }, response: { payload: "pong" } });
    expect(warnings.map((w) => w.message)).toEqual(["the reply would go to the topic the mock consumes (it would answer itself): no outputTopic", "Kafka has no reply address: the mock keeps the reply but produces nothing until it is given an outputTopic"]);
  });
});

describe("AsyncAPI 3.0 → mocks", () => {
  it("receive operations become mocks; reply channels with an address are outputs, replies without one go back to the requester", async () => {
    const { mocks, warnings } = await asyncapiToMocks(fixture("shop-asyncapi-3.0.yaml"));
    const m = byId(mocks);
    expect(m["shop-fulfilment-receiveordercreated"]).toEqual({
      id: "shop-fulfilment-receiveordercreated",
      kafka: { topic: "shop.orders.created", serverName: "orders-kafka", consumerGroup: "fulfilment", outputTopic: "shop.orders.confirmed", outputKey: "order-confirmation" },
      response: { payload: { orderId: "O-1001", status: "confirmed" }, headers: { "x-origin": ["fulfilment"] } },
    });
    expect(m["shop-fulfilment-quoteshipping"]).toEqual({ id: "shop-fulfilment-quoteshipping", rabbitmq: { queue: "shipping.quote.requests", serverName: "shipping-rabbit" }, response: { payload: { carrier: "DHL", price: 4.9, currency: "EUR" } } });
    expect(m["shop-fulfilment-onshipmentdispatched"]).toEqual({ id: "shop-fulfilment-onshipmentdispatched", rabbitmq: { exchange: "shipments", routingKey: "shipment.dispatched", serverName: "shipping-rabbit" } });
    // The reply comes through components/replies ($ref), its channel has address: null.
    expect(m["shop-fulfilment-checkstock"]).toEqual({ id: "shop-fulfilment-checkstock", nats: { subject: "stock.check.*", serverName: "stock-nats", queueGroup: "stock-workers" }, response: { payload: { sku: "BOOK-1", available: 12 } } });
    expect(Object.keys(m)).toHaveLength(4);
    expect(warnings).toEqual([]);
    for (const x of mocks) expect(MockInput.safeParse(x.mock).success, x.mock.id).toBe(true);
  });

  it("the same document generates the same ids (a second run updates)", async () => {
    const a = await asyncapiToMocks(fixture("shop-asyncapi-3.0.yaml"));
    const b = await asyncapiToMocks(fixture("shop-asyncapi-3.0.yaml"));
    expect(b.mocks.map((m) => m.mock.id)).toEqual(a.mocks.map((m) => m.mock.id));
  });

  it("a NATS reply channel with an address is the outputSubject; an Avro payload is not sampled (a warning)", async () => {
    const doc = {
      asyncapi: "3.0.0",
      info: { title: "N", version: "1" },
      servers: { n: { host: "localhost:4222", protocol: "nats" } },
      channels: { in: { address: "jobs.new" }, out: { address: "jobs.{id}.done", parameters: { id: { enum: ["42"] } }, messages: { done: { payload: { schemaFormat: "application/vnd.apache.avro;version=1.9.0", schema: { type: "record", name: "Done", fields: [] } } } } } },
      operations: { takeJob: { action: "receive", channel: { $ref: "#/channels/in" }, reply: { channel: { $ref: "#/channels/out" } } }, announce: { action: "send", channel: { $ref: "#/channels/out" } } },
    };
    const { mocks, warnings } = await asyncapiToMocks(doc);
    expect(mocks.map((x) => x.mock)).toEqual([{ id: "n-takejob", nats: { subject: "jobs.new", serverName: "n", outputSubject: "jobs.42.done" } }]);
    expect(warnings.map((w) => w.message)).toEqual(["the payload's schema format application/vnd.apache.avro;version=1.9.0 is not sampled: the reply has no payload (give the message an example)", 'parameter {id} is "42" in the address (this broker has no wildcard for it)']);
  });
});

describe("documents the generator cannot read", () => {
  const base = { info: { title: "T", version: "1" }, channels: {} };
  it.each([
    ["not an object", "just text", undefined, /not an AsyncAPI document/],
    ["no version", base, "/asyncapi", /no `asyncapi` version/],
    ["a number as version", { ...base, asyncapi: 2.6 }, "/asyncapi", /must be a string/],
    ["an unsupported version", { ...base, asyncapi: "1.2.0" }, "/asyncapi", /AsyncAPI 1\.2\.0 is not supported/],
    ["no channels", { asyncapi: "2.6.0", info: base.info }, "/channels", /no channels/],
    ["nothing the application receives (2.x)", { ...base, asyncapi: "2.6.0", channels: { a: { subscribe: { message: {} } } } }, "/channels", /no publish operation/],
    ["nothing the application receives (3.x)", { ...base, asyncapi: "3.0.0", operations: { s: { action: "send", channel: { $ref: "#/channels/a" } } }, channels: { a: { address: "a" } } }, "/operations", /no operation with action: receive/],
    ["a $ref to a file", { ...base, asyncapi: "2.6.0", channels: { a: { publish: { message: { $ref: "./message.yaml" } } } } }, "/channels/a/publish/message", /points outside it/],
    ["a $ref that names nothing", { ...base, asyncapi: "3.0.0", channels: { a: { address: "a" } }, operations: { r: { action: "receive", channel: { $ref: "#/channels/b" } } } }, "/operations/r/channel", /names nothing/],
  ])("%s: a GeneratorInputError saying where", async (_name, doc, where, message) => {
    const err = await refusal(doc);
    expect(err.message).toMatch(message);
    expect(err.location.pointer).toBe(where);
  });

  it("a channel on no broker the runner serves is skipped with a warning naming its protocol", async () => {
    const { mocks, warnings } = await asyncapiToMocks({ asyncapi: "2.6.0", info: { title: "T", version: "1" }, servers: { m: { url: "mqtt://x", protocol: "mqtt" } }, channels: { a: { publish: { message: {} } } } });
    expect(mocks).toEqual([]);
    expect(warnings).toEqual([{ pointer: "/channels/a/publish", message: "not generated: its protocol (mqtt) is not Kafka, AMQP or NATS" }]);
  });
});
