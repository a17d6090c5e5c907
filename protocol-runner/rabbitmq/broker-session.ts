// One rabbitmq protocol server's life on its broker: a connection with one
// transactional channel, one consumer per source queue its mocks name, and a
// reconnect with back-off (1 s doubling to 30 s) whenever the connection or
// channel is lost. A reply and the ack of its request are committed in one
// transaction (group-committed across messages), so the broker applies both
// or neither: a connection cut at any point neither loses a request (unacked
// ones go back to their queue) nor answers one twice. Replies to another
// broker (outputURL) are confirmed there before the ack; a redelivered
// request whose such reply was confirmed is acked without a second reply.
// Semantics: docs/decisions.md, "Protocol runner", RabbitMQ.
import { ReconnectingSession } from "../reconnecting-session";
import { createHash } from "node:crypto";
import { connect, type Channel, type ChannelModel, type ConsumeMessage } from "amqplib";
import { sourceKey, type RabbitSource } from "@/server/engine/protocols/rabbitmq";
import { logger } from "@/server/lib/logger";
import { brokerErrorReason, checkBrokerUrl, coalesceWrites, CONNECT_OPTIONS, ensureExchange, ensureQueue, publishOptions, transactional, withChannel, type Transact } from "./amqp";
import { serveDelivery, type Reply } from "./exchange";
import { OutputBrokers } from "./output-brokers";

export interface SessionConfig {
  namespace: string;
  serverName: string;
  url: string;
  credentials: { username?: string; password?: string } | null;
  /** The sources to consume now (re-read on refresh()). */
  sources(): Promise<RabbitSource[]>;
  onState(state: "listening" | "error", reason: string | null): void;
  backoff?: { firstMs: number; maxMs: number };
}

/** Unacked requests the broker hands one consumer channel at a time. */
export const PREFETCH = 32;
/** Confirmed replies remembered per server, to ack (not answer again) their redelivered requests. */
const REPLIED_KEEP = 10_000;
/** Queues the runner declares for exchange-only mocks vanish after a day with no consumer. */
const OWN_QUEUE_EXPIRES_MS = 24 * 60 * 60 * 1000;

/** The queue a source is consumed from: its own, or the runner's durable queue bound to the exchange. */
export function queueOf(source: RabbitSource, namespace: string, serverName: string): string {
  if (source.kind === "queue") return source.queue;
  const name = `polymock.${namespace}.${serverName}.${source.exchange}.${source.routingKey}`;
  // AMQP short strings hold 255 bytes.
  return Buffer.byteLength(name) <= 200 ? name : `polymock.${namespace.slice(0, 60)}.${createHash("sha256").update(name).digest("hex").slice(0, 32)}`;
}

/** The broker URL with the stored credentials in it (they win over any in the URL). */
function urlWithCredentials(url: string, credentials: SessionConfig["credentials"]): string {
  if (!credentials?.username && !credentials?.password) return url;
  const u = new URL(url);
  if (credentials.username) u.username = encodeURIComponent(credentials.username);
  if (credentials.password) u.password = encodeURIComponent(credentials.password);
  return u.toString();
}

interface Live {
  model: ChannelModel;
  /** In transaction mode: a reply and the ack of its request are committed together. */
  channel: Channel;
  transact: Transact;
  /** Consumer tags by source key. */
  consumers: Map<string, string>;
  /** Output queues declared on this connection. */
  declared: Set<string>;
}

export class BrokerSession extends ReconnectingSession {
  private live?: Live;
  private replied = new Set<string>();
  private outputs = new OutputBrokers();
  private readonly log = logger().child({ module: "rabbitmq" });
  private sourceErrors = new Map<string, string>();

  constructor(private readonly config: SessionConfig) {
    super(config);
  }

  /** Consumes what the mocks name now (after a mock change); resolves once done. */
  refresh(): Promise<void> {
    return this.serial(() => this.syncConsumers());
  }

  async close() {
    await this.stopRetrying();
    const live = this.live;
    this.live = undefined;
    await live?.model.close().catch(() => {});
    await this.outputs.close();
  }

  private reportListening() {
    const problems = [...this.sourceErrors.values()];
    this.report("listening", problems.length ? `connected; not consumed: ${problems.join("; ")}` : null);
  }

  protected connectNow(): Promise<void> {
    return this.serial(async () => {
      if (this.closed || this.live) return;
      let opened: ChannelModel | undefined;
      try {
        checkBrokerUrl(this.config.url);
        const model = (opened = await connect(urlWithCredentials(this.config.url, this.config.credentials), CONNECT_OPTIONS));
        coalesceWrites(model);
        model.on("error", (err) => this.log.warn({ err, serverName: this.config.serverName }, "rabbitmq connection error"));
        const channel = await model.createChannel();
        channel.on("error", (err) => this.log.warn({ err, serverName: this.config.serverName }, "rabbitmq channel error"));
        await channel.prefetch(PREFETCH);
        const transact = await transactional(channel);
        const live: Live = { model, channel, transact, consumers: new Map(), declared: new Set() };
        const lost = (why: string) => () => {
          if (this.live !== live) return;
          this.live = undefined;
          void model.close().catch(() => {});
          if (this.closed) return;
          this.report("error", `${why}; reconnecting`);
          this.schedule();
        };
        // A cut connection closes the channel first: one reason for both.
        model.on("close", lost("connection to the broker lost"));
        channel.on("close", lost("connection to the broker lost"));
        this.live = live;
        this.connected();
        await this.syncConsumers();
      } catch (err) {
        void opened?.close().catch(() => {});
        this.live = undefined;
        const reason = brokerErrorReason(err, this.config.url);
        this.log.warn({ serverName: this.config.serverName, reason }, "rabbitmq: cannot connect");
        this.report("error", reason);
        this.schedule();
      }
    });
  }

  /** Starts consumers for new sources, cancels those no mock names any more. */
  private async syncConsumers() {
    const live = this.live;
    if (!live) return;
    const sources = await this.config.sources();
    const wanted = new Map(sources.map((s) => [sourceKey(s), s]));
    for (const [key, tag] of live.consumers) {
      if (wanted.has(key)) continue;
      live.consumers.delete(key);
      await live.channel.cancel(tag).catch(() => {});
    }
    for (const key of this.sourceErrors.keys()) if (!wanted.has(key)) this.sourceErrors.delete(key);
    for (const [key, source] of wanted) {
      if (live.consumers.has(key)) continue;
      const queue = queueOf(source, this.config.namespace, this.config.serverName);
      try {
        await this.declareSource(live.model, source, queue);
        const { consumerTag } = await live.channel.consume(queue, (msg) => this.onMessage(live, key, queue, msg));
        live.consumers.set(key, consumerTag);
        this.sourceErrors.delete(key);
      } catch (err) {
        if (this.live !== live) return;
        this.sourceErrors.set(key, `${queue}: ${(err as Error).message}`);
        this.log.warn({ err, serverName: this.config.serverName, queue }, "rabbitmq: cannot consume");
      }
    }
    if (this.live === live) this.reportListening();
  }

  /**
   * A queue that exists is used as it is (its durability, dead-letter
   * exchange and other arguments are the owner's); a missing one is declared
   * durable. Checks run on a throwaway channel: a failed passive declare
   * closes the channel it ran on.
   */
  private async declareSource(model: ChannelModel, source: RabbitSource, queue: string) {
    if (source.kind === "exchange") {
      await ensureExchange(model, source.exchange);
      await withChannel(model, async (ch) => {
        await ch.assertQueue(queue, { durable: true, arguments: { "x-expires": OWN_QUEUE_EXPIRES_MS } });
        await ch.bindQueue(queue, source.exchange, source.routingKey);
      });
      return;
    }
    await ensureQueue(model, queue);
    if (source.exchange) {
      await ensureExchange(model, source.exchange);
      await withChannel(model, (ch) => ch.bindQueue(queue, source.exchange!, source.routingKey));
    }
  }

  private onMessage(live: Live, key: string, queue: string, msg: ConsumeMessage | null) {
    if (!msg) {
      // The broker cancelled the consumer (its queue was deleted): set it up again.
      live.consumers.delete(key);
      void this.refresh();
      return;
    }
    void this.handle(live, key, queue, msg).catch((err) => {
      this.log.error({ err, serverName: this.config.serverName, queue }, "rabbitmq: message failed");
      void settle(live, msg, "reject");
    });
  }

  private async handle(live: Live, key: string, queue: string, msg: ConsumeMessage) {
    const props = msg.properties;
    const identity = props.messageId ? `m:${props.messageId}` : props.correlationId ? `c:${props.correlationId}` : undefined;
    if (msg.fields.redelivered && identity && this.replied.has(identity)) {
      await settle(live, msg, "ack");
      return;
    }
    const outcome = await serveDelivery(
      { namespace: this.config.namespace, serverName: this.config.serverName },
      {
        sourceKey: key,
        queue,
        content: msg.content,
        exchange: msg.fields.exchange,
        routingKey: msg.fields.routingKey,
        contentType: props.contentType,
        headers: props.headers,
        correlationId: props.correlationId,
        replyTo: props.replyTo,
        messageId: props.messageId,
      },
    );
    if (outcome.kind !== "matched") {
      // Undefined request: rejected without requeue, so a queue with a dead-letter exchange keeps it there.
      await settle(live, msg, "reject");
      return;
    }
    const reply = outcome.reply;
    let publish: (() => void) | undefined;
    try {
      if (reply?.url) {
        // Another broker: its confirm first, then the ack (at least once: a cut between them answers twice).
        await this.outputs.publish(reply);
        if (identity) this.remember(identity);
      } else if (reply) {
        await this.declareOutput(live, reply);
        publish = () => live.channel.publish(reply.exchange, reply.routingKey, reply.content, publishOptions(reply));
      }
    } catch (err) {
      if (this.live !== live || isChannelClosed(err)) return; // redelivered after the reconnect
      this.log.warn({ err, serverName: this.config.serverName, mockId: outcome.mockId }, "rabbitmq: reply not published");
      await settle(live, msg, "reject");
      return;
    }
    // The reply and the ack in one commit: both or neither, so a cut connection neither loses nor doubles a reply.
    if (await settle(live, msg, "ack", publish)) outcome.afterSend?.();
  }

  private remember(identity: string) {
    this.replied.add(identity);
    if (this.replied.size > REPLIED_KEEP) this.replied.delete(this.replied.values().next().value!);
  }

  /** An output queue is declared (and bound to the output exchange) once per connection. */
  private async declareOutput(live: Live, reply: Reply) {
    if (!reply.queue || live.declared.has(outputKey(reply))) return;
    await ensureQueue(live.model, reply.queue);
    if (reply.exchange) await withChannel(live.model, (ch) => ch.bindQueue(reply.queue!, reply.exchange, reply.routingKey));
    live.declared.add(outputKey(reply));
  }
}

const outputKey = (reply: Reply) => `${reply.queue}\u0000${reply.exchange}\u0000${reply.routingKey}`;

function isChannelClosed(err: unknown): boolean {
  return /closed/i.test((err as Error)?.message ?? "");
}

/**
 * Acks (with the reply's publish) or rejects on the channel the message came on, and commits; false when
 * the channel closed first (the broker then requeues the message and drops
 * the uncommitted reply, and the message is served again on the next connection).
 */
async function settle(live: Live, msg: ConsumeMessage, how: "ack" | "reject", publish?: () => void): Promise<boolean> {
  try {
    await live.transact(() => {
      publish?.();
      if (how === "ack") live.channel.ack(msg);
      else live.channel.nack(msg, false, false);
    });
    return true;
  } catch {
    return false;
  }
}
