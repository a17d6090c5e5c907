// RabbitMQ mocks served by the protocol runner against the real broker on
// 127.0.0.1:5672 with a real amqplib client: protocol servers created through
// the service (which NOTIFYs the running runner), templated replies to an
// output queue, condition choice on body and headers, RPC replies through
// direct reply-to, unmatched and invalid messages captured (and dead-lettered),
// the request log, and a broker that cannot be reached (then can, through a
// TCP proxy the test controls). Queue names are unique per run.
import { randomUUID } from "node:crypto";
import { connect, type Channel, type ChannelModel, type ConsumeMessage, type Message } from "amqplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { CreateProtocolServerInput } from "@/server/contracts/protocol-servers";
import { db } from "@/server/db/client";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { stubRecorder } from "@/server/serving/recorder";
import { deleteMock } from "@/server/services/mock-management";
import { saveMock } from "@/server/services/mocks";
import { resolveNamespace, type NamespaceScope } from "@/server/services/namespace-access";
import { createProtocolServer, getProtocolServer } from "@/server/services/protocol-servers";
import { actorFor, makeNamespace, makeUser } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { startRunner, type Runner } from "../reconciler";
import { freePort, tcpProxy, until } from "../testing";
import { REASON_HEADER } from "./exchange";
import { rabbitmqModule } from "./rabbitmq-module";

useTestDatabase();

const BROKER = "amqp://guest:guest@127.0.0.1:5672";
const run = randomUUID().slice(0, 8);
const q = (name: string) => `pm-test-${run}-${name}`;

let runner: Runner;
let actor: ReturnType<typeof actorFor>;
let scope: NamespaceScope;
let client: ChannelModel;
let ch: Channel;
const queues = new Set<string>();
const exchanges = new Set<string>();
const serverNames: string[] = [];

beforeAll(async () => {
  const { user } = await makeUser();
  await makeNamespace("amqp", { [user.id]: "owner" });
  actor = actorFor(user);
  scope = await resolveNamespace(actor, "amqp");
  runner = await startRunner([rabbitmqModule({ backoff: { firstMs: 50, maxMs: 400 } })]);
  client = await connect(BROKER);
  client.on("error", () => {});
  ch = await client.createChannel();
});

afterAll(async () => {
  await runner?.stop();
  await stubRecorder().drain();
  for (const name of queues) await ch.deleteQueue(name).catch(() => {});
  for (const name of exchanges) await ch.deleteExchange(name).catch(() => {});
  await client?.close().catch(() => {});
  await stopListening();
  invalidateAll();
});

/** Creates a rabbitmq protocol server and waits for the runner's state on it. */
async function server(name: string, url = "amqp://127.0.0.1:5672", state: "listening" | "error" = "listening") {
  serverNames.push(name);
  const created = await createProtocolServer(scope, CreateProtocolServerInput.parse({ name, protocol: "rabbitmq", url, credentials: { username: "guest", password: "guest" } }));
  await until(async () => (await getProtocolServer(scope, created.id)).state === state, `${name} ${state}`);
  return created;
}

const save = async (input: unknown) => (await saveMock(actor, scope, MockInput.parse(input))).mock;

/** A queue of the test (deleted afterwards), declared like a service under test would. */
async function queue(name: string, options: Parameters<Channel["assertQueue"]>[1] = {}) {
  queues.add(name);
  await ch.assertQueue(name, { durable: false, ...options });
  return name;
}

/** Runs `work` on a throwaway channel: a failed passive declare or get closes the channel it ran on. */
async function throwaway<T>(work: (c: Channel) => Promise<T>): Promise<T> {
  const c = await client.createChannel();
  c.on("error", () => {});
  try {
    return await work(c);
  } finally {
    await c.close().catch(() => {});
  }
}

/** The consumers of a queue (0 while it does not exist). */
const consumers = (name: string) => throwaway((c) => c.checkQueue(name)).then((r) => r.consumerCount, () => 0);

/** Waits until the runner consumes the queue. */
const consumed = (name: string) => until(async () => (await consumers(name)) > 0, `a consumer on ${name}`);

/** The next message on a queue (polled with basic.get, so no consumer is left behind). */
const next = (name: string): Promise<Message> => until(() => throwaway((c) => c.get(name, { noAck: true })).then((m) => m || undefined), `a message on ${name}`);

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describe("RabbitMQ mocks", () => {
  it("a message on the mock's queue gets the templated reply on its output queue, with the output properties; the request log keeps it", async () => {
    await server("orders");
    const input = await queue(q("orders-in"));
    const output = q("orders-out");
    queues.add(output);
    const mock = await save({
      rabbitmq: { serverName: "orders", queue: input, outputQueue: output, outputProps: { type: "order.accepted", appId: "polymock", messageId: "reply-1" } },
      response: { payload: { accepted: "$.req.orderId", items: "$.req.items.length" }, headers: { "x-source": ["mock"] } },
    });
    await consumed(input);
    ch.sendToQueue(input, json({ orderId: "A-17", items: [1, 2] }), { contentType: "application/json", correlationId: "corr-9", headers: { tenant: "t1" } });
    const reply = await next(output);
    expect(JSON.parse(reply.content.toString())).toEqual({ accepted: "A-17", items: 2 });
    expect(reply.properties).toMatchObject({ contentType: "application/json", correlationId: "corr-9", type: "order.accepted", appId: "polymock", messageId: "reply-1", deliveryMode: 2, headers: { "x-source": "mock" } });

    await stubRecorder().drain();
    const log = await db().requestLog.findFirst({ where: { mockId: mock.id } });
    expect(log).toMatchObject({ method: "MESSAGE", body: { orderId: "A-17", items: [1, 2] } });
    expect(log?.url).toContain(input);
    // Acked after the confirm: nothing left on the input queue.
    expect((await ch.checkQueue(input)).messageCount).toBe(0);
  });

  it("conditions choose among mocks of one queue: on the JSON body and on the AMQP headers", async () => {
    await server("pricing");
    const input = await queue(q("price-in"));
    const output = q("price-out");
    queues.add(output);
    await save({ rabbitmq: { serverName: "pricing", queue: input, outputQueue: output, conditions: [{ path: "$.sku", assertAction: "equals", value: "gold" }] }, response: { payload: "gold price" } });
    await save({ rabbitmq: { serverName: "pricing", queue: input, outputQueue: output, headers: [{ path: "X-Region", assertAction: "equals", value: "eu" }] }, response: { payload: "eu price for $.req.sku" } });
    await save({ priority: -1, rabbitmq: { serverName: "pricing", queue: input, outputQueue: output }, response: { payload: "list price" } });
    await consumed(input);

    ch.sendToQueue(input, json({ sku: "gold" }));
    expect((await next(output)).content.toString()).toBe("gold price");
    ch.sendToQueue(input, json({ sku: "tin" }), { headers: { "X-Region": "eu" } });
    const eu = await next(output);
    expect(eu.content.toString()).toBe("eu price for tin");
    expect(eu.properties.contentType).toBe("text/plain; charset=utf-8");
    ch.sendToQueue(input, json({ sku: "tin" }), { headers: { "X-Region": "us" } });
    expect((await next(output)).content.toString()).toBe("list price");
  });

  it("RPC: without an output the reply goes to the request's replyTo with its correlationId (amqplib direct reply-to)", async () => {
    await server("rpc");
    const input = await queue(q("rpc"));
    await save({ rabbitmq: { serverName: "rpc", queue: input }, response: { payload: { sum: "{{add $.req.a $.req.b}}" } } });
    await consumed(input);

    const rpc = await client.createChannel();
    const replies: ConsumeMessage[] = [];
    await rpc.consume("amq.rabbitmq.reply-to", (m) => m && replies.push(m), { noAck: true });
    rpc.sendToQueue(input, json({ a: 2, b: 3 }), { replyTo: "amq.rabbitmq.reply-to", correlationId: "call-1", contentType: "application/json" });
    const reply = await until(async () => replies[0], "the RPC reply");
    expect(reply.properties.correlationId).toBe("call-1");
    expect(reply.properties.contentType).toBe("application/json");
    expect(reply.content.toString()).toMatch(/"sum":/);
    await rpc.close();
  });

  it("a mock naming only an exchange and routing key (and no serverName) is consumed from the runner's own queue bound to it; removing the mock stops the consumer", async () => {
    await server("events");
    const exchange = q("events");
    exchanges.add(exchange);
    const output = await queue(q("events-out"));
    const ownQueue = `polymock.amqp.events.${exchange}.order.*`;
    // Without serverName every rabbitmq server of the namespace consumes it, each from its own queue.
    for (const name of serverNames) queues.add(`polymock.amqp.${name}.${exchange}.order.*`);
    const mock = await save({ rabbitmq: { exchange, routingKey: "order.*", outputQueue: output }, response: { payload: "event $.req.id" } });
    await consumed(ownQueue);
    // The runner declared the missing exchange (topic), so the wildcard binding routes.
    ch.publish(exchange, "order.created", json({ id: "e1" }));
    expect((await next(output)).content.toString()).toBe("event e1");

    await deleteMock(actor, scope, mock.id);
    await until(async () => (await consumers(ownQueue)) === 0, "the consumer cancelled");
  });

  it("an unmatched message is an undefined request of protocol rabbitmq with the reason, and is dead-lettered by a queue that has a DLX", async () => {
    await server("strict");
    const dlx = q("dlx");
    exchanges.add(dlx);
    await ch.assertExchange(dlx, "fanout", { durable: false });
    const dead = await queue(q("dead"));
    await ch.bindQueue(dead, dlx, "");
    const input = await queue(q("strict-in"), { deadLetterExchange: dlx });
    await save({ rabbitmq: { serverName: "strict", queue: input, outputQueue: q("strict-out"), conditions: [{ path: "$.kind", assertAction: "equals", value: "known" }] }, response: { payload: "ok" } });
    queues.add(q("strict-out"));
    await consumed(input);

    ch.sendToQueue(input, json({ kind: "stranger" }), { headers: { trace: "t-1" } });
    const deadLettered = await next(dead);
    expect(JSON.parse(deadLettered.content.toString())).toEqual({ kind: "stranger" });
    await stubRecorder().drain();
    const captured = await db().undefinedRequest.findMany({ where: { namespaceId: scope.id, protocol: "rabbitmq" } });
    const mine = captured.find((c) => c.path.includes(input));
    expect(mine).toMatchObject({ method: "MESSAGE", body: { kind: "stranger" } });
    expect((mine?.headers as Record<string, string[]>).trace).toEqual(["t-1"]);
    expect((mine?.headers as Record<string, string[]>)[REASON_HEADER][0]).toMatch(/nearest mock/);
  });

  it("bad JSON for a JSON condition is an undefined request with the reason; the consumer goes on with the next message", async () => {
    await server("parser");
    const input = await queue(q("parse-in"));
    const output = q("parse-out");
    queues.add(output);
    await save({ rabbitmq: { serverName: "parser", queue: input, outputQueue: output, conditions: [{ path: "$.id", assertAction: "notEmpty" }] }, response: { payload: "id $.req.id" } });
    await consumed(input);

    ch.sendToQueue(input, Buffer.from("{not json"), { contentType: "application/json" });
    ch.sendToQueue(input, json({ id: 7 }), { contentType: "application/json" });
    expect((await next(output)).content.toString()).toBe("id 7");
    await stubRecorder().drain();
    const captured = await db().undefinedRequest.findMany({ where: { namespaceId: scope.id, protocol: "rabbitmq" } });
    const mine = captured.find((c) => c.path.includes(input));
    expect(mine?.body).toBe("{not json");
    expect((mine?.headers as Record<string, string[]>)[REASON_HEADER][0]).toMatch(/not valid JSON/);
  });

  it("a message over the size limit is an undefined request with the reason (body not kept); the next one is served", async () => {
    await server("sized");
    const input = await queue(q("sized-in"));
    const output = await queue(q("sized-out"));
    await save({ rabbitmq: { serverName: "sized", queue: input, outputQueue: output }, response: { payload: "small enough" } });
    await consumed(input);
    process.env.RABBITMQ_MAX_BODY_BYTES = "64";
    try {
      ch.sendToQueue(input, Buffer.alloc(100, "x"));
      ch.sendToQueue(input, Buffer.from("tiny"));
      expect((await next(output)).content.toString()).toBe("small enough");
    } finally {
      delete process.env.RABBITMQ_MAX_BODY_BYTES;
    }
    await stubRecorder().drain();
    const mine = (await db().undefinedRequest.findMany({ where: { namespaceId: scope.id, protocol: "rabbitmq" } })).find((c) => c.path.includes(input));
    expect((mine?.headers as Record<string, string[]>)[REASON_HEADER][0]).toMatch(/100 bytes, over the limit of 64/);
  });

  it("outputURL publishes the reply through that broker (confirmed there before the request is acked)", async () => {
    await server("relay");
    const input = await queue(q("relay-in"));
    const output = await queue(q("relay-out"));
    await save({ rabbitmq: { serverName: "relay", queue: input, outputURL: BROKER, outputQueue: output }, response: { payload: { relayed: "$.req.v" } } });
    await consumed(input);
    ch.sendToQueue(input, json({ v: "r1" }));
    expect(JSON.parse((await next(output)).content.toString())).toEqual({ relayed: "r1" });
    await until(async () => (await ch.checkQueue(input)).messageCount === 0, "the request acked");
  });

  it("a broker that cannot be reached is the server's error state with the reason; it connects once the broker is there", async () => {
    const port = await freePort();
    const created = await server("later", `amqp://127.0.0.1:${port}`, "error");
    expect((await getProtocolServer(scope, created.id)).stateReason).toMatch(/connection refused/);
    const input = await queue(q("later-in"));
    const output = q("later-out");
    queues.add(output);
    await save({ rabbitmq: { serverName: "later", queue: input, outputQueue: output }, response: { payload: "late but there" } });
    // A message waiting before the runner can reach the broker is served once it can.
    ch.sendToQueue(input, Buffer.from("hello"));

    const proxy = await tcpProxy(port, 5672);
    try {
      await until(async () => (await getProtocolServer(scope, created.id)).state === "listening", "later listening");
      expect((await next(output)).content.toString()).toBe("late but there");
    } finally {
      await proxy.close();
    }
  });

  it("the connection cut mid-stream (TCP proxy): afterwards every request got exactly one reply", async () => {
    const port = await freePort();
    const proxy = await tcpProxy(port, 5672);
    try {
      const created = await server("flaky", `amqp://127.0.0.1:${port}`);
      const input = await queue(q("flaky-in"), { durable: true });
      const output = await queue(q("flaky-out"), { durable: true });
      await save({ rabbitmq: { serverName: "flaky", queue: input, outputQueue: output }, response: { payload: { reply: "$.req.n" } } });
      await consumed(input);

      const replies = new Map<string, number>();
      const reader = await client.createChannel();
      await reader.consume(output, (m) => m && replies.set(JSON.parse(m.content.toString()).reply, (replies.get(JSON.parse(m.content.toString()).reply) ?? 0) + 1), { noAck: true });
      const total = 300;
      let cut = false;
      for (let n = 0; n < total; n++) {
        ch.sendToQueue(input, json({ n: String(n) }), { messageId: `m-${n}`, persistent: true });
        if (!cut && n === 100) {
          await until(async () => replies.size > 20, "replies before the cut");
          proxy.cut();
          cut = true;
        }
      }
      await until(async () => replies.size === total, `${total} distinct replies`, 30_000);
      expect((await getProtocolServer(scope, created.id)).state).toBe("listening");
      // The runner did come back through the proxy after the cut.
      expect(proxy.connections()).toBeGreaterThanOrEqual(2);
      // Settled: nothing further arrives, and nothing arrived twice.
      await until(async () => (await ch.checkQueue(input)).messageCount === 0, "the input queue drained");
      await reader.close();
      const doubled = [...replies].filter(([, count]) => count !== 1);
      expect(doubled).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it("wrong credentials are an error state naming ACCESS_REFUSED, not a crash", async () => {
    const created = await createProtocolServer(scope, CreateProtocolServerInput.parse({ name: "denied", protocol: "rabbitmq", url: "amqp://127.0.0.1:5672", credentials: { username: "guest", password: "wrong" } }));
    await until(async () => (await getProtocolServer(scope, created.id)).state === "error", "denied in error");
    expect((await getProtocolServer(scope, created.id)).stateReason).toMatch(/ACCESS_REFUSED/);
  });
});
