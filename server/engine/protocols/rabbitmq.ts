// RabbitMQ mocks (served by the protocol runner, protocol-runner/rabbitmq): a
// message consumed from a queue of the broker of the protocol server named by
// `rabbitmq.serverName` (any rabbitmq server of the namespace when the mock
// names none) sits on the route "/<serverName>/<source>", where the source is
// the queue the message came from — `rabbitmq.queue`, or for a mock naming
// only `exchange` (+ `routingKey`) the runner's own queue bound to it. Both
// segments are URI-encoded, so queue names with "/" or ":" stay one segment.
// `conditions` look at the body (JSON when it parses, else the text);
// `headers` conditions at the AMQP application headers (lower-case names).
import type { RabbitmqBlock } from "@/server/contracts/mock";
import type { z } from "zod";
import type { Placer } from "./placement";

type Block = z.infer<typeof RabbitmqBlock>;

/** The method of every message's EngineRequest (rabbitmq mocks have no selector). */
export const RABBITMQ_METHOD = "MESSAGE";

/** Where a mock's messages come from: a named queue (bound to `exchange` when it gives one too), or an exchange + routing key alone. */
export type RabbitSource = { kind: "queue"; queue: string; exchange?: string; routingKey: string } | { kind: "exchange"; exchange: string; routingKey: string };

export function sourceOf(block: Block): RabbitSource {
  if (block.queue) return { kind: "queue", queue: block.queue, exchange: block.exchange || undefined, routingKey: block.routingKey ?? block.queue };
  return { kind: "exchange", exchange: block.exchange ?? "", routingKey: block.routingKey ?? "" };
}

/** A source's identity: the same key for every mock consuming the same messages. */
export function sourceKey(source: RabbitSource): string {
  return source.kind === "queue" ? `q:${source.queue}` : `x:${source.exchange}\u0000${source.routingKey}`;
}

// "*" survives encodeURIComponent but is the route index's rest wildcard.
const segment = (s: string) => encodeURIComponent(s).replace(/\*/g, "%2A");

export function rabbitmqRoute(serverName: string, key: string): string {
  return `/${serverName.startsWith(":") ? serverName : segment(serverName)}/${segment(key)}`;
}

export const placeRabbitmq: Placer = (def) => {
  const block = def.rabbitmq;
  if (!block) return null;
  return {
    route: rabbitmqRoute(block.serverName || ":server", sourceKey(sourceOf(block))),
    selector: null,
    conditions: { conditions: block.conditions, header: block.headers, sortArray: block.sortArray },
  };
};

// The body rules are shared by every broker protocol.
export { parseMessageBody as parseRabbitBody, messageReply as rabbitReply } from "./message-body";
