// The AsyncAPI generator and the specification builder through their route
// handlers, against a real database and real brokers: the shop fixture's
// mocks, generated, answer over the real RabbitMQ (amqplib RPC through
// direct reply-to) and the real nats-server (request/reply), served by the
// runner's rabbitmq and nats modules, and the 3.0 fixture's Kafka mock
// answers a kafkajs record on its output topic (kcat's librdkafka mock
// cluster, through the runner's kafka module); a second run updates nothing. The
// builder exports a namespace's mocks by folder, tags and ids, records each
// export in the audit log, and its documents — posted to the AsyncAPI and
// OpenAPI generators in fresh namespaces — give back the same mocks.
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import { connect as amqpConnect, type ChannelModel, type ConsumeMessage } from "amqplib";
import { connect as natsConnect, JSONCodec, type NatsConnection } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as asyncapiRoute from "@/app/api/v1/generators/asyncapi/route";
import * as asyncapiPreviewRoute from "@/app/api/v1/generators/asyncapi/preview/route";
import * as openapiPreviewRoute from "@/app/api/v1/generators/openapi/preview/route";
import * as specRoute from "@/app/api/v1/generators/spec/route";
import { MockInput, protocolOf } from "@/server/contracts/mock";
import { CreateProtocolServerInput } from "@/server/contracts/protocol-servers";
import { db } from "@/server/db/client";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { stubRecorder } from "@/server/serving/recorder";
import { createFolder } from "@/server/services/folders";
import { saveMock } from "@/server/services/mocks";
import { resolveNamespace, type NamespaceScope } from "@/server/services/namespace-access";
import { createProtocolServer, getProtocolServer } from "@/server/services/protocol-servers";
import { actorFor, call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { Kafka, logLevel } from "kafkajs";
import { kafkaModule } from "@/protocol-runner/kafka/kafka-module";
import { startKafkaMockCluster, type KafkaMockCluster } from "@/protocol-runner/kafka/mock-cluster";
import { natsModule } from "@/protocol-runner/nats/nats-module";
import { rabbitmqModule } from "@/protocol-runner/rabbitmq/rabbitmq-module";
import { startRunner, type Runner } from "@/protocol-runner/reconciler";
import { until } from "@/protocol-runner/testing";

useTestDatabase();

const NS = "asyncgen";
const EXPORT_NS = "specsrc";
const run = randomUUID().slice(0, 8);
const QUEUE = `pm-test-${run}-quotes`;
const SUBJECT = `pm.${run}.stock.check`;
// The fixture, with broker names of this run so parallel runs never share a queue or subject.
const SHOP = readFileSync(path.join(__dirname, "../generators/__fixtures__/shop-asyncapi-2.6.yaml"), "utf8").replaceAll("shipping.quote.requests", QUEUE).replaceAll("stock.check.{sku}", `${SUBJECT}.{sku}`);
const jc = JSONCodec();

let owner: Awaited<ReturnType<typeof makeUser>>["user"];
let cookie: string;
let strangerCookie: string;
let runner: Runner;
let amqp: ChannelModel;
let nc: NatsConnection;

beforeAll(async () => {
  owner = (await makeUser({ namespaces: { [NS]: "owner", [EXPORT_NS]: "owner", "rt-async": "owner", "rt-open": "owner" } })).user;
  cookie = await sessionCookie(owner.id);
  strangerCookie = await sessionCookie((await makeUser()).user.id);
});

afterAll(async () => {
  await runner?.stop();
  await stubRecorder().drain();
  if (amqp) {
    const ch = await amqp.createChannel();
    await ch.deleteQueue(QUEUE).catch(() => {});
    await amqp.close().catch(() => {});
  }
  await nc?.close();
  await stopListening();
  invalidateAll();
});

const post = (route: { POST: any }, url: string, body: unknown, c = cookie) => call(route.POST, url, { method: "POST", cookie: c, body });

describe("POST /api/v1/generators/asyncapi", () => {
  it("preview lists the broker mocks as new, with the skipped MQTT channel as a warning, and saves nothing", async () => {
    const res = await post(asyncapiPreviewRoute, `/api/v1/generators/asyncapi/preview?namespace=${NS}`, { document: SHOP });
    expect(res.status, res.text).toBe(200);
    expect(res.body.mocks.map((m: { protocol: string; status: string }) => `${m.protocol} ${m.status}`)).toEqual(["kafka new", "rabbitmq new", "rabbitmq new", "nats new"]);
    expect(res.body.warnings).toEqual([{ pointer: "/channels/sensors~1temperature/publish", message: "not generated: its servers (telemetry) are not Kafka, AMQP or NATS servers" }]);
    expect(await db().mock.count({ where: { namespace: { name: NS } } })).toBe(0);
  });

  it("the generated RabbitMQ and NATS mocks answer over the real brokers through the runner", async () => {
    const res = await post(asyncapiRoute, `/api/v1/generators/asyncapi?namespace=${NS}`, { document: SHOP, tags: ["shop"] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 4, updated: 0 });

    // The queue exists before the runner consumes it, as the service under test would have declared it.
    amqp = await amqpConnect("amqp://guest:guest@127.0.0.1:5672");
    amqp.on("error", () => {});
    const ch = await amqp.createChannel();
    await ch.assertQueue(QUEUE, { durable: false });

    const scope = await resolveNamespace(actorFor(owner), NS);
    runner = await startRunner([rabbitmqModule({ backoff: { firstMs: 50, maxMs: 400 } }), natsModule({ backoff: { firstMs: 50, maxMs: 400 } })]);
    // The document's server names are the protocol servers the mocks name.
    for (const input of [
      { name: "shipping-rabbit", protocol: "rabbitmq", url: "amqp://127.0.0.1:5672", credentials: { username: "guest", password: "guest" } },
      { name: "stock-nats", protocol: "nats", url: "nats://127.0.0.1:4222" },
    ]) {
      const created = await createProtocolServer(scope, CreateProtocolServerInput.parse(input));
      await until(async () => (await getProtocolServer(scope, created.id)).state === "listening", `${input.name} listening`);
    }

    // RabbitMQ RPC: the quote request's reply comes to replyTo with the document's example.
    await until(async () => (await ch.checkQueue(QUEUE)).consumerCount > 0, `a consumer on ${QUEUE}`);
    const replies: ConsumeMessage[] = [];
    await ch.consume("amq.rabbitmq.reply-to", (m) => m && replies.push(m), { noAck: true });
    ch.sendToQueue(QUEUE, Buffer.from(JSON.stringify({ weightKg: 2, country: "DE" })), { replyTo: "amq.rabbitmq.reply-to", correlationId: "quote-1", contentType: "application/json" });
    const reply = await until(async () => replies[0], "the quote reply");
    expect(reply.properties.correlationId).toBe("quote-1");
    expect(JSON.parse(reply.content.toString())).toEqual({ carrier: "DHL", price: 4.9, currency: "EUR" });

    // NATS request/reply on the subject with the {sku} parameter as a wildcard.
    nc = await natsConnect({ servers: "nats://127.0.0.1:4222" });
    const answer = await until(() => nc.request(`${SUBJECT}.BOOK-1`, jc.encode({ warehouse: "north" }), { timeout: 300 }), "the stock reply");
    expect(jc.decode(answer.data)).toEqual({ sku: "BOOK-1", available: 12 });

    await stubRecorder().drain();
    const logged = await db().requestLog.findMany({ where: { mockId: { in: ["shop-fulfilment-quoteshipping", "shop-fulfilment-checkstock"] } }, select: { mockId: true } });
    expect(new Set(logged.map((l) => l.mockId))).toEqual(new Set(["shop-fulfilment-quoteshipping", "shop-fulfilment-checkstock"]));
  });

  it("the 3.0 fixture's Kafka mock answers a kafkajs record on its output topic, with the key and header the document gives", async () => {
    const KAFKA_NS = "asyncgen-kafka";
    const kafkaOwner = (await makeUser({ namespaces: { [KAFKA_NS]: "owner" } })).user;
    const res = await post(asyncapiRoute, `/api/v1/generators/asyncapi?namespace=${KAFKA_NS}`, { document: readFileSync(path.join(__dirname, "../generators/__fixtures__/shop-asyncapi-3.0.yaml"), "utf8") }, await sessionCookie(kafkaOwner.id));
    expect(res.status, res.text).toBe(200);
    expect(res.body.mocks.filter((m: { protocol: string }) => m.protocol === "kafka")).toHaveLength(1);

    let cluster: KafkaMockCluster | undefined;
    let kafkaRunner: Runner | undefined;
    const client = () => new Kafka({ brokers: [cluster!.brokers], logLevel: logLevel.NOTHING });
    try {
      cluster = await startKafkaMockCluster();
      kafkaRunner = await startRunner([kafkaModule({ backoff: { firstMs: 50, maxMs: 400 }, fetchMaxWaitMs: 100 })]);
      const scope = await resolveNamespace(actorFor(kafkaOwner), KAFKA_NS);
      const server = await createProtocolServer(scope, CreateProtocolServerInput.parse({ name: "orders-kafka", protocol: "kafka", brokers: [cluster.brokers] }));
      await until(async () => (await getProtocolServer(scope, server.id)).state === "listening", "orders-kafka listening", 20_000);

      const replies: { key: string | undefined; value: unknown; origin: string | undefined }[] = [];
      const reader = client().consumer({ groupId: `reader-${randomUUID()}`, allowAutoTopicCreation: true, maxWaitTimeInMs: 100 });
      await reader.connect();
      await reader.subscribe({ topic: "shop.orders.confirmed", fromBeginning: true });
      await reader.run({ eachMessage: async ({ message }) => void replies.push({ key: message.key?.toString(), value: JSON.parse(message.value!.toString()), origin: message.headers?.["x-origin"]?.toString() }) });
      const producer = client().producer({ allowAutoTopicCreation: true });
      await producer.connect();
      // Sent again until the runner's consumer group has joined and reads the topic.
      const reply = await until(async () => {
        if (!replies.length) await producer.send({ topic: "shop.orders.created", messages: [{ value: JSON.stringify({ orderId: "O-7", items: 2 }) }] });
        return replies[0];
      }, "the order confirmation", 30_000);
      expect(reply).toEqual({ key: "order-confirmation", value: { orderId: "O-1001", status: "confirmed" }, origin: "fulfilment" });
      await producer.disconnect();
      await reader.disconnect();
    } finally {
      await kafkaRunner?.stop();
      await cluster?.stop();
    }
  });

  it("a second run of the same document changes nothing", async () => {
    const again = await post(asyncapiRoute, `/api/v1/generators/asyncapi?namespace=${NS}`, { document: SHOP, tags: ["shop"] });
    expect(again.body).toMatchObject({ created: 0, updated: 0, skipped: 4 });
  });

  it("a document it cannot read is a 400 saying where", async () => {
    const res = await post(asyncapiPreviewRoute, `/api/v1/generators/asyncapi/preview?namespace=${NS}`, { document: "asyncapi: 1.2.0\ninfo: {title: x, version: '1'}\nchannels: {}\n" });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ field: "document", pointer: "/asyncapi" });
  });
});

describe("POST /api/v1/generators/spec", () => {
  let scope: NamespaceScope;
  let folderId: string;
  const MESSAGING = [
    { id: "orders", kafka: { topic: "orders.created", serverName: "kafka-main", consumerGroup: "billing", outputTopic: "orders.billed" }, response: { payload: { billed: true } } },
    { id: "quote", rabbitmq: { queue: "quote.requests", serverName: "rabbit" }, response: { payload: { price: 4.9 } } },
    { id: "shipments", rabbitmq: { exchange: "shipments", routingKey: "shipment.*", outputQueue: "receipts" }, response: { payload: "received $.req.id" } },
    { id: "stock", nats: { subject: "stock.check.*", queueGroup: "workers" }, response: { payload: { available: 3 } } },
  ];
  const HTTP = [
    { id: "user", http: { route: "/users/:id", httpMethod: "GET" }, response: { payload: { id: "$.pathParam.id", name: "Ada" } } },
    { id: "user-404", priority: 1, http: { route: "/users/:id", httpMethod: "GET", header: [{ path: "X-Case", assertAction: "equals", value: "missing" }] }, response: { statusCode: 404, payload: { error: "no such user" } } },
    { id: "create", http: { route: "/users", httpMethod: "POST" }, response: { statusCode: 201, payload: { created: true } } },
  ];

  beforeAll(async () => {
    scope = await resolveNamespace(actorFor(owner), EXPORT_NS);
    const top = await createFolder(scope, { name: "api" } as never);
    const sub = await createFolder(scope, { name: "v2", parentId: top.id } as never);
    folderId = top.id;
    const save = (input: object) => saveMock(actorFor(owner), scope, MockInput.parse(input));
    for (const m of MESSAGING) await save({ ...m, tags: ["async", "shop"] });
    await save({ id: "mailer", smtp: {}, tags: ["async", "shop"] });
    await save({ id: "chat", socket: { serverName: "ws" }, tags: ["async"] });
    for (const m of HTTP) await save({ ...m, tags: ["web"], folderId: m.id === "create" ? sub.id : top.id });
  });

  const spec = (body: object, c = cookie) => post(specRoute, `/api/v1/generators/spec?namespace=${EXPORT_NS}`, body, c);
  const essence = (m: any) => ({ [protocolOf(m)]: m[protocolOf(m)], payload: m.response?.payload });

  it("AsyncAPI: the tagged mocks, the SMTP one a warning naming its protocol; recorded in the audit log; the generator gives the same mocks back", async () => {
    const res = await spec({ format: "asyncapi", tags: ["async", "shop"], title: "Shop events", version: "3.1.0" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.stats).toEqual({ considered: 5, exported: 4 });
    expect(res.body.warnings).toEqual([{ mockId: "mailer", route: "smtp (no route)", reason: "a smtp mock cannot be expressed in AsyncAPI (Kafka, RabbitMQ and NATS mocks only)" }]);
    expect(res.body.spec).toMatchObject({ asyncapi: "2.6.0", info: { title: "Shop events", version: "3.1.0" } });
    for (const ch of Object.values<any>(res.body.spec.channels)) expect(["kafka", "rabbitmq", "nats"]).toContain(ch["x-service-protocol"]);

    const audit = await db().auditEvent.findFirst({ where: { action: "generator.spec_export", namespace: EXPORT_NS }, orderBy: { at: "desc" } });
    expect(audit).toMatchObject({ actorId: owner.id, outcome: "success", details: { format: "asyncapi", considered: 5, exported: 4, warnings: 1 } });

    const back = await post(asyncapiPreviewRoute, "/api/v1/generators/asyncapi/preview?namespace=rt-async", { document: res.body.spec });
    expect(back.status, back.text).toBe(200);
    expect(back.body.mocks.every((m: { status: string }) => m.status === "new")).toBe(true);
    const byOrigin = (list: any[]) => list.map(essence).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(byOrigin(back.body.mocks.map((m: any) => m.mock))).toEqual(byOrigin(MESSAGING.map((m) => MockInput.parse(m))));
  });

  it("OpenAPI: a folder with its subfolders; a valid document the OpenAPI generator reads back to the same method, path, status and payload", async () => {
    const res = await spec({ format: "openapi", folderId, serverUrl: "http://localhost:5770/stubs/specsrc" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.stats).toEqual({ considered: 3, exported: 3 });
    expect(res.body.warnings).toEqual([]);
    await SwaggerParser.validate(structuredClone(res.body.spec));
    expect(res.body.spec.servers).toEqual([{ url: "http://localhost:5770/stubs/specsrc" }]);

    const back = await post(openapiPreviewRoute, "/api/v1/generators/openapi/preview?namespace=rt-open", { document: res.body.spec });
    expect(back.status, back.text).toBe(200);
    const shape = (m: any) => `${m.http.httpMethod} ${m.http.route} ${m.response?.statusCode ?? 200} ${JSON.stringify(m.response?.payload)}`;
    expect(back.body.mocks.map((m: any) => shape(m.mock)).sort()).toEqual(HTTP.map(shape).sort());
  });

  it("mockIds: only those; an HTTP mock in an AsyncAPI export is a warning; a folder of no namespace is a 404, a stranger's namespace too", async () => {
    const res = await spec({ format: "asyncapi", mockIds: ["stock", "user"] });
    expect(res.body.stats).toEqual({ considered: 2, exported: 1 });
    expect(res.body.warnings).toEqual([{ mockId: "user", route: "GET /users/:id", reason: "a http mock cannot be expressed in AsyncAPI (Kafka, RabbitMQ and NATS mocks only)" }]);
    expect((await spec({ format: "openapi", folderId: randomUUID() })).status).toBe(404);
    expect((await spec({ format: "openapi" }, strangerCookie)).status).toBe(404);
    expect((await spec({ format: "yaml" })).status).toBe(400);
  });
});
