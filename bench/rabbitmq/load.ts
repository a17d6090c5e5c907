// Q1's load generator, in a process of its own: keeps CONCURRENCY requests in
// flight on one AMQP channel, each sent to the request queue with replyTo (an
// exclusive reply queue read without acks) and a correlationId, for the given
// seconds; prints {rps, p50, p99, errors, firstError} as JSON. The load is the
// same whichever consumer answers it: the runner's mock or the plain echo.
import { connect } from "amqplib";
import { Q1_REQUEST } from "./shape";

const [url, queue, secondsArg, concurrencyArg] = process.argv.slice(2);
const seconds = Number(secondsArg);
const concurrency = Number(concurrencyArg);
// A reply that takes this long is counted as lost, and its slot sends again.
const LOST_MS = 5_000;

const model = await connect(url, { noDelay: true });
const channel = await model.createChannel();
const { queue: replies } = await channel.assertQueue("", { exclusive: true, autoDelete: true });
const body = Buffer.from(JSON.stringify(Q1_REQUEST));
const pending = new Map<string, { t0: number; done: () => void; timer: NodeJS.Timeout }>();
const latencies: number[] = [];
let errors = 0;
let firstError = "";
let seq = 0;
const end = performance.now() + seconds * 1000;

await channel.consume(
  replies,
  (m) => {
    const id = m?.properties.correlationId as string | undefined;
    const p = id ? pending.get(id) : undefined;
    if (!p) return;
    pending.delete(id!);
    clearTimeout(p.timer);
    latencies.push(performance.now() - p.t0);
    p.done();
  },
  { noAck: true },
);

function loop(): Promise<void> {
  return new Promise((resolve) => {
    const next = () => {
      if (performance.now() >= end) return resolve();
      const id = `q1-${++seq}`;
      const timer = setTimeout(() => {
        pending.delete(id);
        errors++;
        firstError ||= `no reply within ${LOST_MS} ms`;
        next();
      }, LOST_MS);
      pending.set(id, { t0: performance.now(), done: next, timer });
      channel.sendToQueue(queue, body, { replyTo: replies, correlationId: id, contentType: "application/json" });
    };
    next();
  });
}

const started = performance.now();
await Promise.all(Array.from({ length: concurrency }, loop));
const elapsed = (performance.now() - started) / 1000;
latencies.sort((a, b) => a - b);
const at = (q: number) => Number((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN).toFixed(2));
process.stdout.write(JSON.stringify({ rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), errors, firstError }) + "\n");
await model.close();
