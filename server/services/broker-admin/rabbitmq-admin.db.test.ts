// /api/v1/api-tester/rabbitmq/* against the machine's real RabbitMQ: every row's
// success through a protocol server and inline URLs, the management API path
// and the AMQP-only fallback (management URL on a closed port), bad input,
// an unreachable broker, a refused (SSRF) host, and a namespace the caller
// cannot read.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import * as publishRoute from "@/app/api/v1/api-tester/rabbitmq/publish/route";
import * as readRoute from "@/app/api/v1/api-tester/rabbitmq/read/route";
import * as metadataRoute from "@/app/api/v1/api-tester/rabbitmq/metadata/route";
import * as queuesRoute from "@/app/api/v1/api-tester/rabbitmq/queues/route";
import * as createQueueRoute from "@/app/api/v1/api-tester/rabbitmq/queues/create/route";
import * as deleteQueueRoute from "@/app/api/v1/api-tester/rabbitmq/queues/delete/route";
import * as purgeQueueRoute from "@/app/api/v1/api-tester/rabbitmq/queues/purge/route";
import * as exchangesRoute from "@/app/api/v1/api-tester/rabbitmq/exchanges/route";
import * as createExchangeRoute from "@/app/api/v1/api-tester/rabbitmq/exchanges/create/route";
import * as deleteExchangeRoute from "@/app/api/v1/api-tester/rabbitmq/exchanges/delete/route";
import { call, makeUser, makeToken, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { createProtocolServer } from "../protocol-servers";
import { resolveNamespace } from "../namespace-access";
import { actorFor } from "@/server/testing/fixtures";

useTestDatabase();

const NS = "brokers-rmq";
const AMQP = "amqp://127.0.0.1:5672";
/** Nothing listens on the discard port: a management API that is not there. */
const CLOSED = "http://127.0.0.1:9";
const run = randomUUID().slice(0, 8);
const q = (name: string) => `pm-test-${run}-${name}`;

let owner: string;
let viewer: string;
let outsider: string;
let readToken: string;

type Handler = typeof publishRoute.POST;
const post = (handler: Handler, path: string, body: unknown, cookie = owner) => call(handler, `/api/v1/api-tester/rabbitmq/${path}`, { method: "POST", cookie, body: { namespace: NS, ...(body as object) } });

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  const v = await makeUser({ namespaces: { [NS]: "viewer" } });
  const x = await makeUser();
  owner = await sessionCookie(o.user.id);
  viewer = await sessionCookie(v.user.id);
  outsider = await sessionCookie(x.user.id);
  readToken = await makeToken(o.user, { permissions: ["read"], namespace: NS });
  const scope = await resolveNamespace(actorFor(o.user), NS);
  await createProtocolServer(scope, { name: "rmq", protocol: "rabbitmq", url: AMQP, credentials: { username: "guest", password: "guest" } });
  await createProtocolServer(scope, { name: "rmq-amqp-only", protocol: "rabbitmq", url: AMQP, options: { managementUrl: CLOSED } });
  await createProtocolServer(scope, { name: "tcp-one", protocol: "tcp", port: 1 });
});

describe("RabbitMQ admin through a protocol server", () => {
  it("creates a queue, publishes, peeks (requeued), reads with ack, purges and deletes it", async () => {
    const queue = q("orders");
    const created = await post(createQueueRoute.POST, "queues/create", { serverName: "rmq", queue, durable: false, autoDelete: false, arguments: { "x-max-length": 100 } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ ok: true, queue, messages: 0, consumers: 0 });

    for (const n of [1, 2, 3]) {
      const published = await post(publishRoute.POST, "publish", { serverName: "rmq", routingKey: queue, body: `{"n":${n}}`, headers: { "x-trace": `t${n}` }, properties: { contentType: "application/json", correlationId: `c${n}` } });
      expect(published.status, published.text).toBe(200);
      expect(published.body).toEqual({ ok: true, routed: true });
    }
    const unroutable = await post(publishRoute.POST, "publish", { serverName: "rmq", routingKey: q("nobody-listens"), body: "lost" });
    expect(unroutable.body).toEqual({ ok: true, routed: false });

    const peek = await post(readRoute.POST, "read", { serverName: "rmq", queue, count: 2 }, viewer);
    expect(peek.status, peek.text).toBe(200);
    expect(peek.body.count).toBe(2);
    expect(peek.body.acked).toBe(false);
    expect(peek.body.messages[0]).toMatchObject({ body: '{"n":1}', bodyEncoding: "utf8", exchange: "", routingKey: queue, redelivered: false, headers: { "x-trace": "t1" } });
    expect(peek.body.messages[0].properties).toMatchObject({ contentType: "application/json", correlationId: "c1" });
    expect(peek.body.messages[1].body).toBe('{"n":2}');

    // The peek put them back: the same messages again, now marked redelivered.
    const again = await post(readRoute.POST, "read", { serverName: "rmq", queue, count: 10 });
    expect(again.body.messages.map((m: { body: string }) => m.body)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}']);
    expect(again.body.messages[0].redelivered).toBe(true);

    // Reading with ack removes: a viewer may peek but not consume.
    expect((await post(readRoute.POST, "read", { serverName: "rmq", queue, ack: true }, viewer)).status).toBe(403);
    const consumed = await post(readRoute.POST, "read", { serverName: "rmq", queue, count: 1, ack: true });
    expect(consumed.body).toMatchObject({ count: 1, acked: true });
    const listed = await post(queuesRoute.POST, "queues", { serverName: "rmq-amqp-only", names: [queue] });
    expect(listed.body.queues[0]).toMatchObject({ name: queue, messagesReady: 2, consumers: 0 });

    const purged = await post(purgeQueueRoute.POST, "queues/purge", { serverName: "rmq", queue });
    expect(purged.body).toEqual({ ok: true, queue, messagesPurged: 2 });
    const empty = await post(readRoute.POST, "read", { serverName: "rmq", queue, count: 5 });
    expect(empty.body).toEqual({ messages: [], count: 0, acked: false });

    const deleted = await post(deleteQueueRoute.POST, "queues/delete", { serverName: "rmq", queue });
    expect(deleted.body).toEqual({ ok: true, queue, messagesDeleted: 0 });
    const gone = await post(deleteQueueRoute.POST, "queues/delete", { serverName: "rmq", queue });
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe("not_found");
    expect(gone.body.error).toContain(queue);
  });

  it("refuses a queue delete with ifEmpty while it holds messages (409), and a redeclare with other settings (409)", async () => {
    const queue = q("kept");
    await post(createQueueRoute.POST, "queues/create", { serverName: "rmq", queue, durable: false });
    await post(publishRoute.POST, "publish", { serverName: "rmq", routingKey: queue, body: "x" });
    const refused = await post(deleteQueueRoute.POST, "queues/delete", { serverName: "rmq", queue, ifEmpty: true });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/PRECONDITION_FAILED/);
    const clash = await post(createQueueRoute.POST, "queues/create", { serverName: "rmq", queue, durable: true });
    expect(clash.status).toBe(409);
    expect((await post(deleteQueueRoute.POST, "queues/delete", { serverName: "rmq", queue })).body.messagesDeleted).toBe(1);
  });

  it("creates, lists and deletes an exchange; a publish to it with no queue bound is unroutable, to a missing one 404", async () => {
    const exchange = q("events");
    const created = await post(createExchangeRoute.POST, "exchanges/create", { serverName: "rmq", exchange, type: "fanout", durable: false });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ ok: true, exchange });
    const listed = await post(exchangesRoute.POST, "exchanges", { serverName: "rmq" });
    expect(listed.status).toBe(200);
    expect(listed.body.source).toBe("management");
    expect(listed.body.exchanges).toContainEqual({ name: exchange, vhost: "/", type: "fanout", durable: false, autoDelete: false, internal: false });
    expect(listed.body.exchanges.some((e: { name: string }) => e.name === "amq.direct")).toBe(true);

    const kindClash = await post(createExchangeRoute.POST, "exchanges/create", { serverName: "rmq", exchange, type: "topic", durable: false });
    expect(kindClash.status).toBe(409);
    const published = await post(publishRoute.POST, "publish", { serverName: "rmq", exchange, routingKey: "any", body: "fanned" });
    expect(published.body.routed).toBe(false);

    const deleted = await post(deleteExchangeRoute.POST, "exchanges/delete", { serverName: "rmq", exchange });
    expect(deleted.body).toEqual({ ok: true, exchange });
    expect((await post(deleteExchangeRoute.POST, "exchanges/delete", { serverName: "rmq", exchange })).status).toBe(404);
    expect((await post(publishRoute.POST, "publish", { serverName: "rmq", exchange, body: "x" })).status).toBe(404);
  });

  it("lists queues with counts and metadata with totals through the management API", async () => {
    const queue = q("listed");
    await post(createQueueRoute.POST, "queues/create", { serverName: "rmq", queue, durable: false });
    const listed = await post(queuesRoute.POST, "queues", { serverName: "rmq" });
    expect(listed.status).toBe(200);
    expect(listed.body.source).toBe("management");
    const row = listed.body.queues.find((x: { name: string }) => x.name === queue);
    expect(row).toMatchObject({ name: queue, vhost: "/", durable: false, autoDelete: false, consumers: 0 });
    const named = await post(queuesRoute.POST, "queues", { serverName: "rmq", names: [queue, q("absent")] });
    expect(named.body.queues.map((x: { name: string }) => x.name)).toEqual([queue]);
    expect(named.body.missing).toEqual([q("absent")]);

    const meta = await post(metadataRoute.POST, "metadata", { serverName: "rmq" });
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({ source: "management", product: "RabbitMQ", vhost: "/", managementError: null });
    expect(meta.body.managementVersion).toMatch(/^\d+\.\d+/);
    expect(meta.body.totals.queues).toBeGreaterThanOrEqual(1);
    await post(deleteQueueRoute.POST, "queues/delete", { serverName: "rmq", queue });
  });
});

describe("without the management API (AMQP only)", () => {
  it("lists named queues and exchanges over AMQP, metadata from the server properties", async () => {
    const queue = q("amqp-only");
    await post(createQueueRoute.POST, "queues/create", { serverName: "rmq-amqp-only", queue, durable: false });
    await post(publishRoute.POST, "publish", { serverName: "rmq-amqp-only", routingKey: queue, body: "one" });
    const queues = await post(queuesRoute.POST, "queues", { serverName: "rmq-amqp-only", names: [queue, q("nope")] });
    expect(queues.status, queues.text).toBe(200);
    expect(queues.body).toEqual({
      source: "amqp",
      queues: [{ name: queue, vhost: "/", type: null, state: null, durable: null, autoDelete: null, messages: null, messagesReady: 1, messagesUnacknowledged: null, consumers: 0 }],
      count: 1,
      missing: [q("nope")],
    });
    const exchanges = await post(exchangesRoute.POST, "exchanges", { serverName: "rmq-amqp-only", names: ["amq.topic", q("nope")] });
    expect(exchanges.body).toMatchObject({ source: "amqp", count: 1, missing: [q("nope")] });
    const meta = await post(metadataRoute.POST, "metadata", { serverName: "rmq-amqp-only" });
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({ source: "amqp", product: "RabbitMQ", totals: null, managementVersion: null });
    expect(meta.body.managementError).toContain("127.0.0.1:9");
    await post(deleteQueueRoute.POST, "queues/delete", { serverName: "rmq-amqp-only", queue });
  });

  it("answers 409 naming the plugin when a list cannot be made without it", async () => {
    for (const [handler, path] of [[queuesRoute.POST, "queues"], [exchangesRoute.POST, "exchanges"]] as const) {
      const res = await post(handler, path, { serverName: "rmq-amqp-only" });
      expect(res.status).toBe(409);
      expect(res.body.code).toBe("management_api_unavailable");
      expect(res.body.error).toContain("rabbitmq_management");
      expect(res.body.details).toMatchObject({ managementUrl: CLOSED, needsManagement: ["queues", "exchanges"] });
    }
    // An inline managementUrl overrides the default one (the plugin on this machine).
    const inline = await post(queuesRoute.POST, "queues", { url: AMQP, managementUrl: CLOSED });
    expect(inline.status).toBe(409);
  });
});

describe("inline targets, errors", () => {
  it("works with an inline URL and credentials", async () => {
    const res = await post(metadataRoute.POST, "metadata", { url: "amqp://127.0.0.1:5672/", credentials: { username: "guest", password: "guest" } });
    expect(res.status).toBe(200);
    expect(res.body.vhost).toBe("/");
  });

  it("an unreachable broker is a 502 with the reason, for every row", async () => {
    const rows: [Handler, string, object][] = [
      [publishRoute.POST, "publish", { body: "x" }],
      [readRoute.POST, "read", { queue: "q" }],
      [metadataRoute.POST, "metadata", {}],
      [queuesRoute.POST, "queues", { names: ["q"] }],
      [createQueueRoute.POST, "queues/create", { queue: "q" }],
      [deleteQueueRoute.POST, "queues/delete", { queue: "q" }],
      [purgeQueueRoute.POST, "queues/purge", { queue: "q" }],
      [exchangesRoute.POST, "exchanges", { names: ["x"] }],
      [createExchangeRoute.POST, "exchanges/create", { exchange: "x" }],
      [deleteExchangeRoute.POST, "exchanges/delete", { exchange: "x" }],
    ];
    for (const [handler, path, body] of rows) {
      const res = await post(handler, path, { url: "amqp://127.0.0.1:9", managementUrl: CLOSED, timeoutMs: 2000, ...body });
      expect(res.status, `${path}: ${res.text}`).toBe(502);
      expect(res.body.code).toBe("external");
      expect(res.body.error).toMatch(/RabbitMQ at amqp:\/\/127\.0\.0\.1:9.*(ECONNREFUSED|no answer)/);
    }
  });

  it("wrong credentials are a 502 saying the broker refused them", async () => {
    const res = await post(metadataRoute.POST, "metadata", { url: AMQP, credentials: { username: "guest", password: "wrong" } });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatch(/ACCESS.REFUSED|403/);
  });

  it("refuses cloud-metadata hosts (SSRF policy) before connecting, also as managementUrl", async () => {
    const res = await post(metadataRoute.POST, "metadata", { url: "amqp://169.254.169.254:5672" });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("target_blocked");
    expect(res.body.details[0].field).toBe("url");
    const mgmt = await post(queuesRoute.POST, "queues", { url: AMQP, managementUrl: "http://169.254.169.254/" });
    expect(mgmt.status).toBe(400);
    expect(mgmt.body.details[0].field).toBe("managementUrl");
  });

  it("private hosts follow OUTBOUND_ALLOW_PRIVATE, like the mock proxy", async () => {
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    try {
      const res = await post(metadataRoute.POST, "metadata", { serverName: "rmq" });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain("OUTBOUND_ALLOW_PRIVATE=0");
    } finally {
      delete process.env.OUTBOUND_ALLOW_PRIVATE;
    }
  });

  it("bad input is a 400 naming the field", async () => {
    const cases: [Handler, string, object, string][] = [
      [metadataRoute.POST, "metadata", {}, "serverName"],
      [metadataRoute.POST, "metadata", { serverName: "rmq", url: AMQP }, "url"],
      [metadataRoute.POST, "metadata", { url: "http://127.0.0.1:5672" }, "url"],
      [metadataRoute.POST, "metadata", { serverName: "rmq", credentials: { username: "a" } }, "credentials"],
      [readRoute.POST, "read", { serverName: "rmq", queue: "q", count: 0 }, "count"],
      [readRoute.POST, "read", { serverName: "rmq" }, "queue"],
      [createExchangeRoute.POST, "exchanges/create", { serverName: "rmq", exchange: "x", type: "bogus" }, "type"],
      [publishRoute.POST, "publish", { serverName: "rmq", body: "x", properties: { priority: 999 } }, "properties.priority"],
      [publishRoute.POST, "publish", { serverName: "rmq", body: "x", extra: 1 }, ""],
      [queuesRoute.POST, "queues", { serverName: "tcp-one" }, "serverName"],
      [metadataRoute.POST, "metadata", { serverName: "rmq", timeoutMs: 10 }, "timeoutMs"],
    ];
    for (const [handler, path, body, field] of cases) {
      const res = await post(handler, path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}: ${res.text}`).toBe(400);
      if (field) expect(JSON.stringify(res.body.details)).toContain(`"field":"${field}"`);
    }
    const unknown = await post(metadataRoute.POST, "metadata", { serverName: "no-such-server" });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain("no-such-server");
  });

  it("a namespace the caller cannot read is 404; writes need write permission", async () => {
    const hidden = await post(queuesRoute.POST, "queues", { serverName: "rmq" }, outsider);
    expect(hidden.status).toBe(404);
    const viewerWrite = await post(createQueueRoute.POST, "queues/create", { serverName: "rmq", queue: q("viewer") }, viewer);
    expect(viewerWrite.status).toBe(403);
    const viewerDelete = await post(purgeQueueRoute.POST, "queues/purge", { serverName: "rmq", queue: q("viewer") }, viewer);
    expect(viewerDelete.status).toBe(403);
    const tokenRead = await call(metadataRoute.POST, "/api/v1/api-tester/rabbitmq/metadata", { method: "POST", token: readToken, body: { serverName: "rmq" } });
    expect(tokenRead.status).toBe(200);
    const tokenWrite = await call(publishRoute.POST, "/api/v1/api-tester/rabbitmq/publish", { method: "POST", token: readToken, body: { serverName: "rmq", body: "x" } });
    expect(tokenWrite.status).toBe(403);
  });
});
