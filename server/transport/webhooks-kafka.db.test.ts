// `type: "kafka"` webhooks end to end against a real Kafka-protocol cluster:
// librdkafka's mock cluster inside a `kcat` process (Debian's kcat 1.7.1), the
// stub fast path in front, and kcat again as an independent consumer reading
// the record's key, value and headers back.
import { spawn, execFile, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/server/db/client";
import { logger } from "@/server/lib/logger";
import { invalidateAll } from "@/server/serving/mock-index";
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
    ["a metadata address", "169.254.169.254:9092", /cloud-metadata or link-local/],
    ["a metadata host name", "metadata.google.internal:9092", /cloud-metadata host name/],
  ])("a stored broker at %s is refused at call time, once, without connecting", async (label, badBroker, message) => {
    const id = `kafka-meta-${label.replace(/\W+/g, "-")}`;
    await stub.save({ id, http: { route: `/${id}` }, webhooks: [{ type: "kafka", kafkaBrokers: broker, kafkaTopic: "t", retryCount: 3, retryDelay: 10 }] });
    // A row written before the save-time check (or by another path): the call-time guard must still refuse it.
    const row = await db().mock.findFirstOrThrow({ where: { id } });
    const definition = row.definition as { webhooks: Array<Record<string, unknown>> };
    definition.webhooks[0].kafkaBrokers = `${broker},${badBroker}`;
    await db().mock.update({ where: { pk: row.pk }, data: { definition } });
    invalidateAll();

    const warn = vi.spyOn(logger(), "warn");
    expect((await fetch(`${stub.base}/${id}`)).status).toBe(200);
    await drainWebhooks();
    expect(logged(warn, "webhook failed")).toEqual([expect.objectContaining({ mockId: id, attempts: 1, error: expect.stringMatching(message) })]);
  });
});
