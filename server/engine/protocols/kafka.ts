// Kafka mocks (served by the protocol runner, protocol-runner/kafka): a record
// consumed from `kafka.topic` on the brokers of the protocol server named by
// `kafka.serverName` (every kafka server of the namespace when the mock names
// none), by the consumer group `kafka.consumerGroup` (else the server's own
// group), sits on the route "/<serverName>/<group>/<topic>": the group is part
// of the route because every group gets every record, and a mock answers only
// for its own group — two groups matching one mock would reply twice. The
// server's own group is the segment "~". Segments are URI-encoded.
// `conditions` look at the value (JSON when it parses, else the text);
// `headers` conditions at the record headers (lower-case names), where the
// record key is the header `kafka-key`.
import type { KafkaBlock } from "@/server/contracts/mock";
import type { z } from "zod";
import type { Placer } from "./placement";

type Block = z.infer<typeof KafkaBlock>;

/** The method of every record's EngineRequest (kafka mocks have no selector). */
export const KAFKA_METHOD = "RECORD";
/** The route segment of a server's own consumer group (a mock naming no consumerGroup). */
export const OWN_GROUP = "~";
/** The engine header that carries the record key (header conditions and templates read it). */
export const KEY_HEADER = "kafka-key";

// "*" survives encodeURIComponent but is the route index's rest wildcard; "~" would collide with OWN_GROUP.
const segment = (s: string) => encodeURIComponent(s).replace(/\*/g, "%2A").replace(/~/g, "%7E");

export function kafkaRoute(serverName: string, group: string | undefined, topic: string): string {
  return `/${serverName.startsWith(":") ? serverName : segment(serverName)}/${group ? segment(group) : OWN_GROUP}/${segment(topic)}`;
}

export function groupOf(block: Block): string | undefined {
  return block.consumerGroup || undefined;
}

export const placeKafka: Placer = (def) => {
  const block = def.kafka;
  if (!block) return null;
  return {
    route: kafkaRoute(block.serverName || ":server", groupOf(block), block.topic),
    selector: null,
    conditions: { conditions: block.conditions, header: block.headers, sortArray: block.sortArray },
  };
};

/**
 * A record value as the engine sees it: JSON when it parses, else the text.
 * `jsonError` when it looked like JSON (or a content-type header said so) and
 * is not — the reason given when no mock takes it.
 */
export function parseKafkaValue(value: Buffer | null, contentType: string | undefined): { body: unknown; text: string; jsonError?: string } {
  if (value === null) return { body: undefined, text: "" };
  const text = value.toString("utf8");
  const trimmed = text.trimStart();
  const claimsJson = /json/i.test(contentType ?? "") || /^[[{]/.test(trimmed);
  if (!claimsJson && !/^"|^-?\d|^(true|false|null)\b/.test(trimmed)) return { body: text, text };
  try {
    return { body: JSON.parse(text), text };
  } catch (err) {
    return { body: text, text, ...(claimsJson ? { jsonError: `the value is not valid JSON (${(err as Error).message})` } : {}) };
  }
}

/** The reply's value: a string payload as is, anything else as JSON; none when the payload is absent. */
export function kafkaReplyValue(payload: unknown): Buffer | undefined {
  if (payload === undefined) return undefined;
  return Buffer.from(typeof payload === "string" ? payload : JSON.stringify(payload), "utf8");
}

/** "a:9092, b:9093" → ["a:9092", "b:9093"]. */
export function splitBrokerList(list: string): string[] {
  return list
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}
