// Q1 RabbitMQ request→reply: the protocol runner consuming a queue for a
// rabbitmq mock and answering each request on its replyTo (reply and ack in
// one AMQP transaction), against a plain amqplib echo consumer on the same
// broker, both loaded by the same client process (bench/rabbitmq/load.ts) with
// CONNECTIONS requests in flight, interleaved rounds.
import { spawn } from "node:child_process";
import { connect } from "amqplib";
import { PREFETCH } from "../protocol-runner/rabbitmq/broker-session";
import { CONNECTIONS, cpuSeconds, DURATION, ROUNDS_USED, rpsText, startRunner, summarise, troubleText, waitForLine, type Api, type Measured } from "./common";
import { Q1_REPLY } from "./rabbitmq/shape";

const BROKER = process.env.RABBITMQ_URL ?? "amqp://guest:guest@127.0.0.1:5672";
const OURS = "polymock.bench.q1";
const PLAIN = "polymock.bench.q1.plain";

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  firstError: string;
}

async function load(queue: string, seconds: number): Promise<LoadResult> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/rabbitmq/load.ts", BROKER, queue, String(seconds), String(CONNECTIONS)], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  const code = await new Promise((r) => child.once("close", r));
  if (code !== 0) throw new Error(`rabbitmq load exited ${code}: ${out}`);
  return JSON.parse(out);
}

async function measure(queue: string, pid: number): Promise<Measured> {
  const cpu0 = cpuSeconds(pid);
  const r = await load(queue, DURATION);
  if (r.errors) console.log(`  ${queue}: ${r.errors} requests without a reply (${r.firstError})`);
  return { rps: r.rps, p50: r.p50, p99: r.p99, non2xx: 0, errors: r.errors, cpuUs: ((cpuSeconds(pid) - cpu0) / (r.rps * DURATION)) * 1e6 };
}

/** Leftovers of an earlier, interrupted run would be answered first and skew the rounds. */
async function resetQueues() {
  const model = await connect(BROKER);
  const channel = await model.createChannel();
  for (const q of [OURS, PLAIN]) await channel.deleteQueue(q);
  await model.close();
}

export async function benchQ1(api: Api, root: string, env: NodeJS.ProcessEnv, nodeFlags: string[]): Promise<string> {
  await resetQueues();
  await api("POST", "/api/v1/protocol-servers?namespace=sandbox", { name: "bench-mq", protocol: "rabbitmq", url: BROKER });
  await api("POST", "/api/v1/mocks?namespace=sandbox", { id: "q1", rabbitmq: { queue: OURS, serverName: "bench-mq" }, response: { payload: Q1_REPLY } });
  const runner = await startRunner(root, env, nodeFlags);
  const plain = spawn(process.execPath, ["--import", "tsx", "bench/rabbitmq/plain-echo.ts", BROKER, PLAIN, String(PREFETCH)], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    await waitForLine(plain, "ready");
    // The runner connects and declares the queue after it starts: wait for a clean one-second run.
    for (let i = 0; ; i++) {
      const probe = await load(OURS, 1).catch((err: Error) => ({ errors: 1, rps: 0, firstError: err.message }));
      if (!probe.errors && probe.rps > 0) break;
      if (i > 60) throw new Error(`Q1: the runner does not answer: ${probe.firstError}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    await load(OURS, 2);
    await load(PLAIN, 2);
    const runs: [Measured[], Measured[]] = [[], []];
    for (let round = 0; round < ROUNDS_USED; round++) {
      runs[0].push(await measure(OURS, runner.pid!));
      runs[1].push(await measure(PLAIN, plain.pid!));
    }
    const [o, p] = runs.map(summarise);
    return `${"Q1 RabbitMQ req→reply".padEnd(22)} ${rpsText(o).replace("req/s", "msg/s")}  p50 ${String(o.p50).padStart(4)} ms  p99 ${String(o.p99).padStart(4)} ms | plain amqplib ${rpsText(p).replace("req/s", "msg/s")}  p99 ${String(p.p99).padStart(4)} ms | ratio ${(o.rps / p.rps).toFixed(2)} | CPU/msg ${o.cpuUs.toFixed(0)} µs vs plain ${p.cpuUs.toFixed(0)} µs${troubleText(o)}`;
  } finally {
    runner.kill("SIGTERM");
    plain.kill("SIGTERM");
    await resetQueues().catch(() => {});
  }
}
