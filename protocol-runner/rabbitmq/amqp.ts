// The AMQP pieces the rabbitmq module's broker session and output brokers
// share: the outbound check of a broker URL, errors as reasons for the
// protocol server's row, declare-if-missing of queues and exchanges, and a
// publish that resolves on the broker's confirm.
import type { Channel, ChannelModel, ConfirmChannel, Options } from "amqplib";
import { assertAllowedTarget, BlockedTargetError } from "@/server/lib/ssrf";
import type { Reply } from "./exchange";

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

export function confirmPublish(channel: ConfirmChannel, reply: Reply): Promise<void> {
  const p = reply.properties;
  const options: Options.Publish = {
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
  return new Promise((resolve, reject) => {
    try {
      channel.publish(reply.exchange, reply.routingKey, reply.content, options, (err) => (err ? reject(err) : resolve()));
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
