// Kafka, RabbitMQ and NATS mocks → an AsyncAPI 2.6 document, the inverse of
// the AsyncAPI generator (asyncapi.ts): posting the document there gives the
// mocks back (protocol, server, address, group, reply and its payload). One
// channel per mock, described from the mock's side: `publish` is what it
// receives, `subscribe` what it answers — on the same channel when the reply
// goes back to the requester (NATS reply subject, RabbitMQ replyTo), else on
// an output channel the publish operation names in `x-service-reply-channel`.
// Every channel carries `x-service-protocol` and `x-service-address` (and for
// RabbitMQ `x-service-exchange` / `x-service-routing-key`), which say exactly
// what the AMQP/Kafka bindings only suggest. Rules: docs/decisions.md,
// "Generators".
import { protocolOf } from "@/server/contracts/mock";
import { REPLY_CHANNEL_EXTENSION } from "./asyncapi";
import type { Broker } from "./asyncapi-document";
import { inferSchema } from "./infer-schema";
import { describeConditions, uniqueKey, type SpecMock, type SpecMockDef, type SpecOptions, type SpecResult, type SpecWarning } from "./spec-common";

type Obj = Record<string, unknown>;

const SERVER_PROTOCOL: Record<Broker, string> = { kafka: "kafka", rabbitmq: "amqp", nats: "nats" };
const DEFAULT_URL: Record<Broker, string> = { kafka: "localhost:9092", rabbitmq: "amqp://localhost:5672", nats: "nats://localhost:4222" };

interface Address {
  address: string;
  exchange?: string;
  routingKey?: string;
  /** AMQP: a queue, or an exchange + routing key alone. */
  byKey?: boolean;
}

function extensions(broker: Broker, a: Address): Obj {
  return {
    "x-service-protocol": broker,
    "x-service-address": a.address,
    ...(a.exchange !== undefined ? { "x-service-exchange": a.exchange } : {}),
    ...(a.routingKey !== undefined ? { "x-service-routing-key": a.routingKey } : {}),
  };
}

function channelBindings(broker: Broker, a: Address): Obj | undefined {
  if (broker === "kafka") return { kafka: { topic: a.address, bindingVersion: "0.4.0" } };
  if (broker === "rabbitmq") {
    // The runner declares a missing exchange as a topic exchange.
    return a.byKey
      ? { amqp: { is: "routingKey", exchange: { name: a.exchange ?? "", type: "topic" }, bindingVersion: "0.2.0" } }
      : { amqp: { is: "queue", queue: { name: a.address }, bindingVersion: "0.2.0" } };
  }
  return undefined;
}

function inputOf(def: SpecMockDef, broker: Broker): Address {
  if (broker === "kafka") return { address: def.kafka!.topic };
  if (broker === "nats") return { address: def.nats!.subject };
  const r = def.rabbitmq!;
  if (r.queue !== undefined) return { address: r.queue, exchange: r.exchange, routingKey: r.routingKey };
  return { address: r.routingKey ?? "", exchange: r.exchange ?? "", routingKey: r.routingKey ?? "", byKey: true };
}

/** Where the reply is published; undefined: back to the requester (or nowhere, for Kafka). */
function outputOf(def: SpecMockDef, broker: Broker): Address | undefined {
  if (broker === "kafka") return def.kafka!.outputTopic ? { address: def.kafka!.outputTopic } : undefined;
  if (broker === "nats") return def.nats!.outputSubject ? { address: def.nats!.outputSubject } : undefined;
  const r = def.rabbitmq!;
  if (r.outputQueue) return { address: r.outputQueue, exchange: r.outputExchange, routingKey: r.outputRoutingKey };
  if (r.outputExchange !== undefined || r.outputRoutingKey !== undefined) return { address: r.outputRoutingKey ?? "", exchange: r.outputExchange ?? "", routingKey: r.outputRoutingKey ?? "", byKey: true };
  return undefined;
}

/** What the AsyncAPI document leaves out of a mock it still exports. */
function losses(def: SpecMockDef, broker: Broker): string[] {
  const out: string[] = [];
  const k = def.kafka;
  const r = def.rabbitmq;
  const n = def.nats;
  if (k?.outputBrokers) out.push("outputBrokers");
  if (k?.outputHeaders || n?.outputHeaders) out.push("outputHeaders");
  if (r?.outputURL) out.push("outputURL");
  if (r?.outputProps) out.push("outputProps");
  if (def.proxy) out.push("proxy");
  if (def.webhooks?.length) out.push("webhooks");
  if (def.response?.payloadTemplatePath) out.push("payloadTemplatePath");
  return out.length ? [`exported without ${out.join(", ")} (AsyncAPI has no field for ${out.length > 1 ? "them" : "it"}) on ${broker}`] : [];
}

function replyMessage(def: SpecMock["def"], id: string, broker: Broker): Obj | undefined {
  const responses = def.oneOf?.responses ?? (def.response ? [def.response] : []);
  const withPayload = responses.filter((r) => r.payload !== undefined || r.headers);
  if (!withPayload.length) return undefined;
  const first = withPayload[0]!;
  const contentType = first.headers?.["content-type"]?.[0] ?? first.headers?.["Content-Type"]?.[0];
  const key = broker === "kafka" ? def.kafka!.outputKey : undefined;
  return {
    name: `${id}-reply`,
    ...(contentType ? { contentType } : typeof first.payload === "string" ? { contentType: "text/plain" } : {}),
    ...(first.payload !== undefined ? { payload: inferSchema(first.payload, "json") } : {}),
    ...(key !== undefined ? { bindings: { kafka: { key: { type: "string", enum: [key] }, bindingVersion: "0.4.0" } } } : {}),
    examples: withPayload.map((r, i) => {
      const headers = Object.fromEntries(Object.entries(r.headers ?? {}).filter(([h]) => h.toLowerCase() !== "content-type").map(([h, v]) => [h, v.join(", ")]));
      return { name: withPayload.length > 1 ? `${id}-${i + 1}` : id, ...(Object.keys(headers).length ? { headers } : {}), ...(r.payload !== undefined ? { payload: r.payload } : {}) };
    }),
  };
}

export function mocksToAsyncapi(mocks: SpecMock[], options: SpecOptions): SpecResult {
  const servers: Obj = {};
  const channels: Obj = {};
  const warnings: SpecWarning[] = [];
  let exported = 0;

  /** The server a mock's channels name: its serverName; a mock naming none is on every server of its protocol (no `servers` list). */
  const serverFor = (broker: Broker, name: string | undefined, m: SpecMock): string | undefined => {
    const key = name ?? broker;
    const have = servers[key] as Obj | undefined;
    if (have && have.protocol !== SERVER_PROTOCOL[broker]) {
      warnings.push({ mockId: m.id, route: m.route, reason: `serverName "${key}" is also a ${String(have.protocol)} server: exported under "${key}-${broker}"` });
      return serverFor(broker, `${key}-${broker}`, m);
    }
    if (!have) servers[key] = { url: options.serverUrl ?? DEFAULT_URL[broker], protocol: SERVER_PROTOCOL[broker], ...(name ? {} : { description: `every ${broker} protocol server of the namespace` }) };
    return name ? key : undefined;
  };

  for (const m of mocks) {
    const protocol = protocolOf(m.def);
    if (protocol !== "kafka" && protocol !== "rabbitmq" && protocol !== "nats") {
      warnings.push({ mockId: m.id, route: m.route, reason: `a ${protocol} mock cannot be expressed in AsyncAPI (Kafka, RabbitMQ and NATS mocks only)` });
      continue;
    }
    const broker: Broker = protocol;
    const block = m.def[broker]!;
    const server = serverFor(broker, block.serverName || undefined, m);
    const onServer = server ? { servers: [server] } : {};
    const input = inputOf(m.def, broker);
    const output = outputOf(m.def, broker);
    const reply = replyMessage(m.def, m.id, broker);
    const conditions = describeConditions([
      ["message", block.conditions],
      ["header", block.headers],
    ]);
    const opBindings = broker === "kafka" && m.def.kafka!.consumerGroup ? { kafka: { groupId: { type: "string", enum: [m.def.kafka!.consumerGroup] }, bindingVersion: "0.4.0" } } : broker === "nats" && m.def.nats!.queueGroup ? { nats: { queue: m.def.nats!.queueGroup, bindingVersion: "0.1.0" } } : undefined;
    const key = uniqueKey(channels, input.address || input.exchange || broker);
    const replyOp = reply ? { operationId: `${m.id}-reply`, message: reply } : undefined;
    let outputKey: string | undefined;
    if (output && replyOp) {
      outputKey = uniqueKey({ ...channels, [key]: true }, output.address || output.exchange || broker);
      const bindings = channelBindings(broker, output);
      channels[outputKey] = { description: `where mock ${m.id} publishes its reply`, ...extensions(broker, output), ...onServer, ...(bindings ? { bindings } : {}), subscribe: replyOp };
    }
    const bindings = channelBindings(broker, input);
    channels[key] = {
      description: `mock ${m.id}`,
      ...extensions(broker, input),
      ...onServer,
      ...(bindings ? { bindings } : {}),
      publish: {
        operationId: m.id,
        summary: `what mock ${m.id} receives`,
        ...(conditions ? { description: conditions } : {}),
        ...(opBindings ? { bindings: opBindings } : {}),
        ...(outputKey ? { [REPLY_CHANNEL_EXTENSION]: outputKey } : {}),
        message: { name: `${m.id}-request`, ...(conditions ? { description: conditions } : {}) },
      },
      // No output: the reply goes back to the requester (for Kafka, which has no reply address, it is kept but not produced).
      ...(replyOp && !outputKey ? { subscribe: replyOp } : {}),
    };
    for (const reason of losses(m.def, broker)) warnings.push({ mockId: m.id, route: m.route, reason });
    exported++;
  }
  const spec = {
    asyncapi: "2.6.0",
    info: { title: options.title ?? `${options.namespace} messaging mocks`, version: options.version ?? "1.0.0", description: `Kafka, RabbitMQ and NATS mocks of the namespace ${options.namespace}.` },
    defaultContentType: "application/json",
    servers,
    channels,
  };
  return { spec, warnings, exported };
}
