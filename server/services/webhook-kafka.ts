// One attempt of a `type: "kafka"` webhook: connect a kafkajs producer to the
// brokers in `kafkaBrokers`, produce the rendered body as one record (acks from
// all in-sync replicas), then disconnect. A connection per delivery, like the
// RabbitMQ one: nothing stays open (or holds credentials) for mocks that fire
// rarely, and webhooks are off the hot path. Every socket, the bootstrap
// brokers' and the ones the cluster's metadata points to, goes through the SSRF
// guard. Semantics in docs/decisions.md, "Proxy and webhooks".
import net from "node:net";
import tls from "node:tls";
import kafkajs, { type IHeaders, type ISocketFactory } from "kafkajs";
import type { RenderedWebhook } from "@/server/engine/engine";
import { assertAllowedTarget, BlockedTargetError, safeLookup } from "@/server/lib/ssrf";
import type { PublishOutcome } from "./webhook-rabbitmq";

// kafkajs is CommonJS: under Node's ESM loader (tsx, the bundled server) only the names its
// lexer detects are named exports, and KafkaJSError is not one of them.
const { Kafka, KafkaJSError, logLevel, Partitioners } = kafkajs;

type KafkaTarget = NonNullable<RenderedWebhook["kafka"]>;

/** "host:port" or "[v6]:port" → its parts; the port defaults to Kafka's 9092. */
export function splitBroker(broker: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]+))(?::(\d+))?$/.exec(broker);
  if (!m) throw new Error(`'${broker.slice(0, 200)}' is not host:port`);
  const port = m[3] === undefined ? 9092 : Number(m[3]);
  if (port < 1 || port > 65535) throw new Error(`'${broker.slice(0, 200)}' has no valid port`);
  return { host: m[1] ?? m[2], port };
}

/** The guard speaks http(s); a broker's host is checked the same way (literal addresses here, names by safeLookup). */
export function assertAllowedBroker(host: string, port: number): void {
  assertAllowedTarget(new URL(`http://${net.isIPv6(host) ? `[${host}]` : host}:${port}/`));
}

function recordOf(hook: RenderedWebhook, key: string | undefined): { key: string | null; value: string; headers: IHeaders } {
  const headers: IHeaders = {};
  // Kafka headers may repeat, so a multi-valued header stays several record headers.
  for (const [name, values] of Object.entries(hook.headers)) headers[name] = values.length === 1 ? values[0] : values;
  // No body is an empty value, not null: null is a tombstone and deletes the key in a compacted topic.
  const value = hook.body === undefined ? "" : typeof hook.body === "string" ? hook.body : JSON.stringify(hook.body);
  return { key: key ?? null, value, headers };
}

/**
 * A socket factory that refuses forbidden hosts and resolves names through
 * safeLookup; `blocked` keeps the refusal, which kafkajs would otherwise turn
 * into a retriable connection error.
 */
export function guardedSockets(blocked: { error?: BlockedTargetError }): ISocketFactory {
  const lookup: net.LookupFunction = (hostname, options, callback) =>
    safeLookup(hostname, options, (err, ...rest) => {
      if (err instanceof BlockedTargetError) blocked.error ??= err;
      (callback as (...args: unknown[]) => void)(err, ...rest);
    });
  return ({ host, port, ssl, onConnect }) => {
    try {
      assertAllowedBroker(host, port);
    } catch (err) {
      if (err instanceof BlockedTargetError) blocked.error ??= err;
      const refused = new net.Socket();
      process.nextTick(() => refused.destroy(err as Error));
      return refused;
    }
    return ssl
      ? tls.connect({ host, port, lookup, ...(net.isIP(host) ? {} : { servername: host }), ...(typeof ssl === "object" ? ssl : {}) }, onConnect)
      : net.connect({ host, port, lookup }, onConnect);
  };
}

/** Produces once; brokers that cannot be reached or do not acknowledge in time are worth retrying, a refused target or bad credentials are not. */
export async function publishToKafka(hook: RenderedWebhook): Promise<PublishOutcome> {
  const target: KafkaTarget | undefined = hook.kafka;
  if (!target) return { ok: false, retry: false, error: "no kafka target" };
  if (target.brokers.length === 0) return { ok: false, retry: false, error: "kafkaBrokers is empty" };
  if (target.sasl && (!target.username || !target.password)) return { ok: false, retry: false, error: "kafkaUseSASL needs kafkaUsername and kafkaPassword" };
  try {
    for (const broker of target.brokers) {
      const { host, port } = splitBroker(broker);
      assertAllowedBroker(host, port);
    }
  } catch (err) {
    return { ok: false, retry: false, error: err instanceof BlockedTargetError ? err.message : `kafkaBrokers: ${(err as Error).message}` };
  }

  const blocked: { error?: BlockedTargetError } = {};
  const kafka = new Kafka({
    clientId: "polymock-webhook",
    brokers: target.brokers,
    ssl: target.tls,
    sasl: target.sasl ? { mechanism: "plain", username: target.username!, password: target.password! } : undefined,
    connectionTimeout: hook.timeoutMs,
    requestTimeout: hook.timeoutMs,
    // One attempt per call: the dispatcher's loop owns retries and their delays.
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
    socketFactory: guardedSockets(blocked),
  });
  const producer = kafka.producer({ allowAutoTopicCreation: true, createPartitioner: Partitioners.DefaultPartitioner, retry: { retries: 0 } });

  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<PublishOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, retry: true, error: `no acknowledgement within ${hook.timeoutMs} ms` }), hook.timeoutMs);
  });
  const attempt = (async (): Promise<PublishOutcome> => {
    await producer.connect();
    await producer.send({ topic: target.topic, acks: -1, timeout: hook.timeoutMs, messages: [recordOf(hook, target.key)] });
    return { ok: true };
  })().catch((err: unknown): PublishOutcome => {
    if (blocked.error) return { ok: false, retry: false, error: blocked.error.message };
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof KafkaJSError && /SASL|authenticat/i.test(`${err.name} ${message}`)) return { ok: false, retry: false, error: message };
    return { ok: false, retry: true, error: message };
  });
  try {
    return await Promise.race([attempt, timedOut]);
  } finally {
    clearTimeout(timer);
    // Disconnecting now also ends an attempt still waiting for its ack; one
    // still connecting is disconnected once it gets there.
    void producer.disconnect().catch(() => {});
    void attempt.then(() => producer.disconnect().catch(() => {}));
  }
}
