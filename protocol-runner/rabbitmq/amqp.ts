// The AMQP pieces the rabbitmq module's broker session and output brokers
// share: the outbound check of a broker URL, errors as reasons for the
// protocol server's row, declare-if-missing of queues and exchanges, and a
// publish that resolves on the broker's confirm.
import type { Channel, ChannelModel, ConfirmChannel, Options } from "amqplib";
import { assertAllowedTarget, BlockedTargetError, safeLookup } from "@/server/lib/ssrf";
import type { Reply } from "./exchange";

/**
 * How the runner connects to a broker: names resolved through the outbound
 * policy, and TCP_NODELAY, which amqplib leaves off. With Nagle on, a reply,
 * an ack and a tx.commit written one after another wait for the broker's
 * delayed ACK: 40 ms per commit, which held the Q1 bench to 200 messages/s.
 */
export const CONNECT_OPTIONS = { lookup: safeLookup, timeout: 10_000, noDelay: true } as Options.Connect;

type Muxed = { connection?: { stream?: { cork?(): void; uncork?(): void }; muxer?: { _readIncoming?: () => void } } };

/**
 * Makes each of amqplib's output passes one socket write. amqplib queues
 * frames per channel and a muxer writes them frame by frame; with
 * TCP_NODELAY each frame is then a syscall and a packet of its own (a
 * reply, its ack and the commit: three or more). Corking the socket for the
 * pass sends them in one writev. Reaches into amqplib 2.x's internals, so
 * it does nothing when they are not where it expects them.
 */
export function coalesceWrites(model: ChannelModel) {
  const conn = (model as unknown as Muxed).connection;
  const stream = conn?.stream;
  const muxer = conn?.muxer;
  const pass = muxer?._readIncoming;
  if (!stream?.cork || !stream.uncork || !muxer || typeof pass !== "function") return;
  muxer._readIncoming = function corked(this: unknown) {
    stream.cork!();
    try {
      pass.call(this);
    } finally {
      stream.uncork!();
    }
  };
}

/** A broker error as a short reason for the protocol server's row. */
export function brokerErrorReason(err: unknown, url: string): string {
  if (err instanceof BlockedTargetError) return err.message;
  const e = err as NodeJS.ErrnoException & { message?: string };
  const where = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  if (e?.code === "ECONNREFUSED") return `connection refused by ${where}`;
  if (e?.code === "ENOTFOUND") return `host not found: ${where}`;
  if (e?.code === "ETIMEDOUT") return `no answer from ${where}`;
  const message = e?.message ?? String(err);
  if (/ACCESS[-_]REFUSED/.test(message)) return `ACCESS_REFUSED: ${where} refused the credentials`;
  return `${where}: ${message}`;
}

/** Broker URLs are user data: checked against the outbound policy like a webhook's (literal addresses here, names at connect). */
export function checkBrokerUrl(url: string): URL {
  const u = new URL(url);
  if (u.protocol !== "amqp:" && u.protocol !== "amqps:") throw new BlockedTargetError(url, "scheme", `${u.protocol}// is not an AMQP URL (amqp:// or amqps://)`);
  assertAllowedTarget(new URL(`http://${u.host}/`));
  return u;
}

export function publishOptions(reply: Reply): Options.Publish {
  const p = reply.properties;
  return {
    contentType: p.contentType,
    headers: p.headers,
    ...(p.correlationId !== undefined ? { correlationId: p.correlationId } : {}),
    ...(p.replyTo !== undefined ? { replyTo: p.replyTo } : {}),
    ...(p.messageId !== undefined ? { messageId: p.messageId } : {}),
    ...(p.type !== undefined ? { type: p.type } : {}),
    ...(p.appId !== undefined ? { appId: p.appId } : {}),
    ...(p.priority !== undefined ? { priority: p.priority } : {}),
    ...(p.deliveryMode !== undefined ? { deliveryMode: p.deliveryMode } : {}),
  };
}

/** Publishes and resolves on the broker's confirm. */
export function confirmPublish(channel: ConfirmChannel, reply: Reply): Promise<void> {
  return new Promise((resolve, reject) => {
    try {
      channel.publish(reply.exchange, reply.routingKey, reply.content, publishOptions(reply), (err) => (err ? reject(err) : resolve()));
    } catch (err) {
      reject(err);
    }
  });
}

export async function withChannel<T>(model: ChannelModel, work: (ch: Channel) => Promise<T>): Promise<T> {
  const ch = await model.createChannel();
  ch.on("error", () => {});
  try {
    return await work(ch);
  } finally {
    await ch.close().catch(() => {});
  }
}

/** A queue as it is when it exists; else declared durable. */
export async function ensureQueue(model: ChannelModel, queue: string) {
  const exists = await withChannel(model, (ch) => ch.checkQueue(queue).then(() => true)).catch(() => false);
  if (!exists) await withChannel(model, (ch) => ch.assertQueue(queue, { durable: true }));
}

/** An exchange as it is when it exists; else declared a durable topic exchange (routes exact keys and wildcards). */
export async function ensureExchange(model: ChannelModel, exchange: string) {
  if (exchange === "" || exchange.startsWith("amq.")) return;
  const exists = await withChannel(model, (ch) => ch.checkExchange(exchange).then(() => true)).catch(() => false);
  if (!exists) await withChannel(model, (ch) => ch.assertExchange(exchange, "topic", { durable: true }));
}

// AMQP 0-9-1 method ids (class 90 "tx"), as amqplib's lib/defs.js numbers them; amqplib has no tx API.
const TX_SELECT = 5898250;
const TX_SELECT_OK = 5898251;
const TX_COMMIT = 5898260;
const TX_COMMIT_OK = 5898261;
type RpcChannel = { rpc(method: number, fields: object, expect: number): Promise<unknown> };

/** Publishes and acks made by `work`, committed with others in one transaction. */
export type Transact = (work: () => void) => Promise<void>;

/**
 * Puts a channel in transaction mode and returns how to use it: each `work`
 * (its publishes, acks and rejects) is applied by the broker when the
 * returned promise resolves, all together or not at all. RabbitMQ refuses
 * any command on the channel while a tx.commit is in flight, so work arriving
 * meanwhile waits and goes into the next commit: a busy consumer commits once
 * per batch, not once per message.
 */
export async function transactional(channel: Channel): Promise<Transact> {
  const rpc = channel as unknown as RpcChannel;
  await rpc.rpc(TX_SELECT, {}, TX_SELECT_OK);
  type Pending = { work: () => void; resolve: () => void; reject: (err: unknown) => void };
  let waiting: Pending[] = [];
  let committing = false;
  const flush = () => {
    if (committing || waiting.length === 0) return;
    const batch = waiting;
    waiting = [];
    committing = true;
    const settle = (err?: unknown) => {
      committing = false;
      for (const p of batch) if (err === undefined) p.resolve(); else p.reject(err);
      flush();
    };
    try {
      for (const p of batch) p.work();
    } catch (err) {
      // The channel is closed: nothing of this batch reaches the broker.
      settle(err);
      return;
    }
    rpc.rpc(TX_COMMIT, {}, TX_COMMIT_OK).then(() => settle(), settle);
  };
  return (work) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ work, resolve, reject });
      flush();
    });
}
