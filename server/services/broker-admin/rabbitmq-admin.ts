// RabbitMQ admin for /api/v1/api-tester/rabbitmq/* and the Brokers screen.
// Which row needs what (docs/decisions.md, "Message broker admin"):
//   AMQP only:        publish, read, queues/create|delete|purge, exchanges/create|delete
//   management API:   queues, exchanges (AMQP cannot enumerate; without the API
//                     only `names` given are checked, else 409), metadata
//                     (totals; without the API: the AMQP server properties)
import type { z } from "zod";
import type {
  RabbitCreateExchangeInput,
  RabbitCreateQueueInput,
  RabbitDeleteExchangeInput,
  RabbitDeleteQueueInput,
  RabbitExchangeList,
  RabbitExchangesInput,
  RabbitMessage,
  RabbitMetadata,
  RabbitMetadataInput,
  RabbitPublishInput,
  RabbitPurgeQueueInput,
  RabbitQueueList,
  RabbitQueuesInput,
  RabbitReadInput,
} from "@/server/contracts/broker-admin";
import { AppError } from "@/server/errors";
import { type NamespaceScope, requireNamespacePermission } from "../namespace-access";
import { withAmqp } from "./amqp-session";
import { rabbitTarget, type RabbitTarget } from "./broker-target";
import { ManagementUnavailable, managementGet, vhostPath } from "./rabbit-management";
import { reasonOf, upstream } from "./upstream-error";

type In<S extends z.ZodType> = z.output<S>;

/** The management API's answer, or why it gave none (its absence is not an error for the rows that can fall back). */
async function fromManagement<T>(target: RabbitTarget, path: string): Promise<{ ok: true; value: T } | { ok: false; reason: string }> {
  try {
    return { ok: true, value: await managementGet<T>(target, path) };
  } catch (err) {
    if (err instanceof ManagementUnavailable) return { ok: false, reason: err.message };
    if (err instanceof Error && err.name === "BlockedTargetError") throw new AppError("target_blocked", err.message, { status: 400, details: [{ location: "body", field: "managementUrl", message: err.message }] });
    throw upstream(`RabbitMQ management API at ${target.managementUrl}`, reasonOf(err));
  }
}

function managementRequired(what: string, target: RabbitTarget, reason: string): AppError {
  return new AppError(
    "management_api_unavailable",
    `Listing ${what} needs RabbitMQ's management API (the rabbitmq_management plugin), which did not answer: ${reason}. Enable the plugin, set managementUrl, or give \`names\` to check named ${what} over AMQP.`,
    { status: 409, details: { managementUrl: target.managementUrl, reason, needsManagement: ["queues", "exchanges"] } },
  );
}

const num = (v: unknown): number | null => (typeof v === "number" ? v : null);
const str = (v: unknown): string | null => (typeof v === "string" ? v : v instanceof Buffer ? v.toString("utf8") : null);

// ---------------------------------------------------------------- metadata

interface Overview {
  management_version?: string;
  rabbitmq_version?: string;
  product_name?: string;
  erlang_version?: string;
  cluster_name?: string;
  node?: string;
  object_totals?: Record<string, number>;
  queue_totals?: Record<string, number>;
}

export async function rabbitMetadata(scope: NamespaceScope, input: In<typeof RabbitMetadataInput>): Promise<z.infer<typeof RabbitMetadata>> {
  const target = await rabbitTarget(scope, input);
  const props = await withAmqp(target, async ({ model }) => (model.connection as unknown as { serverProperties?: Record<string, unknown> }).serverProperties ?? {});
  const base = {
    product: str(props.product),
    version: str(props.version),
    platform: str(props.platform),
    clusterName: str(props.cluster_name),
    vhost: target.vhost,
  };
  const overview = await fromManagement<Overview>(target, "/overview");
  if (!overview.ok) return { source: "amqp", ...base, managementVersion: null, erlangVersion: null, node: null, managementError: overview.reason, totals: null };
  const o = overview.value;
  const totals = o.object_totals ?? {};
  const queued = o.queue_totals ?? {};
  return {
    source: "management",
    ...base,
    version: o.rabbitmq_version ?? base.version,
    clusterName: o.cluster_name ?? base.clusterName,
    managementVersion: o.management_version ?? null,
    erlangVersion: o.erlang_version ?? null,
    node: o.node ?? null,
    managementError: null,
    totals: {
      queues: totals.queues ?? 0,
      exchanges: totals.exchanges ?? 0,
      connections: totals.connections ?? 0,
      consumers: totals.consumers ?? 0,
      messages: queued.messages ?? 0,
      messagesReady: queued.messages_ready ?? 0,
      messagesUnacknowledged: queued.messages_unacknowledged ?? 0,
    },
  };
}

// ---------------------------------------------------------------- queues

interface ManagedQueue {
  name: string;
  vhost: string;
  type?: string;
  state?: string;
  durable?: boolean;
  auto_delete?: boolean;
  messages?: number;
  messages_ready?: number;
  messages_unacknowledged?: number;
  consumers?: number;
}

export async function listRabbitQueues(scope: NamespaceScope, input: In<typeof RabbitQueuesInput>): Promise<z.infer<typeof RabbitQueueList>> {
  const target = await rabbitTarget(scope, input);
  const listed = await fromManagement<ManagedQueue[]>(target, `/queues/${vhostPath(target.vhost)}`);
  if (listed.ok) {
    const wanted = input.names ? new Set(input.names) : null;
    const queues = listed.value
      .filter((q) => !wanted || wanted.has(q.name))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((q) => ({
        name: q.name,
        vhost: q.vhost,
        type: q.type ?? null,
        state: q.state ?? null,
        durable: q.durable ?? null,
        autoDelete: q.auto_delete ?? null,
        // Fresh queues have no statistics until the plugin's next collection.
        messages: num(q.messages),
        messagesReady: q.messages_ready ?? 0,
        messagesUnacknowledged: num(q.messages_unacknowledged),
        consumers: q.consumers ?? 0,
      }));
    const found = new Set(queues.map((q) => q.name));
    return { source: "management", queues, count: queues.length, missing: (input.names ?? []).filter((n) => !found.has(n)) };
  }
  if (!input.names) throw managementRequired("queues", target, listed.reason);
  const names = input.names;
  return withAmqp(target, async (session) => {
    const queues: z.infer<typeof RabbitQueueList>["queues"] = [];
    const missing: string[] = [];
    for (const name of names) {
      const channel = await session.channel();
      try {
        const q = await channel.checkQueue(name);
        queues.push({ name, vhost: target.vhost, type: null, state: null, durable: null, autoDelete: null, messages: null, messagesReady: q.messageCount, messagesUnacknowledged: null, consumers: q.consumerCount });
        await channel.close();
      } catch (err) {
        if ((err as { code?: unknown }).code !== 404) throw err;
        missing.push(name);
      }
    }
    return { source: "amqp" as const, queues, count: queues.length, missing };
  });
}

export async function createRabbitQueue(scope: NamespaceScope, input: In<typeof RabbitCreateQueueInput>) {
  const target = await rabbitTarget(scope, input);
  return withAmqp(target, async (session) => {
    const channel = await session.channel();
    const q = await channel.assertQueue(input.queue, { durable: input.durable, autoDelete: input.autoDelete, arguments: input.arguments });
    return { ok: true as const, queue: q.queue, messages: q.messageCount, consumers: q.consumerCount };
  });
}

export async function deleteRabbitQueue(scope: NamespaceScope, input: In<typeof RabbitDeleteQueueInput>) {
  const target = await rabbitTarget(scope, input);
  return withAmqp(target, async (session) => {
    const channel = await session.channel();
    // queue.delete of a missing queue succeeds silently; the caller wants to know.
    await channel.checkQueue(input.queue);
    const { messageCount } = await channel.deleteQueue(input.queue, { ifUnused: input.ifUnused, ifEmpty: input.ifEmpty });
    return { ok: true as const, queue: input.queue, messagesDeleted: messageCount };
  });
}

export async function purgeRabbitQueue(scope: NamespaceScope, input: In<typeof RabbitPurgeQueueInput>) {
  const target = await rabbitTarget(scope, input);
  return withAmqp(target, async (session) => {
    const channel = await session.channel();
    const { messageCount } = await channel.purgeQueue(input.queue);
    return { ok: true as const, queue: input.queue, messagesPurged: messageCount };
  });
}

// ---------------------------------------------------------------- exchanges

interface ManagedExchange {
  name: string;
  vhost: string;
  type?: string;
  durable?: boolean;
  auto_delete?: boolean;
  internal?: boolean;
}

export async function listRabbitExchanges(scope: NamespaceScope, input: In<typeof RabbitExchangesInput>): Promise<z.infer<typeof RabbitExchangeList>> {
  const target = await rabbitTarget(scope, input);
  const listed = await fromManagement<ManagedExchange[]>(target, `/exchanges/${vhostPath(target.vhost)}`);
  if (listed.ok) {
    const wanted = input.names ? new Set(input.names) : null;
    const exchanges = listed.value
      .filter((e) => !wanted || wanted.has(e.name))
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((e) => ({ name: e.name, vhost: e.vhost, type: e.type ?? null, durable: e.durable ?? null, autoDelete: e.auto_delete ?? null, internal: e.internal ?? null }));
    const found = new Set(exchanges.map((e) => e.name));
    return { source: "management", exchanges, count: exchanges.length, missing: (input.names ?? []).filter((n) => !found.has(n)) };
  }
  if (!input.names) throw managementRequired("exchanges", target, listed.reason);
  const names = input.names;
  return withAmqp(target, async (session) => {
    const exchanges: z.infer<typeof RabbitExchangeList>["exchanges"] = [];
    const missing: string[] = [];
    for (const name of names) {
      const channel = await session.channel();
      try {
        await channel.checkExchange(name);
        exchanges.push({ name, vhost: target.vhost, type: null, durable: null, autoDelete: null, internal: null });
        await channel.close();
      } catch (err) {
        if ((err as { code?: unknown }).code !== 404) throw err;
        missing.push(name);
      }
    }
    return { source: "amqp" as const, exchanges, count: exchanges.length, missing };
  });
}

export async function createRabbitExchange(scope: NamespaceScope, input: In<typeof RabbitCreateExchangeInput>) {
  const target = await rabbitTarget(scope, input);
  return withAmqp(target, async (session) => {
    const channel = await session.channel();
    await channel.assertExchange(input.exchange, input.type, { durable: input.durable, autoDelete: input.autoDelete, internal: input.internal, arguments: input.arguments });
    return { ok: true as const, exchange: input.exchange };
  });
}

export async function deleteRabbitExchange(scope: NamespaceScope, input: In<typeof RabbitDeleteExchangeInput>) {
  const target = await rabbitTarget(scope, input);
  return withAmqp(target, async (session) => {
    const channel = await session.channel();
    await channel.checkExchange(input.exchange);
    await channel.deleteExchange(input.exchange, { ifUnused: input.ifUnused });
    return { ok: true as const, exchange: input.exchange };
  });
}

// ---------------------------------------------------------------- messages

export async function publishRabbitMessage(scope: NamespaceScope, input: In<typeof RabbitPublishInput>) {
  const target = await rabbitTarget(scope, input);
  return withAmqp(target, async ({ model }) => {
    const channel = await model.createConfirmChannel();
    channel.on("error", () => {});
    // Publishing to a missing exchange only closes the channel, with no reason for the confirm to carry.
    if (input.exchange) await channel.checkExchange(input.exchange);
    let routed = true;
    channel.on("return", () => {
      routed = false;
    });
    const { persistent, ...props } = input.properties ?? {};
    // mandatory: an unroutable message comes back (basic.return) before the confirm, so `routed` is known.
    channel.publish(input.exchange, input.routingKey, Buffer.from(input.body, "utf8"), { ...props, persistent: persistent ?? true, headers: input.headers, mandatory: true });
    await channel.waitForConfirms();
    return { ok: true as const, routed };
  });
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function bodyOf(content: Buffer): { body: string; bodyEncoding: "utf8" | "base64" } {
  try {
    return { body: utf8.decode(content), bodyEncoding: "utf8" };
  } catch {
    return { body: content.toString("base64"), bodyEncoding: "base64" };
  }
}

/** JSON-safe header and property values (AMQP tables may hold buffers and longs). */
function plain(value: unknown): unknown {
  if (Buffer.isBuffer(value)) return value.toString("utf8");
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

/**
 * basic.get up to `count` messages, holding each unacknowledged so the next
 * get does not return the same one; then all go back (nack, requeue: a peek)
 * or are acknowledged (removed). A requeued message is marked redelivered.
 */
export async function readRabbitMessages(scope: NamespaceScope, input: In<typeof RabbitReadInput>) {
  if (input.ack) requireNamespacePermission(scope, "write");
  const target = await rabbitTarget(scope, input);
  return withAmqp(target, async (session) => {
    const channel = await session.channel();
    const messages: z.infer<typeof RabbitMessage>[] = [];
    for (let i = 0; i < input.count; i++) {
      const m = await channel.get(input.queue, { noAck: false });
      if (!m) break;
      const { headers, ...props } = m.properties as unknown as Record<string, unknown>;
      const properties = Object.fromEntries(Object.entries(props).filter(([, v]) => v !== undefined).map(([k, v]) => [k, plain(v)]));
      messages.push({ ...bodyOf(m.content), exchange: m.fields.exchange, routingKey: m.fields.routingKey, redelivered: m.fields.redelivered, properties, headers: (plain(headers ?? {}) as Record<string, unknown>) ?? {} });
    }
    if (messages.length > 0) {
      if (input.ack) channel.ackAll();
      else channel.nackAll(true);
    }
    // A round trip after the (n)ack: it has reached the broker before the connection closes.
    await channel.checkQueue(input.queue);
    return { messages, count: messages.length, acked: input.ack };
  });
}
