// AsyncAPI 2.x / 3.x → Kafka, RabbitMQ and NATS mocks. One mock per
// operation in which the described application receives a message (2.x
// `publish`, 3.x `action: receive`): it listens on the channel (Kafka topic,
// RabbitMQ queue or exchange + routing key, NATS subject) and answers with
// the reply message — 3.x `reply`; in 2.x the `subscribe` message of the same
// channel (request/reply: NATS reply inbox, RabbitMQ replyTo), or of the
// channel an `x-service-reply-channel` extension names. A reply channel with
// an address becomes the mock's output (outputTopic, outputSubject,
// outputQueue / outputExchange + outputRoutingKey). Payloads: the message's
// first example, else a sample of its schema. The `x-service-*` channel
// extensions of the specification builder (spec-asyncapi.ts) win over
// everything else, so its documents come back as the mocks they came from.
// Rules: docs/decisions.md, "Generators".
import type { MockInput } from "@/server/contracts/mock";
import { deref, externalRef, isObject, pinned, placementOf, pointer, refKey, str, versionOf, type Broker, type Obj } from "./asyncapi-document";
import { mockId, slug, uniqueIds } from "./ids";
import { GeneratorInputError } from "./input-error";
import { sampleSchema } from "./schema-sample";
import type { GeneratedMock, GeneratorOptions, GeneratorResult, GeneratorWarning } from "./types";

/** The operation extension (2.x) naming the channel a mock's reply is published to. */
export const REPLY_CHANNEL_EXTENSION = "x-service-reply-channel";

interface Channel {
  key: string;
  value: Obj;
}

interface Receiving {
  /** The id part: the operationId (2.x) or the operation's key (3.x). */
  name: string;
  at: string;
  channel: Channel;
  operation: Obj;
  replies: { message: Obj; at: string }[];
  /** Where the reply is published; absent: to the requester (NATS reply subject, AMQP replyTo). */
  output?: Channel;
}

const JSON_SCHEMA_FORMAT = /^application\/(schema\+(json|yaml)|vnd\.aai\.asyncapi(\+(json|yaml))?)/i;

function messagesOf2(doc: Obj, op: Obj, at: string): { message: Obj; at: string }[] {
  const m = deref(doc, op.message, `${at}/message`);
  if (!isObject(m)) return [];
  if (Array.isArray(m.oneOf)) return m.oneOf.map((x, i) => ({ message: deref(doc, x, `${at}/message/oneOf/${i}`), at: `${at}/message/oneOf/${i}` })).filter((x): x is { message: Obj; at: string } => isObject(x.message));
  return [{ message: m, at: `${at}/message` }];
}

function messagesOf3(doc: Obj, list: unknown, channel: Obj | undefined, at: string): { message: Obj; at: string }[] {
  const refs = Array.isArray(list) ? list.map((r, i) => ({ r, at: `${at}/messages/${i}` })) : isObject(channel?.messages) ? Object.entries(channel.messages).map(([k, r]) => ({ r, at: `${at}/messages/${k}` })) : [];
  return refs.map(({ r, at: where }) => ({ message: deref(doc, r, where), at: where })).filter((x): x is { message: Obj; at: string } => isObject(x.message));
}

function receivingOf2(doc: Obj): Receiving[] {
  const channels = isObject(doc.channels) ? doc.channels : {};
  const out: Receiving[] = [];
  for (const [key, raw] of Object.entries(channels)) {
    const at = pointer("channels", key);
    const value = deref(doc, raw, at);
    if (!isObject(value) || !isObject(value.publish)) continue;
    const operation = deref(doc, value.publish, `${at}/publish`) as Obj;
    const replyKey = str(operation[REPLY_CHANNEL_EXTENSION]);
    let output: Channel | undefined;
    let replyOp: unknown = value.subscribe;
    let replyAt = `${at}/subscribe`;
    if (replyKey !== undefined) {
      const target = deref(doc, channels[replyKey], pointer("channels", replyKey));
      if (!isObject(target)) throw new GeneratorInputError(`${REPLY_CHANNEL_EXTENSION} names the channel "${replyKey}", which the document does not have`, { pointer: `${at}/publish/${REPLY_CHANNEL_EXTENSION}` });
      output = { key: replyKey, value: target };
      replyOp = target.subscribe;
      replyAt = pointer("channels", replyKey, "subscribe");
    }
    const replies = isObject(replyOp) ? messagesOf2(doc, deref(doc, replyOp, replyAt) as Obj, replyAt) : [];
    out.push({ name: str(operation.operationId) || `receive-${key}`, at: `${at}/publish`, channel: { key, value }, operation, replies, output });
  }
  return out;
}

function receivingOf3(doc: Obj): Receiving[] {
  const operations = isObject(doc.operations) ? doc.operations : {};
  const out: Receiving[] = [];
  for (const [name, raw] of Object.entries(operations)) {
    const at = pointer("operations", name);
    const operation = deref(doc, raw, at);
    if (!isObject(operation) || operation.action !== "receive") continue;
    const channelKey = refKey(operation.channel, "channels");
    const channel = deref(doc, operation.channel, `${at}/channel`);
    if (!channelKey || !isObject(channel)) throw new GeneratorInputError(`operation "${name}" names no channel ({"$ref": "#/channels/…"})`, { pointer: `${at}/channel` });
    const reply = operation.reply === undefined ? undefined : deref(doc, operation.reply, `${at}/reply`);
    let replies: Receiving["replies"] = [];
    let output: Channel | undefined;
    if (isObject(reply)) {
      const replyChannel = reply.channel === undefined ? undefined : deref(doc, reply.channel, `${at}/reply/channel`);
      const rc = isObject(replyChannel) ? replyChannel : undefined;
      replies = messagesOf3(doc, reply.messages, rc, `${at}/reply`);
      // A runtime address (`$message.header#/replyTo`) or a channel without one: the reply goes back to the requester.
      const key = refKey(reply.channel, "channels");
      if (rc && key && reply.address === undefined && (typeof rc.address === "string" || typeof rc["x-service-address"] === "string")) output = { key, value: rc };
    }
    out.push({ name, at, channel: { key: channelKey, value: channel }, operation, replies, output });
  }
  return out;
}

/** The channel's address: `x-service-address`, else the binding's topic or queue name, else 3.x `address`, else its key. */
function rawAddress(ch: Channel, broker: Broker, v3: boolean): { address: string; extension: boolean } {
  const ext = str(ch.value["x-service-address"]);
  if (ext !== undefined) return { address: ext, extension: true };
  const bindings = isObject(ch.value.bindings) ? ch.value.bindings : {};
  if (broker === "kafka" && isObject(bindings.kafka) && str(bindings.kafka.topic)) return { address: bindings.kafka.topic as string, extension: false };
  if (broker === "rabbitmq" && isObject(bindings.amqp) && bindings.amqp.is !== "routingKey" && isObject(bindings.amqp.queue) && str(bindings.amqp.queue.name)) return { address: bindings.amqp.queue.name as string, extension: false };
  return { address: v3 && typeof ch.value.address === "string" ? ch.value.address : ch.key, extension: false };
}

/** `{param}` in an address: a wildcard where the broker has one (NATS subjects, AMQP routing keys), else the parameter's example value or its name. */
function fillParameters(doc: Obj, ch: Channel, address: string, wildcard: string | undefined, warnings: GeneratorWarning[]): string {
  const params = isObject(ch.value.parameters) ? ch.value.parameters : {};
  return address.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (wildcard) return wildcard;
    const p = deref(doc, params[name], pointer("channels", ch.key, "parameters", name));
    const value = isObject(p) ? (pinned(p.schema) ?? pinned(p)) : undefined;
    warnings.push({ pointer: pointer("channels", ch.key), message: `parameter {${name}} is "${value ?? name}" in the address (this broker has no wildcard for it)` });
    return value ?? name;
  });
}

interface RabbitTarget {
  queue?: string;
  exchange?: string;
  routingKey?: string;
}

/** A RabbitMQ channel: a queue (bound to an exchange when one is named), or an exchange + routing key alone (AMQP binding `is: routingKey`). */
function rabbitTarget(doc: Obj, ch: Channel, v3: boolean, warnings: GeneratorWarning[]): RabbitTarget {
  const amqp = isObject(ch.value.bindings) && isObject(ch.value.bindings.amqp) ? ch.value.bindings.amqp : {};
  const exchange = str(ch.value["x-service-exchange"]) ?? (isObject(amqp.exchange) ? str(amqp.exchange.name) : undefined);
  const routingKeyExt = str(ch.value["x-service-routing-key"]);
  const { address, extension } = rawAddress(ch, "rabbitmq", v3);
  const byKey = amqp.is === "routingKey" || (amqp.is === undefined && exchange !== undefined && routingKeyExt !== undefined && routingKeyExt === address);
  if (byKey) return { exchange: exchange ?? "", routingKey: routingKeyExt ?? (extension ? address : fillParameters(doc, ch, address, "*", warnings)) };
  return { queue: extension ? address : fillParameters(doc, ch, address, undefined, warnings), ...(exchange !== undefined ? { exchange } : {}), ...(routingKeyExt !== undefined ? { routingKey: routingKeyExt } : {}) };
}

function addressOf(doc: Obj, ch: Channel, broker: "kafka" | "nats", v3: boolean, output: boolean, warnings: GeneratorWarning[]): string {
  const { address, extension } = rawAddress(ch, broker, v3);
  return extension ? address : fillParameters(doc, ch, address, broker === "nats" && !output ? "*" : undefined, warnings);
}

/** The reply's payload and headers: the message's first example, else a sample of its payload schema. */
function replyOf(doc: Obj, message: Obj, at: string, warnings: GeneratorWarning[]): { payload?: unknown; headers?: Record<string, string[]> } {
  const examples = Array.isArray(message.examples) ? message.examples.map((e, i) => deref(doc, e, `${at}/examples/${i}`)) : [];
  const example = examples.find((e): e is Obj => isObject(e) && e.payload !== undefined);
  const headersOf = (h: unknown) => (isObject(h) && Object.keys(h).length ? Object.fromEntries(Object.entries(h).map(([k, v]) => [k, [typeof v === "string" ? v : JSON.stringify(v)]])) : undefined);
  if (example) return { payload: example.payload, headers: headersOf(example.headers) };
  let schema = deref(doc, message.payload, `${at}/payload`);
  let format = str(message.schemaFormat);
  // 3.x multi-format schema object: {schemaFormat, schema}.
  if (isObject(schema) && str(schema.schemaFormat) && schema.schema !== undefined) {
    format = str(schema.schemaFormat);
    schema = deref(doc, schema.schema, `${at}/payload/schema`);
  }
  if (format && !JSON_SCHEMA_FORMAT.test(format)) {
    warnings.push({ pointer: `${at}/payload`, message: `the payload's schema format ${format} is not sampled: the reply has no payload (give the message an example)` });
    return {};
  }
  if (!isObject(schema)) return {};
  if (schema.example !== undefined) return { payload: schema.example };
  if (Array.isArray(schema.examples) && schema.examples.length) return { payload: schema.examples[0] };
  return { payload: sampleSchema(schema, { spec: doc, fake: true }) };
}

function operationBinding(op: Obj, key: string): Obj {
  return isObject(op.bindings) && isObject(op.bindings[key]) ? op.bindings[key] : {};
}

const describe = (t: RabbitTarget) => (t.queue !== undefined ? `queue ${t.queue}${t.exchange ? ` (exchange ${t.exchange})` : ""}` : `exchange ${t.exchange || "(default)"} key ${t.routingKey}`);

export async function asyncapiToMocks(document: unknown, options: GeneratorOptions = {}): Promise<GeneratorResult> {
  const v3 = versionOf(document) === 3;
  const doc = document as Obj;
  const external = externalRef(doc);
  if (external) throw new GeneratorInputError(`cannot resolve the document: $ref "${external.ref}" points outside it (only local references, "#/…", are followed)`, { pointer: external.at });
  if (!isObject(doc.channels)) throw new GeneratorInputError("the document has no channels", { pointer: "/channels" });
  const receiving = v3 ? receivingOf3(doc) : receivingOf2(doc);
  if (!receiving.length) throw new GeneratorInputError(v3 ? "the document has no operation with action: receive (what the application receives is what a mock answers)" : "the document has no publish operation (in AsyncAPI 2.x, publish is what the application receives, which a mock answers)", { pointer: v3 ? "/operations" : "/channels" });
  const info = isObject(doc.info) ? doc.info : {};
  const prefix = options.idPrefix ?? slug(str(info.title) ?? "asyncapi", 40);
  const warnings: GeneratorWarning[] = [];
  const mocks: GeneratedMock[] = [];

  for (const r of receiving) {
    const placement = placementOf(doc, r.channel.value, r.operation);
    if ("reason" in placement) {
      warnings.push({ pointer: r.at, message: `not generated: ${placement.reason}` });
      continue;
    }
    const { broker } = placement;
    const serverName = options.serverName ?? placement.server;
    const id = mockId(prefix, r.name);
    if (r.replies.length > 1) warnings.push({ pointer: r.replies[1]!.at, mockId: id, message: `${r.replies.length} reply messages: the first answers` });
    const reply = r.replies[0] ? replyOf(doc, r.replies[0].message, r.replies[0].at, warnings) : undefined;
    const output = r.output;
    let source: string;
    let target = "no reply";
    let block: Pick<MockInput, Broker>;
    if (broker === "kafka") {
      const topic = addressOf(doc, r.channel, "kafka", v3, false, warnings);
      let outputTopic = output ? addressOf(doc, output, "kafka", v3, true, warnings) : undefined;
      if (outputTopic === topic) {
        warnings.push({ pointer: r.at, mockId: id, message: "the reply would go to the topic the mock consumes (it would answer itself): no outputTopic" });
        outputTopic = undefined;
      }
      if (reply && !outputTopic) warnings.push({ pointer: r.at, mockId: id, message: "Kafka has no reply address: the mock keeps the reply but produces nothing until it is given an outputTopic" });
      const group = pinned(operationBinding(r.operation, "kafka").groupId);
      const key = r.replies[0] && isObject(r.replies[0].message.bindings) && isObject(r.replies[0].message.bindings.kafka) ? pinned(r.replies[0].message.bindings.kafka.key) : undefined;
      block = { kafka: { topic, ...(serverName ? { serverName } : {}), ...(group ? { consumerGroup: group } : {}), ...(outputTopic ? { outputTopic, ...(key !== undefined ? { outputKey: key } : {}) } : {}) } };
      source = `kafka ${topic}`;
      if (outputTopic) target = outputTopic;
    } else if (broker === "nats") {
      const subject = addressOf(doc, r.channel, "nats", v3, false, warnings);
      const outputSubject = output ? addressOf(doc, output, "nats", v3, true, warnings) : undefined;
      const queueGroup = str(operationBinding(r.operation, "nats").queue);
      block = { nats: { subject, ...(serverName ? { serverName } : {}), ...(queueGroup ? { queueGroup } : {}), ...(outputSubject ? { outputSubject } : {}) } };
      source = `nats ${subject}`;
      if (reply) target = outputSubject ?? "the reply subject";
    } else {
      const input = rabbitTarget(doc, r.channel, v3, warnings);
      const out = output ? rabbitTarget(doc, output, v3, warnings) : undefined;
      const outFields = out ? (out.queue !== undefined ? { outputQueue: out.queue, ...(out.exchange !== undefined ? { outputExchange: out.exchange } : {}), ...(out.routingKey !== undefined ? { outputRoutingKey: out.routingKey } : {}) } : { outputExchange: out.exchange ?? "", outputRoutingKey: out.routingKey ?? "" }) : {};
      block = { rabbitmq: { ...input, ...(serverName ? { serverName } : {}), ...outFields } };
      source = `rabbitmq ${describe(input)}`;
      if (reply) target = out ? describe(out) : "replyTo";
    }
    const response = reply && (reply.payload !== undefined || reply.headers) ? { response: { ...(reply.payload !== undefined ? { payload: reply.payload } : {}), ...(reply.headers ? { headers: reply.headers } : {}) } } : {};
    const mock: MockInput & { id: string } = {
      id,
      ...block,
      ...response,
      ...(options.tags?.length ? { tags: options.tags } : {}),
      ...(options.folderId !== undefined ? { folderId: options.folderId } : {}),
    };
    mocks.push({ mock, summary: `${source} → ${target}` });
  }
  uniqueIds(mocks);
  return { mocks, warnings };
}
