// Kafka admin for /api/v1/api-tester/kafka/* and the Brokers screen, on
// kafkajs: a client per call (admin, producer or a throw-away consumer),
// disconnected within the call's deadline, every socket through the SSRF
// guard. Brokers that lack an API (librdkafka's mock cluster has no
// ListGroups, and names a controller it does not list, so CreateTopics and
// DeleteTopics have nowhere to go) answer 502 with that reason; see
// docs/decisions.md, "Message broker admin".
import { randomUUID } from "node:crypto";
import kafkajs, { type Admin, type Consumer, type Producer } from "kafkajs";
import type { z } from "zod";
import type {
  KafkaConsumerGroup,
  KafkaConsumerGroupsInput,
  KafkaCreateTopicInput,
  KafkaDeleteTopicInput,
  KafkaMessage,
  KafkaMetadataInput,
  KafkaPublishInput,
  KafkaReadInput,
  KafkaTopicsInput,
} from "@/server/contracts/broker-admin";
import { AppError } from "@/server/errors";
import type { BlockedTargetError } from "@/server/lib/ssrf";
import type { NamespaceScope } from "../namespace-access";
import { guardedSockets } from "../webhook-kafka";
import { type KafkaTarget, kafkaTarget, blocked } from "./broker-target";
import { reasonOf, toAppError, upstream, withDeadline } from "./upstream-error";

// kafkajs is CommonJS: only the names its lexer detects are named ESM exports.
const { Kafka, logLevel, Partitioners } = kafkajs;

type In<S extends z.ZodType> = z.output<S>;

function clientFor(target: KafkaTarget, guard: { error?: BlockedTargetError }) {
  const { username, password } = target.credentials ?? {};
  return new Kafka({
    clientId: "polymock-broker-admin",
    brokers: target.brokers,
    ssl: target.ssl,
    sasl: username && password ? { mechanism: "plain", username, password } : undefined,
    connectionTimeout: Math.min(target.timeoutMs, 3000),
    requestTimeout: target.timeoutMs,
    // The call has one deadline; retries with backoff would only hide the reason past it.
    retry: { retries: 0 },
    logLevel: logLevel.NOTHING,
    socketFactory: guardedSockets(guard),
  });
}

/** kafkajs errors the caller can act on; everything else is the broker's failure (502). */
function kafkaAnswer(err: unknown): AppError | undefined {
  const type = (err as { type?: string }).type;
  if (type === "TOPIC_ALREADY_EXISTS") return new AppError("conflict", `Kafka: ${reasonOf(err)}`);
  if (type === "UNKNOWN_TOPIC_OR_PARTITION") return new AppError("not_found", `Kafka: ${reasonOf(err)}`);
  if (type === "INVALID_PARTITIONS" || type === "INVALID_REPLICATION_FACTOR" || type === "INVALID_CONFIG" || type === "INVALID_TOPIC_EXCEPTION") {
    return new AppError("validation", `Kafka: ${reasonOf(err)}`);
  }
  return undefined;
}

type Client = Admin | Producer | Consumer;

async function withKafka<C extends Client, T>(target: KafkaTarget, make: (kafka: InstanceType<typeof Kafka>) => C, work: (client: C) => Promise<T>): Promise<T> {
  const what = `Kafka at ${target.brokers.join(",")}`;
  const guard: { error?: BlockedTargetError } = {};
  const client = make(clientFor(target, guard));
  try {
    return await withDeadline(
      target.timeoutMs,
      what,
      async () => {
        await client.connect();
        return work(client);
      },
      () => client.disconnect(),
    );
  } catch (err) {
    if (guard.error) throw blocked(guard.error, "brokers");
    throw toAppError(err, what, "brokers", kafkaAnswer);
  }
}

const withAdmin = <T>(target: KafkaTarget, work: (admin: Admin) => Promise<T>) => withKafka(target, (k) => k.admin({ retry: { retries: 0 } }), work);

export async function kafkaMetadata(scope: NamespaceScope, input: In<typeof KafkaMetadataInput>) {
  const target = await kafkaTarget(scope, input);
  return withAdmin(target, async (admin) => {
    const cluster = await admin.describeCluster();
    const topics = await admin.listTopics();
    const known = cluster.brokers.some((b) => b.nodeId === cluster.controller);
    return { clusterId: cluster.clusterId ?? null, controller: known ? cluster.controller : null, brokers: cluster.brokers.map(({ nodeId, host, port }) => ({ nodeId, host, port })), topicCount: topics.length };
  });
}

export async function listKafkaTopics(scope: NamespaceScope, input: In<typeof KafkaTopicsInput>) {
  const target = await kafkaTarget(scope, input);
  return withAdmin(target, async (admin) => {
    const names = (await admin.listTopics()).filter((t) => input.includeInternal || !t.startsWith("__")).sort();
    if (names.length === 0) return { topics: [], count: 0 };
    const { topics } = await admin.fetchTopicMetadata({ topics: names });
    const out = [];
    for (const t of topics.sort((a, b) => a.name.localeCompare(b.name))) {
      const offsets = await admin.fetchTopicOffsets(t.name);
      const byPartition = new Map(offsets.map((o) => [o.partition, o]));
      const partitionDetails = t.partitions
        .sort((a, b) => a.partitionId - b.partitionId)
        .map((p) => {
          const o = byPartition.get(p.partitionId);
          const low = o?.low ?? "0";
          const high = o?.high ?? "0";
          return { partition: p.partitionId, leader: p.leader, replicas: p.replicas, isr: p.isr, low, high, messages: Number(BigInt(high) - BigInt(low)) };
        });
      out.push({ name: t.name, partitions: partitionDetails.length, messages: partitionDetails.reduce((n, p) => n + p.messages, 0), partitionDetails });
    }
    return { topics: out, count: out.length };
  });
}

export async function createKafkaTopic(scope: NamespaceScope, input: In<typeof KafkaCreateTopicInput>) {
  const target = await kafkaTarget(scope, input);
  return withAdmin(target, async (admin) => {
    const configEntries = Object.entries(input.configEntries ?? {}).map(([name, value]) => ({ name, value }));
    const created = await admin.createTopics({
      topics: [{ topic: input.topic, numPartitions: input.numPartitions, replicationFactor: input.replicationFactor ?? -1, configEntries }],
      waitForLeaders: true,
      timeout: target.timeoutMs,
    });
    if (!created) throw new AppError("conflict", `Kafka: topic '${input.topic}' already exists`);
    return { ok: true as const, topic: input.topic };
  });
}

export async function deleteKafkaTopic(scope: NamespaceScope, input: In<typeof KafkaDeleteTopicInput>) {
  const target = await kafkaTarget(scope, input);
  return withAdmin(target, async (admin) => {
    // DeleteTopics of an unknown name is an error on some brokers and silent on others: ask first.
    if (!(await admin.listTopics()).includes(input.topic)) throw new AppError("not_found", `Kafka: topic '${input.topic}' not found`);
    await admin.deleteTopics({ topics: [input.topic], timeout: target.timeoutMs });
    return { ok: true as const, topic: input.topic };
  });
}

const isUnsupported = (err: unknown) => (err as { name?: string }).name === "KafkaJSServerDoesNotSupportApiKey";

export async function listKafkaConsumerGroups(scope: NamespaceScope, input: In<typeof KafkaConsumerGroupsInput>) {
  const target = await kafkaTarget(scope, input);
  return withAdmin(target, async (admin) => {
    let ids = input.groups;
    if (!ids) {
      try {
        ids = (await admin.listGroups()).groups.map((g) => g.groupId).sort();
      } catch (err) {
        if (isUnsupported(err)) throw upstream(`Kafka at ${target.brokers.join(",")}`, "the broker does not support listing consumer groups (ListGroups); name them in `groups`");
        throw err;
      }
    }
    if (ids.length === 0) return { groups: [], count: 0 };
    const described = new Map<string, { state: string; protocolType: string | null; members: number | null }>();
    try {
      for (const g of (await admin.describeGroups(ids)).groups) described.set(g.groupId, { state: g.state, protocolType: g.protocolType || null, members: g.members.length });
    } catch {
      // Offsets and lag still tell most of the story on a broker that cannot describe groups
      // (the mock cluster lacks DescribeGroups; kafkajs then reports an empty broker pool).
    }
    const highs = new Map<string, Map<number, string>>();
    const highOf = async (topic: string) => {
      if (!highs.has(topic)) highs.set(topic, new Map((await admin.fetchTopicOffsets(topic)).map((o) => [o.partition, o.high])));
      return highs.get(topic)!;
    };
    const groups: z.infer<typeof KafkaConsumerGroup>[] = [];
    let allTopics: string[] | undefined;
    for (const groupId of ids) {
      let committed = await admin.fetchOffsets({ groupId });
      if (committed.length === 0) {
        // Brokers that do not answer "all topics" of OffsetFetch (the mock cluster) are asked topic by topic.
        allTopics ??= (await admin.listTopics()).filter((t) => !t.startsWith("__"));
        const asked = allTopics.length ? await admin.fetchOffsets({ groupId, topics: allTopics }) : [];
        committed = asked.filter((t) => t.partitions.some((p) => p.offset !== "-1"));
      }
      const topics = [];
      for (const t of committed.sort((a, b) => a.topic.localeCompare(b.topic))) {
        const high = await highOf(t.topic);
        const partitions = t.partitions
          .sort((a, b) => a.partition - b.partition)
          .map((p) => {
            const h = high.get(p.partition) ?? "0";
            const has = p.offset !== "-1";
            return { partition: p.partition, committed: has ? p.offset : null, high: h, lag: has ? Math.max(0, Number(BigInt(h) - BigInt(p.offset))) : null };
          });
        topics.push({ topic: t.topic, partitions, lag: partitions.reduce((n, p) => n + (p.lag ?? 0), 0) });
      }
      const d = described.get(groupId);
      groups.push({ groupId, state: d?.state ?? "Unknown", protocolType: d?.protocolType ?? null, members: d?.members ?? null, topics, totalLag: topics.reduce((n, t) => n + t.lag, 0) });
    }
    return { groups, count: groups.length };
  });
}

export async function publishKafkaMessage(scope: NamespaceScope, input: In<typeof KafkaPublishInput>) {
  const target = await kafkaTarget(scope, input);
  return withKafka(
    target,
    (k) => k.producer({ allowAutoTopicCreation: true, createPartitioner: Partitioners.DefaultPartitioner, retry: { retries: 0 } }),
    async (producer) => {
      const [meta] = await producer.send({
        topic: input.topic,
        acks: -1,
        timeout: target.timeoutMs,
        messages: [{ key: input.key ?? null, value: input.value, headers: input.headers, partition: input.partition }],
      });
      return { ok: true as const, topic: input.topic, partition: meta.partition, offset: meta.baseOffset ?? meta.offset ?? "0" };
    },
  );
}

/**
 * Peek: a consumer in a throw-away group that commits nothing, seeks each
 * partition to its newest (or oldest) `limit` records and stops once every
 * partition has reached the end it had when the call began.
 */
export async function readKafkaMessages(scope: NamespaceScope, input: In<typeof KafkaReadInput>) {
  const target = await kafkaTarget(scope, input);
  const ends = await withAdmin(target, async (admin) => {
    if (!(await admin.listTopics()).includes(input.topic)) throw new AppError("not_found", `Kafka: topic '${input.topic}' not found`);
    return admin.fetchTopicOffsets(input.topic);
  });
  const limit = BigInt(input.limit);
  const plan = ends
    .map((o) => {
      const low = BigInt(o.low);
      const high = BigInt(o.high);
      const start = input.from === "latest" ? (high - limit > low ? high - limit : low) : low;
      const stop = input.from === "latest" ? high : start + limit < high ? start + limit : high;
      return { partition: o.partition, start, stop };
    })
    .filter((p) => p.stop > p.start);
  if (plan.length === 0) return { messages: [], count: 0 };

  const messages: z.infer<typeof KafkaMessage>[] = [];
  const remaining = new Set(plan.map((p) => p.partition));
  const stopAt = new Map(plan.map((p) => [p.partition, p.stop]));
  let done: () => void = () => {};
  const finished = new Promise<void>((resolve) => (done = resolve));
  return withKafka(
    target,
    (k) => k.consumer({ groupId: `polymock-peek-${randomUUID()}`, retry: { retries: 0 }, maxWaitTimeInMs: 200 }),
    async (consumer) => {
      await consumer.subscribe({ topic: input.topic, fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        eachMessage: async ({ partition, message }) => {
          const offset = BigInt(message.offset);
          const stop = stopAt.get(partition);
          if (stop === undefined || offset >= stop) return;
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(message.headers ?? {})) headers[name] = Array.isArray(value) ? value.map(String).join(", ") : String(value ?? "");
          messages.push({ partition, offset: message.offset, timestamp: message.timestamp, key: message.key?.toString("utf8") ?? null, value: message.value?.toString("utf8") ?? null, headers });
          if (offset + 1n >= stop) {
            remaining.delete(partition);
            if (remaining.size === 0) done();
          }
        },
      });
      for (const p of plan) consumer.seek({ topic: input.topic, partition: p.partition, offset: p.start.toString() });
      // A compacted topic has gaps below its end: what arrived before the deadline is the answer.
      const enough = setTimeout(done, Math.max(500, target.timeoutMs - 1000));
      await finished;
      clearTimeout(enough);
      messages.sort((a, b) => a.partition - b.partition || Number(BigInt(a.offset) - BigInt(b.offset)));
      return { messages, count: messages.length };
    },
  );
}
