// One consumed Kafka record through the serving core, as thin as the RabbitMQ
// exchange: the record becomes an EngineRequest for the kafka mocks of the
// protocol server's namespace on the route of its group and topic; a match is
// logged (webhooks dispatched once the reply is out) and becomes a reply to
// produce (outputTopic, with templated outputKey and outputHeaders); a miss —
// or a record the mock cannot take (over the size limit, not the JSON it
// looks like) — is an undefined request of protocol `kafka` whose headers
// carry the reason (x-polymock-reason).
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { IHeaders } from "kafkajs";
import type { MockDefinition } from "@/server/contracts/mock";
import { isMockError } from "@/server/engine/mock-error";
import { KAFKA_METHOD, kafkaReplyValue, kafkaRoute, KEY_HEADER, parseKafkaValue, splitBrokerList } from "@/server/engine/protocols/kafka";
import type { EngineDeps, EngineRequest } from "@/server/engine/types";
import { logger } from "@/server/lib/logger";
import { engineDepsFor } from "@/server/serving/engine-deps";
import { namespaceMocks, namespaceMocksNow } from "@/server/serving/mock-index";
import { outputContext, renderOutput, renderOutputs } from "@/server/serving/output-template";
import { answered, recordMiss, serve, type AfterSend, type ServingScope } from "@/server/serving/serve";

/** The header of an undefined request that says why no mock took the record. */
export const REASON_HEADER = "x-polymock-reason";

/** KAFKA_MAX_BODY_BYTES, else the stub path's STUB_MAX_BODY_BYTES, else 10 MiB. */
export const maxValueBytes = () => Number(process.env.KAFKA_MAX_BODY_BYTES ?? process.env.STUB_MAX_BODY_BYTES ?? 10 * 1024 * 1024);

export interface KafkaServer {
  namespace: string;
  serverName: string;
}

/** What the adapter needs of a consumed record. `group` absent: the server's own group. */
export interface ConsumedRecord {
  group?: string;
  topic: string;
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
  headers?: IHeaders;
}

/** A record to produce. `brokers` absent: the protocol server's own cluster. */
export interface Reply {
  brokers?: string[];
  topic: string;
  key: string | null;
  value: Buffer;
  headers: Record<string, string>;
}

export type Outcome =
  | { kind: "matched"; mockId: string; reply?: Reply; afterSend?: () => void }
  | { kind: "unmatched"; reason: string }
  | { kind: "failed"; reason: string };

const text = (v: unknown): string => (typeof v === "string" ? v : Buffer.isBuffer(v) ? v.toString("utf8") : String(v));

/** Record headers as the engine's headers (lower-case names, lists of values), the key among them. */
export function engineHeaders(record: Pick<ConsumedRecord, "headers" | "key">): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(record.headers ?? {})) {
    if (value === undefined || value === null) continue;
    (out[name.toLowerCase()] ??= []).push(...(Array.isArray(value) ? value.map(text) : [text(value)]));
  }
  if (record.key !== null) out[KEY_HEADER] = [record.key.toString("utf8")];
  return out;
}

/** The reply of a matched mock: to its outputTopic (on outputBrokers if given), key and headers rendered against the request; none without an outputTopic or payload. */
export function replyOf(mock: MockDefinition, payload: unknown, responseHeaders: Record<string, string[]>, req: EngineRequest, pathParams: Record<string, string>, deps: EngineDeps): Reply | undefined {
  const block = mock.kafka;
  const value = kafkaReplyValue(payload);
  if (!block?.outputTopic || !value) return undefined;
  const ctx = outputContext(mock, req, pathParams, deps);
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(responseHeaders)) headers[name] = values.join(", ");
  Object.assign(headers, renderOutputs(block.outputHeaders, ctx));
  const brokers = block.outputBrokers ? splitBrokerList(block.outputBrokers) : [];
  return {
    brokers: brokers.length ? brokers : undefined,
    topic: block.outputTopic,
    key: block.outputKey === undefined ? null : renderOutput(block.outputKey, ctx),
    value,
    headers,
  };
}

async function scopeFor(server: KafkaServer, path: string, headers: Record<string, string[]>): Promise<ServingScope | undefined> {
  const index = namespaceMocksNow(server.namespace) ?? (await namespaceMocks(server.namespace));
  if (!index) return undefined;
  return { namespace: server.namespace, index, deps: await engineDepsFor(index), requestId: randomUUID(), started: performance.now(), path, search: "", query: {}, headers };
}

/** Serves one record; never throws for what the record holds (the consumer goes on with the next). */
export async function serveRecord(server: KafkaServer, record: ConsumedRecord): Promise<Outcome> {
  const path = kafkaRoute(server.serverName, record.group, record.topic);
  const headers = engineHeaders(record);
  const scope = await scopeFor(server, path, headers);
  if (!scope) return { kind: "unmatched", reason: `namespace '${server.namespace}' does not exist` };
  const where = `${path} ${record.topic}/${record.partition}@${record.offset}`;
  const miss = (reason: string, body: unknown): Outcome => {
    scope.headers = { ...headers, [REASON_HEADER]: [reason] };
    recordMiss(scope, { protocol: "kafka", method: KAFKA_METHOD, path: where, body });
    logger().info({ namespace: server.namespace, serverName: server.serverName, topic: record.topic, partition: record.partition, offset: record.offset, reason }, "kafka: undefined request");
    return { kind: "unmatched", reason };
  };
  const size = record.value?.length ?? 0;
  const limit = maxValueBytes();
  if (size > limit) return miss(`the value is ${size} bytes, over the limit of ${limit}`, `(${size} bytes, not kept)`);

  const contentType = headers["content-type"]?.[0];
  const parsed = parseKafkaValue(record.value, contentType);
  const req: EngineRequest = { namespace: server.namespace, method: KAFKA_METHOD, path, headers, query: {}, body: parsed.body, rawBody: parsed.text };
  let result;
  let reply: Reply | undefined;
  try {
    result = await serve("kafka", scope, req);
    if (result.matched) reply = replyOf(result.mock, result.response.body, result.response.headers, req, result.pathParams, scope.deps);
  } catch (err) {
    // A broken mock (missing template file, a key template over the limit) is logged; the consumer goes on.
    if (!isMockError(err)) throw err;
    logger().warn({ err, namespace: server.namespace, serverName: server.serverName }, "kafka mock failed");
    return { kind: "failed", reason: (err as Error).message };
  }
  if (!result.matched) {
    const nearest = result.nearest[0];
    const why = parsed.jsonError ?? (nearest ? `nearest mock '${nearest.id}': ${nearest.reasons.map((r) => r.message).join("; ")}` : `no kafka mock consumes ${record.topic}${record.group ? ` in group ${record.group}` : ""}`);
    return miss(why, parsed.body);
  }
  const { response } = result;
  const hooks: AfterSend = {};
  const logged = reply ? { headers: { ...reply.headers, [KEY_HEADER]: reply.key ?? "" }, body: response.body } : { body: response.body };
  await answered(scope, result, 200, hooks, { method: KAFKA_METHOD, url: where, headers, body: parsed.body }, logged, response.status);
  if (response.delayMs > 0) await sleep(response.delayMs);
  return { kind: "matched", mockId: result.mock.id, reply, afterSend: hooks.afterSend };
}
