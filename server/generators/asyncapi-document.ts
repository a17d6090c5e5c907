// Reading an AsyncAPI 2.x or 3.x document for the AsyncAPI generator: its
// version, local $refs (a $ref that leaves the document is refused, so a
// document never makes the server read a file or fetch a URL), its servers,
// and which broker (Kafka, RabbitMQ, NATS) and server a channel is on.
import { GeneratorInputError } from "./input-error";
import { externalRef, isObject, pointer, type Obj } from "./json-document";

export { externalRef, isObject, pointer, type Obj };
export type Broker = "kafka" | "rabbitmq" | "nats";

export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** AsyncAPI server protocols the runner can serve, and the mock protocol each becomes. */
export const SERVER_PROTOCOLS: Record<string, Broker> = { kafka: "kafka", "kafka-secure": "kafka", amqp: "rabbitmq", amqps: "rabbitmq", nats: "nats" };
/** Binding keys that name a broker. */
const BINDING_PROTOCOLS: Record<string, Broker> = { kafka: "kafka", amqp: "rabbitmq", nats: "nats" };
export const BROKERS: readonly Broker[] = ["kafka", "rabbitmq", "nats"];

export function versionOf(doc: unknown): 2 | 3 {
  if (!isObject(doc)) throw new GeneratorInputError("not an AsyncAPI document: expected an object at the top level");
  const v = doc.asyncapi;
  if (typeof v === "number") throw new GeneratorInputError(`the version must be a string ("2.6.0", "3.0.0"), not the number ${v}`, { pointer: "/asyncapi" });
  if (typeof v !== "string") throw new GeneratorInputError("not an AsyncAPI document: it has no `asyncapi` version field", { pointer: "/asyncapi" });
  if (/^2\.[0-6]\./.test(v)) return 2;
  if (/^3\.0\./.test(v)) return 3;
  throw new GeneratorInputError(`AsyncAPI ${v} is not supported (2.0–2.6 and 3.0 are)`, { pointer: "/asyncapi" });
}


/** The value at a local JSON pointer ("#/components/messages/Order"), or undefined. */
function at(doc: Obj, ref: string): unknown {
  let cur: unknown = doc;
  for (const raw of ref.replace(/^#\/?/, "").split("/").filter((p) => p !== "")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(cur) && !Array.isArray(cur)) return undefined;
    cur = (cur as Obj)[key];
  }
  return cur;
}

/** Follows a chain of local $refs; `where` is the pointer of the value (for the error of a $ref that names nothing). */
export function deref(doc: Obj, value: unknown, where: string): unknown {
  let cur = value;
  const seen = new Set<string>();
  while (isObject(cur) && typeof cur.$ref === "string") {
    const ref = cur.$ref;
    if (seen.has(ref)) throw new GeneratorInputError(`$ref "${ref}" refers to itself`, { pointer: where });
    seen.add(ref);
    const next = at(doc, ref);
    if (next === undefined) throw new GeneratorInputError(`$ref "${ref}" names nothing in the document`, { pointer: where });
    cur = next;
  }
  return cur;
}

/** The key a "#/channels/<key>" (or "#/servers/<key>") $ref names. */
export function refKey(value: unknown, section: string): string | undefined {
  const ref = isObject(value) ? str(value.$ref) : undefined;
  const prefix = `#/${section}/`;
  return ref?.startsWith(prefix) ? decodeURIComponent(ref.slice(prefix.length)).replace(/~1/g, "/").replace(/~0/g, "~") : undefined;
}

export interface Placement {
  broker: Broker;
  /** The document's server the channel is on (its name), when one says so. */
  server?: string;
}

/** The servers a channel names: 2.x by name, 3.x by $ref. */
function channelServers(channel: Obj): string[] {
  if (!Array.isArray(channel.servers)) return [];
  return channel.servers.flatMap((s) => (typeof s === "string" ? [s] : (refKey(s, "servers") ?? [])));
}

function serverBroker(doc: Obj, name: string): Broker | undefined {
  const server = isObject(doc.servers) ? doc.servers[name] : undefined;
  const protocol = isObject(server) ? str(server.protocol)?.toLowerCase() : undefined;
  return protocol ? SERVER_PROTOCOLS[protocol] : undefined;
}

/**
 * Which broker a channel is on, in this order: the `x-service-protocol`
 * extension (written by the specification builder), the first server the
 * channel names whose protocol is Kafka, AMQP or NATS, a broker binding of
 * the channel or operation, the document's first such server. Undefined with
 * the reason when none of these says.
 */
export function placementOf(doc: Obj, channel: Obj, operation: Obj): Placement | { reason: string } {
  const named = channelServers(channel);
  const ext = channel["x-service-protocol"];
  if (ext !== undefined) {
    if (typeof ext === "string" && (BROKERS as string[]).includes(ext)) return { broker: ext as Broker, server: named[0] };
    return { reason: `x-service-protocol "${String(ext)}" is not kafka, rabbitmq or nats` };
  }
  for (const name of named) {
    const broker = serverBroker(doc, name);
    if (broker) return { broker, server: name };
  }
  if (named.length) return { reason: `its servers (${named.join(", ")}) are not Kafka, AMQP or NATS servers` };
  const bound = [channel.bindings, operation.bindings].flatMap((b) => (isObject(b) ? Object.keys(b) : [])).map((k) => BINDING_PROTOCOLS[k]).find(Boolean);
  const servers = isObject(doc.servers) ? Object.keys(doc.servers) : [];
  if (bound) return { broker: bound, server: servers.find((s) => serverBroker(doc, s) === bound) };
  for (const name of servers) {
    const broker = serverBroker(doc, name);
    if (broker) return { broker, server: name };
  }
  const protocols = servers.map((s) => (isObject(doc.servers) && isObject(doc.servers[s]) ? str((doc.servers[s] as Obj).protocol) : undefined)).filter(Boolean);
  return { reason: protocols.length ? `its protocol (${[...new Set(protocols)].join(", ")}) is not Kafka, AMQP or NATS` : "no Kafka, AMQP or NATS server or binding says which broker it is on" };
}

/** A value a binding's schema pins down (`enum`, `const`, `default`, `example(s)`), or a plain string. */
export function pinned(schema: unknown): string | undefined {
  if (typeof schema === "string") return schema;
  if (!isObject(schema)) return undefined;
  const v = Array.isArray(schema.enum) ? schema.enum[0] : (schema.const ?? schema.default ?? (Array.isArray(schema.examples) ? schema.examples[0] : schema.example));
  return typeof v === "string" || typeof v === "number" ? String(v) : undefined;
}
