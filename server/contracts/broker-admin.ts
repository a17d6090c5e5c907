// Message broker admin (/api/v1/api-tester/kafka/*, /api/v1/api-tester/rabbitmq/*):
// look into and change a Kafka cluster or a RabbitMQ broker named by a protocol
// server of the namespace (`serverName`) or given inline (`brokers`, `url`).
// Shapes and rules: docs/decisions.md, "Message broker admin".
import { z } from "zod";
import { NamespaceName } from "./common";
import { endpoint } from "./endpoint";
import { ServerCredentials, ServerName } from "./protocol-servers";

const Broker = z.string().min(1).max(300).regex(/^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/, "host:port");
const TimeoutMs = z.number().int().min(500, "at least 500").max(30_000, "at most 30000").default(5000).describe("how long the whole call may take; the broker's answer after that is a 502");

/** Where a call goes: a protocol server of the namespace, or an inline address. Exactly one of them. */
const Target = {
  namespace: NamespaceName.optional().describe("the namespace (default sandbox); like ?namespace="),
  serverName: ServerName.optional().describe("a protocol server of the namespace (its address and stored credentials are used)"),
  credentials: ServerCredentials.optional().describe("inline target only: username and password"),
  timeoutMs: TimeoutMs,
};

function oneTarget(field: "brokers" | "url") {
  // Typed loosely: the generic object schemas' outputs are only known per endpoint.
  return (raw: object, ctx: z.RefinementCtx) => {
    const value = raw as { serverName?: string; brokers?: string[]; url?: string; credentials?: unknown };
    const inline = field === "brokers" ? value.brokers?.length : value.url;
    if (value.serverName && inline) ctx.addIssue({ code: "custom", path: [field], message: "give serverName or " + field + ", not both" });
    if (!value.serverName && !inline) ctx.addIssue({ code: "custom", path: ["serverName"], message: `required: a protocol server's name, or an inline ${field}` });
    if (value.serverName && value.credentials) ctx.addIssue({ code: "custom", path: ["credentials"], message: "the protocol server's stored credentials are used; give credentials only with an inline " + field });
  };
}

// ---------------------------------------------------------------- Kafka

const KafkaTarget = {
  ...Target,
  brokers: z.array(Broker).min(1).max(50).optional().describe("inline bootstrap brokers, host:port"),
  ssl: z.boolean().optional().describe("inline target only: TLS to the brokers (a protocol server says so in options.ssl)"),
};
const kafkaBody = <S extends z.ZodRawShape>(shape: S) => z.object({ ...KafkaTarget, ...shape }).strict().superRefine(oneTarget("brokers"));

const TopicName = z.string().min(1).max(249).regex(/^[A-Za-z0-9._-]+$/, "letters, digits, '.', '_' and '-'");
/** Offsets are 64-bit: strings, like Kafka clients give them. */
const Offset = z.string().regex(/^-?\d+$/);

export const KafkaMetadataInput = kafkaBody({});
export const KafkaMetadata = z.object({
  clusterId: z.string().nullable(),
  controller: z.number().int().nullable().describe("node id of the controller; null when the cluster names none it lists"),
  brokers: z.array(z.object({ nodeId: z.number().int(), host: z.string(), port: z.number().int() })),
  topicCount: z.number().int(),
});

export const KafkaTopicsInput = kafkaBody({ includeInternal: z.boolean().default(false).describe("also list topics whose name starts with '__' (__consumer_offsets)") });
const PartitionView = z.object({
  partition: z.number().int(),
  leader: z.number().int(),
  replicas: z.array(z.number().int()),
  isr: z.array(z.number().int()),
  low: Offset.describe("earliest offset still stored"),
  high: Offset.describe("the next offset to be written"),
  messages: z.number().int().describe("high - low: the messages stored"),
});
export const KafkaTopic = z.object({ name: z.string(), partitions: z.number().int(), messages: z.number().int(), partitionDetails: z.array(PartitionView) });
export const KafkaTopicList = z.object({ topics: z.array(KafkaTopic), count: z.number().int() });

export const KafkaCreateTopicInput = kafkaBody({
  topic: TopicName,
  numPartitions: z.number().int().min(1).max(1000).default(1),
  replicationFactor: z.number().int().min(1).max(100).optional().describe("absent: the broker's default.replication.factor"),
  configEntries: z.record(z.string().max(200), z.string().max(1000)).optional().describe("topic configuration, e.g. {\"retention.ms\": \"60000\"}"),
});
export const KafkaTopicResult = z.object({ ok: z.literal(true), topic: z.string() });
export const KafkaDeleteTopicInput = kafkaBody({ topic: TopicName });

export const KafkaConsumerGroupsInput = kafkaBody({
  groups: z.array(z.string().min(1).max(255)).max(100).optional().describe("look at these groups only; needed on brokers that cannot list groups"),
});
export const KafkaConsumerGroup = z.object({
  groupId: z.string(),
  state: z.string().describe("Stable, Empty, PreparingRebalance…; 'Unknown' when the broker cannot describe groups"),
  protocolType: z.string().nullable(),
  members: z.number().int().nullable(),
  topics: z.array(
    z.object({
      topic: z.string(),
      lag: z.number().int().describe("the sum over partitions with a committed offset"),
      partitions: z.array(z.object({ partition: z.number().int(), committed: Offset.nullable().describe("null: nothing committed"), high: Offset, lag: z.number().int().nullable() })),
    }),
  ),
  totalLag: z.number().int(),
});
export const KafkaConsumerGroupList = z.object({ groups: z.array(KafkaConsumerGroup), count: z.number().int() });

export const KafkaPublishInput = kafkaBody({
  topic: TopicName,
  key: z.string().max(10_000).nullable().optional(),
  value: z.string().max(1_000_000).describe("the record's value, as text"),
  headers: z.record(z.string().max(200), z.string().max(10_000)).optional(),
  partition: z.number().int().min(0).optional().describe("absent: the default partitioner (by key)"),
});
export const KafkaPublishResult = z.object({ ok: z.literal(true), topic: z.string(), partition: z.number().int(), offset: Offset });

export const KafkaReadInput = kafkaBody({
  topic: TopicName,
  limit: z.number().int().min(1).max(100).default(10).describe("at most this many messages per partition"),
  from: z.enum(["latest", "earliest"]).default("latest").describe("latest: the newest `limit` of each partition; earliest: the oldest"),
});
export const KafkaMessage = z.object({
  partition: z.number().int(),
  offset: Offset,
  timestamp: z.string().describe("milliseconds since the epoch, as Kafka gives it"),
  key: z.string().nullable(),
  value: z.string().nullable(),
  headers: z.record(z.string(), z.string()),
});
export const KafkaReadResult = z.object({ messages: z.array(KafkaMessage), count: z.number().int() });

// ---------------------------------------------------------------- RabbitMQ

const AmqpUrl = z
  .string()
  .max(2000)
  .url()
  .refine((u) => /^amqps?:\/\//i.test(u), "an amqp:// or amqps:// URL");
const ManagementUrl = z
  .string()
  .max(2000)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), "an http:// or https:// URL");
const RabbitTarget = {
  ...Target,
  url: AmqpUrl.optional().describe("inline broker URL, amqp://user:pass@host:5672/vhost"),
  managementUrl: ManagementUrl.optional().describe("the management HTTP API; default: the protocol server's options.managementUrl, else http://<amqp host>:15672"),
};
const rabbitBody = <S extends z.ZodRawShape>(shape: S) => z.object({ ...RabbitTarget, ...shape }).strict().superRefine(oneTarget("url"));

const EntityName = z.string().max(255).regex(/^[^\0]*$/, "no NUL characters");
const Arguments = z.record(z.string().max(255), z.union([z.string(), z.number(), z.boolean()])).optional().describe("x-arguments, e.g. {\"x-message-ttl\": 60000}");

/** Lists: through the management API; without it, only the `names` given are checked over AMQP. */
const Names = z.array(EntityName.min(1)).max(100).optional().describe("without the management API: check these names over AMQP");
export const Source = z.enum(["management", "amqp"]).describe("management: the management HTTP API answered; amqp: what AMQP alone can tell");

export const RabbitMetadataInput = rabbitBody({});
export const RabbitMetadata = z.object({
  source: Source,
  product: z.string().nullable(),
  version: z.string().nullable(),
  platform: z.string().nullable(),
  clusterName: z.string().nullable(),
  vhost: z.string(),
  managementVersion: z.string().nullable(),
  erlangVersion: z.string().nullable(),
  node: z.string().nullable(),
  managementError: z.string().nullable().describe("why the management API did not answer, when source is amqp"),
  totals: z
    .object({ queues: z.number().int(), exchanges: z.number().int(), connections: z.number().int(), consumers: z.number().int(), messages: z.number().int(), messagesReady: z.number().int(), messagesUnacknowledged: z.number().int() })
    .nullable(),
});

export const RabbitQueuesInput = rabbitBody({ names: Names });
export const RabbitQueue = z.object({
  name: z.string(),
  vhost: z.string(),
  type: z.string().nullable(),
  state: z.string().nullable(),
  durable: z.boolean().nullable(),
  autoDelete: z.boolean().nullable(),
  messages: z.number().int().nullable(),
  messagesReady: z.number().int(),
  messagesUnacknowledged: z.number().int().nullable(),
  consumers: z.number().int(),
});
export const RabbitQueueList = z.object({ source: Source, queues: z.array(RabbitQueue), count: z.number().int(), missing: z.array(z.string()).describe("amqp: names given that do not exist") });

export const RabbitCreateQueueInput = rabbitBody({
  queue: EntityName.min(1),
  durable: z.boolean().default(true),
  autoDelete: z.boolean().default(false),
  arguments: Arguments,
});
export const RabbitQueueResult = z.object({ ok: z.literal(true), queue: z.string(), messages: z.number().int(), consumers: z.number().int() });
export const RabbitDeleteQueueInput = rabbitBody({
  queue: EntityName.min(1),
  ifUnused: z.boolean().default(false).describe("refuse (409) when the queue has consumers"),
  ifEmpty: z.boolean().default(false).describe("refuse (409) when the queue holds messages"),
});
export const RabbitDeleteQueueResult = z.object({ ok: z.literal(true), queue: z.string(), messagesDeleted: z.number().int() });
export const RabbitPurgeQueueInput = rabbitBody({ queue: EntityName.min(1) });
export const RabbitPurgeQueueResult = z.object({ ok: z.literal(true), queue: z.string(), messagesPurged: z.number().int() });

export const ExchangeType = z.enum(["direct", "fanout", "topic", "headers"]);
export const RabbitExchangesInput = rabbitBody({ names: Names });
export const RabbitExchange = z.object({
  name: z.string().describe("'' is the default exchange"),
  vhost: z.string(),
  type: z.string().nullable(),
  durable: z.boolean().nullable(),
  autoDelete: z.boolean().nullable(),
  internal: z.boolean().nullable(),
});
export const RabbitExchangeList = z.object({ source: Source, exchanges: z.array(RabbitExchange), count: z.number().int(), missing: z.array(z.string()) });
export const RabbitCreateExchangeInput = rabbitBody({
  exchange: EntityName.min(1),
  type: ExchangeType.default("direct"),
  durable: z.boolean().default(true),
  autoDelete: z.boolean().default(false),
  internal: z.boolean().default(false),
  arguments: Arguments,
});
export const RabbitExchangeResult = z.object({ ok: z.literal(true), exchange: z.string() });
export const RabbitDeleteExchangeInput = rabbitBody({ exchange: EntityName.min(1), ifUnused: z.boolean().default(false).describe("refuse (409) when queues are bound to it") });

export const RabbitProperties = z
  .object({
    contentType: z.string().max(255).optional(),
    contentEncoding: z.string().max(255).optional(),
    correlationId: z.string().max(255).optional(),
    messageId: z.string().max(255).optional(),
    replyTo: z.string().max(255).optional(),
    expiration: z.string().regex(/^\d{1,10}$/, "milliseconds, as text").optional(),
    priority: z.number().int().min(0).max(255).optional(),
    persistent: z.boolean().optional(),
    type: z.string().max(255).optional(),
    appId: z.string().max(255).optional(),
  })
  .strict();
export const RabbitPublishInput = rabbitBody({
  exchange: EntityName.default("").describe("'' is the default exchange, which routes to the queue named by routingKey"),
  routingKey: z.string().max(255).default(""),
  body: z.string().max(1_000_000).describe("the message body, as text"),
  headers: z.record(z.string().max(255), z.union([z.string(), z.number(), z.boolean()])).optional(),
  properties: RabbitProperties.optional(),
});
export const RabbitPublishResult = z.object({ ok: z.literal(true), routed: z.boolean().describe("false: no queue was bound for the routing key, the broker returned the message") });

export const RabbitReadInput = rabbitBody({
  queue: EntityName.min(1),
  count: z.number().int().min(1).max(100).default(1),
  ack: z.boolean().default(false).describe("false (peek): the messages go back to the queue, marked redelivered; true: they are removed (needs write permission)"),
});
export const RabbitMessage = z.object({
  body: z.string(),
  bodyEncoding: z.enum(["utf8", "base64"]).describe("base64 when the body is not valid UTF-8"),
  exchange: z.string(),
  routingKey: z.string(),
  redelivered: z.boolean(),
  properties: z.record(z.string(), z.unknown()),
  headers: z.record(z.string(), z.unknown()),
});
export const RabbitReadResult = z.object({ messages: z.array(RabbitMessage), count: z.number().int(), acked: z.boolean() });

// ---------------------------------------------------------------- endpoints

const tag = "Message broker admin";
const UNREACHABLE = "the broker (or its management API) cannot be reached, timed out or failed; `error` says why";
const upstream = { 502: UNREACHABLE } as const;
const post = <const P extends string>(path: P) => ({ method: "POST" as const, path: `/api/v1/api-tester/${path}` as const, tag, auth: "user" as const, namespaced: true as const });

export const brokerAdminEndpoints = {
  kafkaMetadata: endpoint({ ...post("kafka/metadata"), summary: "Kafka cluster metadata: id, controller, brokers", permission: "read", body: KafkaMetadataInput, response: KafkaMetadata, statuses: upstream }),
  kafkaTopics: endpoint({ ...post("kafka/topics"), summary: "Kafka topics with partitions and message counts", permission: "read", body: KafkaTopicsInput, response: KafkaTopicList, statuses: upstream }),
  kafkaCreateTopic: endpoint({ ...post("kafka/topics/create"), summary: "Create a Kafka topic", permission: "write", body: KafkaCreateTopicInput, response: KafkaTopicResult, successStatus: 201, statuses: { ...upstream, 409: "the topic exists" } }),
  kafkaDeleteTopic: endpoint({ ...post("kafka/topics/delete"), summary: "Delete a Kafka topic", permission: "delete", body: KafkaDeleteTopicInput, response: KafkaTopicResult, statuses: upstream }),
  kafkaConsumerGroups: endpoint({ ...post("kafka/consumer-groups"), summary: "Kafka consumer groups with committed offsets and lag", permission: "read", body: KafkaConsumerGroupsInput, response: KafkaConsumerGroupList, statuses: upstream }),
  kafkaPublish: endpoint({ ...post("kafka/publish"), summary: "Produce one record to a Kafka topic (not in the spec's table: the Brokers screen's produce form)", permission: "write", body: KafkaPublishInput, response: KafkaPublishResult, statuses: upstream }),
  kafkaRead: endpoint({ ...post("kafka/read"), summary: "Peek at the newest (or oldest) records of a Kafka topic without committing offsets (not in the spec's table: the Brokers screen's peek)", permission: "read", body: KafkaReadInput, response: KafkaReadResult, statuses: upstream }),
  rabbitPublish: endpoint({ ...post("rabbitmq/publish"), summary: "Publish a message to a RabbitMQ exchange", permission: "write", body: RabbitPublishInput, response: RabbitPublishResult, statuses: upstream }),
  rabbitRead: endpoint({ ...post("rabbitmq/read"), summary: "Read messages from a queue: a peek that puts them back (default) or ack to remove them", permission: "read", body: RabbitReadInput, response: RabbitReadResult, statuses: upstream }),
  rabbitMetadata: endpoint({ ...post("rabbitmq/metadata"), summary: "RabbitMQ broker metadata (management API totals when it answers, AMQP server properties otherwise)", permission: "read", body: RabbitMetadataInput, response: RabbitMetadata, statuses: upstream }),
  rabbitQueues: endpoint({ ...post("rabbitmq/queues"), summary: "List queues with message and consumer counts (management API; named queues over AMQP without it)", permission: "read", body: RabbitQueuesInput, response: RabbitQueueList, statuses: { ...upstream, 409: "the management API does not answer and no `names` were given" } }),
  rabbitCreateQueue: endpoint({ ...post("rabbitmq/queues/create"), summary: "Declare a queue", permission: "write", body: RabbitCreateQueueInput, response: RabbitQueueResult, successStatus: 201, statuses: { ...upstream, 409: "a queue of that name exists with other settings" } }),
  rabbitDeleteQueue: endpoint({ ...post("rabbitmq/queues/delete"), summary: "Delete a queue", permission: "delete", body: RabbitDeleteQueueInput, response: RabbitDeleteQueueResult, statuses: { ...upstream, 409: "ifUnused or ifEmpty and the queue is in use or holds messages" } }),
  rabbitPurgeQueue: endpoint({ ...post("rabbitmq/queues/purge"), summary: "Remove every ready message of a queue", permission: "delete", body: RabbitPurgeQueueInput, response: RabbitPurgeQueueResult, statuses: upstream }),
  rabbitExchanges: endpoint({ ...post("rabbitmq/exchanges"), summary: "List exchanges (management API; named exchanges over AMQP without it)", permission: "read", body: RabbitExchangesInput, response: RabbitExchangeList, statuses: { ...upstream, 409: "the management API does not answer and no `names` were given" } }),
  rabbitCreateExchange: endpoint({ ...post("rabbitmq/exchanges/create"), summary: "Declare an exchange", permission: "write", body: RabbitCreateExchangeInput, response: RabbitExchangeResult, successStatus: 201, statuses: { ...upstream, 409: "an exchange of that name exists with another type or settings" } }),
  rabbitDeleteExchange: endpoint({ ...post("rabbitmq/exchanges/delete"), summary: "Delete an exchange", permission: "delete", body: RabbitDeleteExchangeInput, response: RabbitExchangeResult, statuses: { ...upstream, 409: "ifUnused and queues are bound to it" } }),
} as const;

export type KafkaTargetInput = z.infer<typeof KafkaMetadataInput>;
export type RabbitTargetInput = z.infer<typeof RabbitMetadataInput>;
