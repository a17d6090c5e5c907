// `type: "kafka"` webhooks end to end against a real Kafka-protocol cluster:
// librdkafka's mock cluster inside a `kcat` process (Debian's kcat 1.7.1), the
// stub fast path in front, and kcat again as an independent consumer reading
// the record's key, value and headers back.
import { spawn, execFile, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { RenderedWebhook } from "@/server/engine/engine";
import { logger } from "@/server/lib/logger";
import { publishToKafka } from "@/server/services/webhook-kafka";
import { drainWebhooks } from "@/server/services/webhooks";
import { useStubServer } from "@/server/testing/stub-server";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();
const stub = useStubServer("kafka-hooks", { beforeClose: drainWebhooks });

let cluster: ChildProcess | undefined;
let broker = "";
let closedPort = 0;

/** Starts kcat's mock cluster (kept up by its own consumer) and reads the bootstrap address it prints. */
function startMockCluster(): Promise<{ proc: ChildProcess; address: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn("kcat", ["-b", "localhost", "-X", "test.mock.num.brokers=1", "-C", "-t", "warmup", "-q"], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    const timer = setTimeout(() => {
      proc.kill();
      reject(new Error(`kcat printed no bootstrap address: ${stderr}`));
    }, 20_000);
    proc.on("error", (err) => {
      clearTimeout(timer);
      reject(err);
    });
    proc.stderr!.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
      const m = /replaced with (127\.0\.0\.1:\d+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, address: m[1] });
      }
    });
  });
}

interface KcatRecord {
  key: string | null;
  payload: string | null;
  headers?: string[];
}

/** Every record of the topic, read by kcat from the beginning until the end of each partition. */
function consumeAll(topic: string): Promise<KcatRecord[]> {
  return new Promise((resolve, reject) => {
    execFile("kcat", ["-b", broker, "-C", "-t", topic, "-o", "beginning", "-e", "-J", "-q"], { timeout: 30_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`${err.message}: ${stderr}`));
      resolve(
        stdout
          .split("\n")
          .filter((l) => l.trim().startsWith("{"))
          .map((l) => JSON.parse(l) as KcatRecord),
      );
    });
  });
}

beforeAll(async () => {
  const started = await startMockCluster();
  cluster = started.proc;
  broker = started.address;
  const probe = http.createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((r) => probe.close(r));
}, 30_000);
afterAll(() => {
  cluster?.kill();
});
afterEach(async () => {
  await drainWebhooks();
  delete process.env.OUTBOUND_ALLOW_PRIVATE;
  vi.restoreAllMocks();
});

const logged = (spy: ReturnType<typeof vi.spyOn>, message: string) =>
  spy.mock.calls.filter(([, m]) => m === message).map(([fields]) => fields as Record<string, unknown>);

describe("kafka webhooks (kcat mock cluster)", () => {
  it("produce the rendered body as the value, kafkaKey as the key and headers as record headers", async () => {
    const topic = `polymock-webhook-${Date.now().toString(36)}`;
    await stub.save({
      id: "kafka-orders",
      http: { route: "/orders/:id", httpMethod: "POST" },
      response: { statusCode: 201, payload: { accepted: true } },
      webhooks: [
        {
          type: "kafka",
          kafkaBrokers: broker,
          kafkaTopic: topic,
          kafkaKey: "order-$.pathParam.id",
          headers: { "X-Order": "$.pathParam.id", "X-Source": "polymock" },
          body: { id: "$.pathParam.id", customer: "$.req.customer" },
          timeout: 10_000,
        },
      ],
    });
    const info = vi.spyOn(logger(), "info");
    const res = await fetch(`${stub.base}/orders/42`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ customer: "ann" }) });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ accepted: true });
    await drainWebhooks();
    expect(logged(info, "webhook delivered")).toEqual([expect.objectContaining({ mockId: "kafka-orders", attempts: 1, url: `kafka ${broker} topic '${topic}'` })]);

    const records = await consumeAll(topic);
    expect(records).toHaveLength(1);
    expect(records[0].key).toBe("order-42");
    expect(JSON.parse(records[0].payload!)).toEqual({ id: "42", customer: "ann" });
    expect(records[0].headers).toEqual(["X-Order", "42", "X-Source", "polymock"]);
  });

  it("a string body is the value as written, brokers given as a list", async () => {
    const topic = `polymock-text-${Date.now().toString(36)}`;
    await stub.save({ id: "kafka-text", http: { route: "/text" }, webhooks: [{ type: "kafka", kafkaBrokers: [broker], kafkaTopic: topic, body: "plain $.queryParams.word", timeout: 10_000 }] });
    expect((await fetch(`${stub.base}/text?word=hello`)).status).toBe(200);
    await drainWebhooks();
    const records = await consumeAll(topic);
    expect(records.map((r) => [r.key, r.payload])).toEqual([[null, "plain hello"]]);
  });

  it("a broker that is not there is retried, then reported; the stub answer is unchanged", async () => {
    await stub.save({
      id: "kafka-down",
      http: { route: "/kafka-down" },
      response: { statusCode: 202, payload: "ok" },
      webhooks: [{ type: "kafka", kafkaBrokers: `127.0.0.1:${closedPort}`, kafkaTopic: "nowhere", retryCount: 1, retryDelay: 10, timeout: 2000 }],
    });
    const warn = vi.spyOn(logger(), "warn");
    const res = await fetch(`${stub.base}/kafka-down`);
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("ok");
    await drainWebhooks();
    expect(logged(warn, "webhook failed")).toEqual([expect.objectContaining({ mockId: "kafka-down", attempts: 2, error: expect.stringMatching(/ECONNREFUSED|Connection error/) })]);
  });

  it.each([
    ["an address literal", (port: string) => `127.0.0.1:${port}`, /127\.0\.0\.1 is a private or loopback address and OUTBOUND_ALLOW_PRIVATE=0/],
    ["a host name (checked when it resolves)", (port: string) => `localhost:${port}`, /is a private or loopback address and OUTBOUND_ALLOW_PRIVATE=0/],
  ])("the guard applies at call time to a broker given as %s: refused once, not retried, answer unchanged", async (label, brokerAt, message) => {
    const id = `kafka-private-${label.split(" ")[1]}`;
    await stub.save({ id, http: { route: `/${id}` }, response: { payload: "fine" }, webhooks: [{ type: "kafka", kafkaBrokers: brokerAt(broker.split(":")[1]), kafkaTopic: "t", retryCount: 3, retryDelay: 10 }] });
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    const warn = vi.spyOn(logger(), "warn");
    const res = await fetch(`${stub.base}/${id}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe("fine");
    await drainWebhooks();
    expect(logged(warn, "webhook failed")).toEqual([expect.objectContaining({ mockId: id, attempts: 1, error: expect.stringMatching(message) })]);
  });
});

describe("publishToKafka's own guard (rows that did not pass the save-time check never load, so only a direct call reaches it)", () => {
  const hookTo = (brokers: string[]): RenderedWebhook => ({
    type: "kafka",
    url: "",
    fromRequestData: false,
    method: "POST",
    headers: {},
    body: "x",
    delayMs: 0,
    timeoutMs: 2000,
    retries: 0,
    retryDelayMs: undefined,
    async: true,
    trigger: "always",
    kafka: { brokers, topic: "t", key: undefined, sasl: false, tls: false },
  });

  it.each([
    ["a metadata address", "169.254.169.254:9092", /cloud-metadata or link-local/],
    ["a metadata IPv6 address", "[fd00:ec2::254]:9092", /cloud-metadata or link-local/],
    ["a metadata host name", "metadata.google.internal:9092", /cloud-metadata host name/],
  ])("refuses %s without retry, even beside a good broker", async (_label, badBroker, message) => {
    expect(await publishToKafka(hookTo([broker, badBroker]))).toEqual({ ok: false, retry: false, error: expect.stringMatching(message) });
  });

  it("refuses SASL without credentials and a broker that is not host:port, without retry", async () => {
    expect(await publishToKafka({ ...hookTo([broker]), kafka: { ...hookTo([broker]).kafka!, sasl: true } })).toEqual({ ok: false, retry: false, error: expect.stringMatching(/kafkaUsername and kafkaPassword/) });
    expect(await publishToKafka(hookTo(["127.0.0.1:99999"]))).toEqual({ ok: false, retry: false, error: expect.stringMatching(/kafkaBrokers/) });
  });
});
