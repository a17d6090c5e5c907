// NATS mocks served by the protocol runner against the real nats-server on
// 127.0.0.1:4222 with the real `nats` client: request/reply with templated
// replies (the concrete subject of a wildcard subscription included),
// condition choice on data and headers, publish to an output subject with
// templated headers, queue groups, unmatched and invalid messages captured,
// a broker that cannot be reached (then can, through a TCP proxy the test
// controls), and a connection cut mid-stream after which every request got
// exactly one reply and was served once. Subjects are unique per run.
import { randomUUID } from "node:crypto";
import { connect, headers, JSONCodec, type NatsConnection, StringCodec } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { CreateProtocolServerInput } from "@/server/contracts/protocol-servers";
import { db } from "@/server/db/client";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { stubRecorder } from "@/server/serving/recorder";
import { saveMock } from "@/server/services/mocks";
import { resolveNamespace, type NamespaceScope } from "@/server/services/namespace-access";
import { createProtocolServer, getProtocolServer } from "@/server/services/protocol-servers";
import { actorFor, makeNamespace, makeUser } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { startRunner, type Runner } from "../reconciler";
import { freePort, tcpProxy, until } from "../testing";
import { REASON_HEADER } from "./exchange";
import { natsModule } from "./nats-module";
import { MSG_ID_HEADER } from "./nats-session";

useTestDatabase();

const BROKER = "nats://127.0.0.1:4222";
const run = randomUUID().slice(0, 8);
const subj = (name: string) => `pm.${run}.${name}`;
const jc = JSONCodec();
const sc = StringCodec();

let runner: Runner;
let actor: ReturnType<typeof actorFor>;
let scope: NamespaceScope;
let nc: NatsConnection;

beforeAll(async () => {
  const { user } = await makeUser();
  await makeNamespace("natsns", { [user.id]: "owner" });
  actor = actorFor(user);
  scope = await resolveNamespace(actor, "natsns");
  runner = await startRunner([natsModule({ backoff: { firstMs: 50, maxMs: 400 } })]);
  nc = await connect({ servers: BROKER });
});

afterAll(async () => {
  await runner?.stop();
  await stubRecorder().drain();
  await nc?.close();
  await stopListening();
  invalidateAll();
});

async function server(name: string, url = BROKER, state: "listening" | "error" = "listening") {
  const created = await createProtocolServer(scope, CreateProtocolServerInput.parse({ name, protocol: "nats", url }));
  await until(async () => (await getProtocolServer(scope, created.id)).state === state, `${name} ${state}`);
  return created;
}

const save = async (input: unknown) => (await saveMock(actor, scope, MockInput.parse(input))).mock;

/** Asks until the runner answers (it subscribes after the save's NOTIFY). */
async function ask(subject: string, data: unknown, opts: { headers?: Record<string, string> } = {}) {
  const h = headers();
  for (const [k, v] of Object.entries(opts.headers ?? {})) h.set(k, v);
  return until(() => nc.request(subject, typeof data === "string" ? sc.encode(data) : jc.encode(data), { timeout: 300, headers: h }), `a reply on ${subject}`);
}

const undefinedOf = async (subjectPart: string) => {
  await stubRecorder().drain();
  return (await db().undefinedRequest.findMany({ where: { namespaceId: scope.id, protocol: "nats" } })).filter((c) => c.path.includes(subjectPart));
};

describe("NATS mocks", () => {
  it("request/reply on a wildcard subject: a templated reply to the inbox, the concrete subject in x-nats-subject; the request log keeps it", async () => {
    await server("orders");
    const mock = await save({ nats: { serverName: "orders", subject: subj("orders.*") }, response: { payload: { accepted: "$.req.id", on: "$.reqHeader.x-nats-subject[0]" }, headers: { "x-source": ["mock"] } } });
    const reply = await ask(subj("orders.created"), { id: "A-17" });
    expect(jc.decode(reply.data)).toEqual({ accepted: "A-17", on: subj("orders.created") });
    expect(reply.headers?.get("content-type")).toBe("application/json");
    expect(reply.headers?.get("x-source")).toBe("mock");
    await stubRecorder().drain();
    const log = await db().requestLog.findFirst({ where: { mockId: mock.id } });
    expect(log).toMatchObject({ method: "MESSAGE", body: { id: "A-17" } });
    expect(log?.url).toContain(subj("orders.created"));
  });

  it("conditions choose among mocks of one subject: on the JSON data and on the NATS headers; `>` matches the rest", async () => {
    await server("pricing");
    const subject = subj("price.>");
    await save({ nats: { serverName: "pricing", subject, conditions: [{ path: "$.sku", assertAction: "equals", value: "gold" }] }, response: { payload: "gold price" } });
    await save({ nats: { serverName: "pricing", subject, headers: [{ path: "X-Region", assertAction: "equals", value: "eu" }] }, response: { payload: "eu price for $.req.sku" } });
    await save({ priority: -1, nats: { serverName: "pricing", subject }, response: { payload: "list price" } });
    expect(sc.decode((await ask(subj("price.a.b"), { sku: "gold" })).data)).toBe("gold price");
    const eu = await ask(subj("price.a"), { sku: "tin" }, { headers: { "X-Region": "eu" } });
    expect(sc.decode(eu.data)).toBe("eu price for tin");
    expect(eu.headers?.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(sc.decode((await ask(subj("price.a"), { sku: "tin" }, { headers: { "X-Region": "us" } })).data)).toBe("list price");
  });

  it("outputSubject: a published message (no reply subject) gets its reply on that subject, with templated headers", async () => {
    await server("events");
    const out = subj("events.out");
    const received: { data: unknown; tenant?: string }[] = [];
    const sub = nc.subscribe(out, { callback: (_e, m) => received.push({ data: jc.decode(m.data), tenant: m.headers?.get("x-tenant") }) });
    await nc.flush();
    await save({ nats: { serverName: "events", subject: subj("events.in"), outputSubject: out, outputHeaders: { "x-tenant": "$.reqHeader.tenant[0]" } }, response: { payload: { seen: "$.req.n" } } });
    const h = headers();
    h.set("tenant", "t1");
    await until(async () => {
      nc.publish(subj("events.in"), jc.encode({ n: 1 }), { headers: h });
      await nc.flush();
      await new Promise((r) => setTimeout(r, 50));
      return received.length > 0;
    }, "a message on the output subject");
    expect(received[0]).toEqual({ data: { seen: 1 }, tenant: "t1" });
    sub.unsubscribe();
  });

  it("a mock with a queue group answers through the group", async () => {
    await server("workers");
    await save({ nats: { serverName: "workers", subject: subj("jobs"), queueGroup: "workers" }, response: { payload: "done $.req.job" } });
    expect(sc.decode((await ask(subj("jobs"), { job: 3 })).data)).toBe("done 3");
  });

  it("an unmatched message is an undefined request of protocol nats with the reason; no reply is sent", async () => {
    await server("strict");
    await save({ nats: { serverName: "strict", subject: subj("strict"), conditions: [{ path: "$.kind", assertAction: "equals", value: "known" }] }, response: { payload: "ok" } });
    expect(sc.decode((await ask(subj("strict"), { kind: "known" })).data)).toBe("ok");
    const h = headers();
    h.set("trace", "t-1");
    await expect(nc.request(subj("strict"), jc.encode({ kind: "stranger" }), { timeout: 300, headers: h })).rejects.toThrow(/TIMEOUT/i);
    const [mine] = await until(async () => {
      const found = await undefinedOf(subj("strict"));
      return found.length ? found : undefined;
    }, "the undefined request");
    expect(mine).toMatchObject({ method: "MESSAGE", body: { kind: "stranger" } });
    expect((mine.headers as Record<string, string[]>).trace).toEqual(["t-1"]);
    expect((mine.headers as Record<string, string[]>)[REASON_HEADER][0]).toMatch(/nearest mock/);
  });

  it("bad JSON for a JSON condition, and a message over the size limit, are undefined requests with the reason; the next message is served", async () => {
    await server("parser");
    await save({ nats: { serverName: "parser", subject: subj("parse.*"), conditions: [{ path: "$.id", assertAction: "notEmpty" }] }, response: { payload: "id $.req.id" } });
    expect(sc.decode((await ask(subj("parse.ok"), { id: 1 })).data)).toBe("id 1");
    const json = headers();
    json.set("content-type", "application/json");
    // Two subjects: repeats of one undefined request count up in one row.
    nc.publish(subj("parse.json"), sc.encode("{not json"), { headers: json });
    process.env.NATS_MAX_BODY_BYTES = "64";
    try {
      nc.publish(subj("parse.big"), sc.encode(JSON.stringify({ id: "x".repeat(100) })));
      expect(sc.decode((await ask(subj("parse.ok"), { id: 7 })).data)).toBe("id 7");
    } finally {
      delete process.env.NATS_MAX_BODY_BYTES;
    }
    const reasons = await until(async () => {
      const found = (await undefinedOf(subj("parse"))).map((c) => (c.headers as Record<string, string[]>)[REASON_HEADER][0]);
      return found.length >= 2 ? found : undefined;
    }, "two undefined requests");
    expect(reasons.some((r) => /not valid JSON/.test(r))).toBe(true);
    expect(reasons.some((r) => /over the limit of 64/.test(r))).toBe(true);
  });

  it("a broker that cannot be reached is the server's error state with the reason; it connects once the broker is there", async () => {
    const port = await freePort();
    const created = await server("later", `nats://127.0.0.1:${port}`, "error");
    expect((await getProtocolServer(scope, created.id)).stateReason).toMatch(/connection refused|CONNECTION_REFUSED/i);
    await save({ nats: { serverName: "later", subject: subj("later") }, response: { payload: "late but there" } });
    const proxy = await tcpProxy(port, 4222);
    try {
      await until(async () => (await getProtocolServer(scope, created.id)).state === "listening", "later listening");
      expect(sc.decode((await ask(subj("later"), {})).data)).toBe("late but there");
    } finally {
      await proxy.close();
    }
  });

  it("a repeated Nats-Msg-Id gets the remembered reply, to its own inbox, without a second serve", async () => {
    await server("once");
    // Usable once: a second serve would find no mock and send nothing.
    const mock = await save({ useLimiter: 1, nats: { serverName: "once", subject: subj("once") }, response: { payload: { n: "$.req.n" } } });
    const h = headers();
    h.set(MSG_ID_HEADER, `${run}-once`);
    const first = await until(() => nc.request(subj("once"), jc.encode({ n: 1 }), { timeout: 300, headers: h }), "the first reply");
    const again = await nc.request(subj("once"), jc.encode({ n: 2 }), { timeout: 1000, headers: h });
    expect(jc.decode(first.data)).toEqual({ n: 1 });
    expect(jc.decode(again.data)).toEqual({ n: 1 });
    await stubRecorder().drain();
    expect(await db().requestLog.count({ where: { mockId: mock.id } })).toBe(1);
  });

  it("a cloud-metadata broker address is refused: an error state naming it, no connection", async () => {
    const created = await server("meta", "nats://169.254.169.254:4222", "error");
    expect((await getProtocolServer(scope, created.id)).stateReason).toMatch(/metadata/);
  });

  it("the connection cut mid-stream (TCP proxy): every request, retried on timeout with its Nats-Msg-Id, got exactly one reply and was served once", async () => {
    const port = await freePort();
    const proxy = await tcpProxy(port, 4222);
    try {
      await server("flaky", `nats://127.0.0.1:${port}`);
      const mock = await save({ nats: { serverName: "flaky", subject: subj("flaky") }, response: { payload: { reply: "$.req.n" } } });
      expect(jc.decode((await ask(subj("flaky"), { n: "warm" })).data)).toEqual({ reply: "warm" });

      const total = 300;
      const answers = new Map<string, number>();
      let sent = 0;
      /** A client that asks again (same Nats-Msg-Id) until it gets its reply, as NATS requesters do: on a timeout, or after a pause on 503 (no responders while the runner reconnects). */
      const requestOnce = async (n: number) => {
        const h = headers();
        h.set(MSG_ID_HEADER, `${run}-${n}`);
        const deadline = Date.now() + 20_000;
        for (;;) {
          try {
            const m = await nc.request(subj("flaky"), jc.encode({ n: String(n) }), { timeout: 500, headers: h });
            const { reply } = jc.decode(m.data) as { reply: string };
            answers.set(reply, (answers.get(reply) ?? 0) + 1);
            return;
          } catch (err) {
            if (Date.now() > deadline) throw err;
            if (/503/.test((err as Error).message)) await new Promise((r) => setTimeout(r, 50));
          }
        }
      };
      const workers = Array.from({ length: 20 }, async () => {
        while (sent < total) {
          const n = sent++;
          if (n === 100) proxy.cut();
          await requestOnce(n);
        }
      });
      await Promise.all(workers);
      expect(proxy.connections()).toBeGreaterThanOrEqual(2);
      expect(answers.size).toBe(total);
      expect([...answers].filter(([, count]) => count !== 1)).toEqual([]);
      await stubRecorder().drain();
      // Served once each (a repeat got the remembered reply): 300 + the warm-up.
      expect(await db().requestLog.count({ where: { mockId: mock.id } })).toBe(total + 1);
    } finally {
      await proxy.close();
    }
  });
});
