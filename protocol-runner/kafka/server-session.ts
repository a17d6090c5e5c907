// One kafka protocol server's life on its cluster: a kafkajs client, one
// reply producer, and one consumer per consumer group its mocks name (the
// server's own group for mocks naming none), subscribed to the topics of that
// group's mocks. Any loss (brokers unreachable, a consumer crashed) closes
// everything and reconnects with back-off (1 s doubling to 30 s); the
// protocol server shows the reason meanwhile.
//
// Commit protocol, per partition and chunk of records (docs/decisions.md,
// "Protocol runner", Kafka): serve each record, produce the chunk's replies
// (acks from all in-sync replicas), write their offsets to the reply ledger,
// then commit the offset after the chunk. A cut before the produce is acked
// answers the records again after the restart (nothing lost); a cut after
// the ledger write finds them there and commits without a second reply.
import { ReconnectingSession } from "../reconnecting-session";
import type { Consumer, EachBatchPayload, ISocketFactory, Producer } from "kafkajs";
import kafkajs from "kafkajs";
import { logger } from "@/server/lib/logger";
import { BlockedTargetError } from "@/server/lib/ssrf";
import { checkBrokers, kafkaClient, kafkaErrorReason, type KafkaClient } from "./clients";
import { serveRecord, type Reply } from "./exchange";
import { OutputClusters } from "./output-clusters";
import { forgetBelow, recordReplied, repliedOffsets, type PartitionRef } from "./reply-ledger";

const { Partitioners } = kafkajs;

/** Records served between two produce+commit steps of one partition. */
export const CHUNK = 200;

export interface SessionConfig {
  serverId: string;
  namespace: string;
  serverName: string;
  brokers: string[];
  credentials: { username?: string; password?: string } | null;
  options: Record<string, unknown>;
  /** Topics per consumer group now (re-read on refresh()); the key "" is the server's own group. */
  subscriptions(): Promise<Map<string, string[]>>;
  onState(state: "listening" | "error", reason: string | null): void;
  backoff?: { firstMs: number; maxMs: number };
  wrapSockets?: (factory: ISocketFactory) => ISocketFactory;
  fetchMaxWaitMs?: number;
}

/**
 * How long a fetch waits for records. A real broker answers as soon as
 * records arrive, so this only bounds idle polling; librdkafka's mock cluster
 * waits it out, so there it is the request→reply latency.
 */
export const FETCH_MAX_WAIT_MS = Number(process.env.KAFKA_FETCH_MAX_WAIT_MS ?? 500);

/** The server's own group: one per namespace and server, so every runner replica shares its records. */
export const ownGroupId = (namespace: string, serverName: string) => `polymock.${namespace}.${serverName}`;

interface GroupConsumer {
  consumer: Consumer;
  topics: string;
}

interface Live {
  client: KafkaClient;
  producer: Producer;
  groups: Map<string, GroupConsumer>;
}

export class KafkaSession extends ReconnectingSession {
  private live?: Live;
  private outputs: OutputClusters;
  private readonly log = logger().child({ module: "kafka" });
  private blocked: { error?: BlockedTargetError } = {};

  constructor(private readonly config: SessionConfig) {
    super(config);
    this.outputs = new OutputClusters(config.wrapSockets);
  }

  /** Consumes what the mocks name now (after a mock change); resolves once done. */
  refresh(): Promise<void> {
    return this.serial(async () => {
      const live = this.live;
      if (!live) return;
      try {
        await this.syncGroups(live);
      } catch (err) {
        this.lose(live, kafkaErrorReason(err, this.config.brokers, this.blocked));
      }
    });
  }

  async close() {
    await this.stopRetrying();
    const live = this.live;
    this.live = undefined;
    if (live) await shutdown(live);
    await this.outputs.close();
  }

  protected connectNow(): Promise<void> {
    return this.serial(async () => {
      if (this.closed || this.live) return;
      this.blocked = {};
      let live: Live | undefined;
      try {
        checkBrokers(this.config.brokers);
        const client = kafkaClient(
          { clientId: `polymock-${this.config.serverName}`, brokers: this.config.brokers, credentials: this.config.credentials, options: this.config.options, wrapSockets: this.config.wrapSockets },
          this.blocked,
        );
        // Not idempotent: librdkafka's mock cluster (the tests' broker) cannot give a producer id; the reply ledger makes replies once instead.
        const producer = client.producer({ allowAutoTopicCreation: true, createPartitioner: Partitioners.DefaultPartitioner });
        live = { client, producer, groups: new Map() };
        await producer.connect();
        this.live = live;
        await this.syncGroups(live);
        this.connected();
        this.report("listening", null);
      } catch (err) {
        const reason = kafkaErrorReason(err, this.config.brokers, this.blocked);
        this.log.warn({ serverName: this.config.serverName, reason }, "kafka: cannot connect");
        if (live) {
          this.live = undefined;
          await shutdown(live);
        }
        this.report("error", reason);
        this.schedule();
      }
    });
  }

  /** Called from consumer crash events: drops the live state and reconnects later. */
  private lose(live: Live, reason: string) {
    if (this.live !== live) return;
    this.live = undefined;
    void shutdown(live);
    if (this.closed) return;
    this.log.warn({ serverName: this.config.serverName, reason }, "kafka: connection lost");
    this.report("error", `${reason}; reconnecting`);
    this.schedule();
  }

  /** One consumer per group; a group whose topics changed is consumed anew (kafkajs cannot subscribe a running consumer). */
  private async syncGroups(live: Live) {
    const wanted = await this.config.subscriptions();
    for (const [group, current] of live.groups) {
      const topics = wanted.get(group);
      if (topics && topics.slice().sort().join("\u0000") === current.topics) continue;
      live.groups.delete(group);
      await current.consumer.disconnect().catch(() => {});
    }
    for (const [group, topics] of wanted) {
      if (live.groups.has(group) || topics.length === 0) continue;
      const groupId = group || ownGroupId(this.config.namespace, this.config.serverName);
      const consumer = live.client.consumer({
        groupId,
        allowAutoTopicCreation: true,
        // A runner cut off without leaving its group holds its partitions until this lapses: shorter than kafkajs's 30 s.
        sessionTimeout: 10_000,
        heartbeatInterval: 1000,
        maxWaitTimeInMs: this.config.fetchMaxWaitMs ?? FETCH_MAX_WAIT_MS,
        // Crashes reconnect the whole session with back-off instead of kafkajs restarting in a loop.
        retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 1000, restartOnFailure: async () => false },
      });
      live.groups.set(group, { consumer, topics: topics.slice().sort().join("\u0000") });
      consumer.on(consumer.events.CRASH, (e) => {
        if (live.groups.get(group)?.consumer !== consumer) return;
        this.lose(live, kafkaErrorReason(e.payload.error, this.config.brokers, this.blocked));
      });
      await consumer.connect();
      for (const topic of topics) await consumer.subscribe({ topic, fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: 4,
        eachBatch: (payload) => this.onBatch(live, group, groupId, payload),
      });
    }
  }

  private async onBatch(live: Live, group: string, groupId: string, { batch, resolveOffset, heartbeat, commitOffsetsIfNecessary, isRunning, isStale }: EachBatchPayload) {
    const ref: PartitionRef = { serverId: this.config.serverId, groupId, topic: batch.topic, partition: batch.partition };
    const server = { namespace: this.config.namespace, serverName: this.config.serverName };
    const messages = batch.messages;
    const already = await repliedOffsets(ref, messages.map((m) => m.offset));
    for (let i = 0; i < messages.length; i += CHUNK) {
      if (!isRunning() || isStale()) return;
      const chunk = messages.slice(i, i + CHUNK);
      const replies: { offset: string; reply: Reply; afterSend?: () => void }[] = [];
      const answered: (() => void)[] = [];
      for (const m of chunk) {
        if (already.has(m.offset)) continue;
        const outcome = await serveRecord(server, {
          group: group || undefined,
          topic: batch.topic,
          partition: batch.partition,
          offset: m.offset,
          key: m.key ?? null,
          value: m.value ?? null,
          headers: m.headers,
        });
        if (outcome.kind !== "matched") continue;
        if (outcome.reply) replies.push({ offset: m.offset, reply: outcome.reply, afterSend: outcome.afterSend });
        else if (outcome.afterSend) answered.push(outcome.afterSend);
      }
      // A failure from here on throws: the consumer crashes, the session reconnects, and the uncommitted records come again.
      await this.produce(live, replies.map((r) => r.reply));
      await recordReplied(ref, replies.map((r) => r.offset));
      for (const r of replies) r.afterSend?.();
      for (const a of answered) a();
      const next = (BigInt(chunk[chunk.length - 1].offset) + 1n).toString();
      // The batch's own commit, not consumer.commitOffsets: that one reports success without committing once the consumer is stopping, and the ledger rows must outlive an uncommitted offset.
      await commitOffsetsIfNecessary({ topics: [{ topic: batch.topic, partitions: [{ partition: batch.partition, offset: next }] }] });
      if (replies.length || already.size) await forgetBelow(ref, next).catch((err) => this.log.warn({ err }, "kafka: ledger cleanup failed"));
      for (const m of chunk) resolveOffset(m.offset);
      await heartbeat();
    }
  }

  /** Replies in their order, one request per target cluster. */
  private async produce(live: Live, replies: Reply[]) {
    if (replies.length === 0) return;
    const byTarget = new Map<string, Reply[]>();
    for (const r of replies) {
      const key = r.brokers?.join(",") ?? "";
      let list = byTarget.get(key);
      if (!list) byTarget.set(key, (list = []));
      list.push(r);
    }
    for (const [target, list] of byTarget) {
      const messages = list.map((r) => ({ topic: r.topic, messages: [{ key: r.key, value: r.value, headers: r.headers }] }));
      if (target === "") await live.producer.sendBatch({ acks: -1, topicMessages: messages });
      else await this.outputs.send(list[0].brokers!, messages);
    }
  }
}

async function shutdown(live: Live) {
  for (const g of live.groups.values()) await g.consumer.disconnect().catch(() => {});
  live.groups.clear();
  await live.producer.disconnect().catch(() => {});
}
