// Q2 Kafka produce→reply: requests produced to a topic on librdkafka's mock
// cluster (kcat, protocol-runner/kafka/mock-cluster.ts), answered by the
// protocol runner's Kafka mock (as `npm start` runs it: its own process,
// reply ledger and commit protocol included) and by a plain kafkajs echo
// consumer (bench/kafka/echo.ts) on the same cluster, interleaved. A closed
// loop of CONCURRENCY requests in flight; latency is produce call → reply
// seen by the client's consumer. Not a test: no assertions.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import net from "node:net";
import kafkajs from "kafkajs";
import { startKafkaMockCluster } from "../protocol-runner/kafka/mock-cluster";

const { Kafka, logLevel, Partitioners } = kafkajs;

export interface Q2Options {
  /** A migrated database the runner serves from (its own, or the bench's). */
  databaseUrl: string;
  seconds: number;
  rounds: number;
  concurrency?: number;
  env?: Record<string, string | undefined>;
}

/** A fetch wait both consumers share: the mock cluster waits it out when a partition is idle. */
const FETCH_WAIT_MS = Number(process.env.BENCH_KAFKA_FETCH_WAIT_MS ?? 20);

interface Measured {
  rate: number;
  p50: number;
  p99: number;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

function ready(child: ChildProcess, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d) => {
      out += d;
      if (out.includes(text)) resolve();
    });
    child.once("exit", (code) => reject(new Error(`exited ${code}: ${out.slice(-500)}`)));
  });
}

/** The namespace, kafka protocol server and mock the runner will serve (through the services, as the API would). */
async function seed(databaseUrl: string, brokers: string, input: string, output: string) {
  process.env.DATABASE_URL = databaseUrl;
  const { makeNamespace, makeUser, actorFor } = await import("../server/testing/fixtures");
  const { resolveNamespace } = await import("../server/services/namespace-access");
  const { createProtocolServer } = await import("../server/services/protocol-servers");
  const { saveMock } = await import("../server/services/mocks");
  const { MockInput } = await import("../server/contracts/mock");
  const { CreateProtocolServerInput } = await import("../server/contracts/protocol-servers");
  const { disconnectDb } = await import("../server/db/client");
  const { user } = await makeUser({ username: `q2-${randomUUID().slice(0, 8)}` });
  const name = `q2-${randomUUID().slice(0, 8)}`;
  await makeNamespace(name, { [user.id]: "owner" });
  const actor = actorFor(user);
  const scope = await resolveNamespace(actor, name);
  await createProtocolServer(scope, CreateProtocolServerInput.parse({ name: "bench", protocol: "kafka", brokers: [brokers] }));
  await saveMock(actor, scope, MockInput.parse({ kafka: { serverName: "bench", topic: input, outputTopic: output, outputKey: "{{$.reqHeader.kafka-key[0]}}" }, response: { payload: { echo: "$.req.n" } } }));
  await disconnectDb();
}

/** A client: produces requests keyed by a sequence number and times each until its reply (same key) is consumed. */
async function loadClient(brokers: string) {
  const kafka = new Kafka({ brokers: [brokers], logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ allowAutoTopicCreation: true, createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const waiting = new Map<string, () => void>();
  const consumers: ReturnType<typeof kafka.consumer>[] = [];
  return {
    async listen(output: string) {
      const consumer = kafka.consumer({ groupId: `q2-client-${randomUUID()}`, allowAutoTopicCreation: true, maxWaitTimeInMs: FETCH_WAIT_MS });
      consumers.push(consumer);
      await consumer.connect();
      await consumer.subscribe({ topic: output, fromBeginning: false });
      await consumer.run({
        eachBatch: async ({ batch }) => {
          for (const m of batch.messages) {
            const key = m.key?.toString();
            if (key) waiting.get(key)?.();
          }
        },
      });
    },
    /** One request and its reply; false when none came within `limitMs`. */
    call(input: string, limitMs = 10_000): Promise<number | false> {
      const id = randomUUID();
      const started = performance.now();
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          resolve(false);
        }, limitMs);
        waiting.set(id, () => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(performance.now() - started);
        });
        producer.send({ topic: input, messages: [{ key: id, value: JSON.stringify({ n: 1 }) }] }).catch(() => {});
      });
    },
    async close() {
      for (const c of consumers) await c.disconnect().catch(() => {});
      await producer.disconnect().catch(() => {});
    },
  };
}

async function measure(client: Awaited<ReturnType<typeof loadClient>>, input: string, seconds: number, concurrency: number): Promise<Measured> {
  const latencies: number[] = [];
  const end = performance.now() + seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const ms = await client.call(input);
      if (ms !== false) latencies.push(ms);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0);
  return { rate: latencies.length / elapsed, p50: at(0.5), p99: at(0.99) };
}

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const k = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(1)}k` : n.toFixed(0));

/** Runs Q2 and returns its printed row. */
export async function benchQ2(opts: Q2Options): Promise<string> {
  const concurrency = opts.concurrency ?? Number(process.env.BENCH_KAFKA_CONCURRENCY ?? 10);
  const cluster = await startKafkaMockCluster();
  const run = randomUUID().slice(0, 8);
  const topics = { oursIn: `q2-${run}-in`, oursOut: `q2-${run}-out`, echoIn: `q2-${run}-echo-in`, echoOut: `q2-${run}-echo-out` };
  const children: ChildProcess[] = [];
  const client = await loadClient(cluster.brokers);
  try {
    await seed(opts.databaseUrl, cluster.brokers, topics.oursIn, topics.oursOut);
    const runner = spawn(process.execPath, ["--import", "tsx", "protocol-runner/main.ts"], {
      env: { ...process.env, ...opts.env, DATABASE_URL: opts.databaseUrl, GRPC_PORT: String(await freePort()), RUNNER_HEALTH_PORT: String(await freePort()), HOST: "127.0.0.1", LOG_LEVEL: "warn", KAFKA_FETCH_MAX_WAIT_MS: String(FETCH_WAIT_MS) },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const echo = spawn(process.execPath, ["--import", "tsx", "bench/kafka/echo.ts", cluster.brokers, topics.echoIn, topics.echoOut, String(FETCH_WAIT_MS)], { stdio: ["ignore", "pipe", "inherit"] });
    children.push(runner, echo);
    await ready(echo, "ready");
    await client.listen(topics.oursOut);
    await client.listen(topics.echoOut);
    // Group joins on the mock cluster take seconds: wait for a first reply from each.
    for (const input of [topics.oursIn, topics.echoIn]) {
      for (let i = 0; (await client.call(input, 3000)) === false; i++) if (i > 20) throw new Error(`Q2: no reply on ${input}`);
    }
    await measure(client, topics.oursIn, 2, concurrency);
    await measure(client, topics.echoIn, 2, concurrency);
    const ours: Measured[] = [];
    const theirs: Measured[] = [];
    for (let round = 0; round < opts.rounds; round++) {
      ours.push(await measure(client, topics.oursIn, opts.seconds, concurrency));
      theirs.push(await measure(client, topics.echoIn, opts.seconds, concurrency));
    }
    const o = { rate: median(ours.map((m) => m.rate)), p50: median(ours.map((m) => m.p50)), p99: median(ours.map((m) => m.p99)) };
    const p = { rate: median(theirs.map((m) => m.rate)), p99: median(theirs.map((m) => m.p99)) };
    const range = (ms: Measured[]) => `(${k(Math.min(...ms.map((m) => m.rate)))}–${k(Math.max(...ms.map((m) => m.rate)))})`;
    return `${"Q2 Kafka produce→reply".padEnd(22)} ${k(o.rate).padStart(6)} msg/s ${range(ours)}  p50 ${String(o.p50).padStart(4)} ms  p99 ${String(o.p99).padStart(4)} ms | plain kafkajs echo ${k(p.rate).padStart(6)} msg/s ${range(theirs)}  p99 ${String(p.p99).padStart(4)} ms | ratio ${(o.rate / p.rate).toFixed(2)} (${concurrency} in flight, fetch wait ${FETCH_WAIT_MS} ms, librdkafka mock cluster)`;
  } finally {
    await client.close();
    for (const c of children) c.kill("SIGTERM");
    await cluster.stop();
  }
}

/** Q2 alone (BENCH_ONLY=Q2): a migrated database of its own, no build and no web process. */
export async function benchQ2Alone(opts: { serverUrl: string; seconds: number; rounds: number }): Promise<string> {
  const pg = (await import("pg")).default;
  const { migrate } = await import("../server/db/migrate");
  const dbName = `polymock_bench_q2_${Date.now()}`;
  const admin = new pg.Client({ connectionString: opts.serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const u = new URL(opts.serverUrl);
  u.pathname = `/${dbName}`;
  try {
    await migrate(u.toString());
    return await benchQ2({ databaseUrl: u.toString(), seconds: opts.seconds, rounds: opts.rounds, env: { APP_SECRET: process.env.APP_SECRET ?? "bench" } });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
    await admin.end();
  }
}
