// One consumed AMQP message through the serving core, as thin as the SMTP and
// TCP exchanges: the message becomes an EngineRequest for the rabbitmq mocks
// of the protocol server's namespace on the route of its source queue; a
// match is logged (webhooks dispatched once the reply is out) and becomes a
// reply to publish; a miss — or a message the mock cannot take (over the size
// limit, not the JSON it claims to be) — is an undefined request of protocol
// `rabbitmq` whose headers carry the reason (x-polymock-reason).
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { MockDefinition } from "@/server/contracts/mock";
import { isMockError } from "@/server/engine/mock-error";
import { parseRabbitBody, RABBITMQ_METHOD, rabbitmqRoute, rabbitReply } from "@/server/engine/protocols/rabbitmq";
import type { EngineRequest } from "@/server/engine/types";
import { logger } from "@/server/lib/logger";
import { engineDepsFor } from "@/server/serving/engine-deps";
import { namespaceMocks, namespaceMocksNow } from "@/server/serving/mock-index";
import { answered, recordMiss, serve, type AfterSend, type ServingScope } from "@/server/serving/serve";

/** The header of an undefined request that says why no mock took the message. */
export const REASON_HEADER = "x-polymock-reason";

/** RABBITMQ_MAX_BODY_BYTES, else the stub path's STUB_MAX_BODY_BYTES, else 10 MiB. */
export const maxBodyBytes = () => Number(process.env.RABBITMQ_MAX_BODY_BYTES ?? process.env.STUB_MAX_BODY_BYTES ?? 10 * 1024 * 1024);

export interface RabbitServer {
  namespace: string;
  serverName: string;
}

/** What the adapter needs of a delivered message (amqplib's ConsumeMessage, narrowed). */
export interface Delivery {
  /** The route key of the source it came from (server/engine/protocols/rabbitmq.ts sourceKey). */
  sourceKey: string;
  queue: string;
  content: Buffer;
  exchange: string;
  routingKey: string;
  contentType?: string;
  headers?: Record<string, unknown>;
  correlationId?: string;
  replyTo?: string;
  messageId?: string;
}

/** Where and how the reply is published. `url` absent: the protocol server's own broker. */
export interface Reply {
  url?: string;
  exchange: string;
  routingKey: string;
  /** Declared (and bound to `exchange` when that is not the default) before the first publish. */
  queue?: string;
  content: Buffer;
  properties: {
    contentType: string;
    headers: Record<string, string>;
    correlationId?: string;
    replyTo?: string;
    messageId?: string;
    type?: string;
    appId?: string;
    priority?: number;
    deliveryMode?: number;
  };
}

export type Outcome =
  | { kind: "matched"; mockId: string; reply?: Reply; afterSend?: () => void }
  | { kind: "unmatched"; reason: string }
  | { kind: "failed"; reason: string };

const headerText = (v: unknown): string => (typeof v === "string" ? v : Buffer.isBuffer(v) ? v.toString("utf8") : JSON.stringify(v));

/** AMQP application headers as the engine's headers: lower-case names, lists of values. */
function engineHeaders(headers: Record<string, unknown> | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined || value === null) continue;
    (out[name.toLowerCase()] ??= []).push(...(Array.isArray(value) ? value.map(headerText) : [headerText(value)]));
  }
  return out;
}

/**
 * The reply of a matched mock: to its output (exchange, routing key, queue,
 * possibly another broker), else RPC style to the request's `replyTo`; none
 * when neither is there or the payload is absent. The request's
 * `correlationId` is carried over unless `outputProps` names one.
 */
export function replyOf(mock: MockDefinition, payload: unknown, responseHeaders: Record<string, string[]>, delivery: Delivery): Reply | undefined {
  const block = mock.rabbitmq;
  const encoded = rabbitReply(payload);
  if (!block || !encoded) return undefined;
  const named = block.outputExchange !== undefined || block.outputRoutingKey !== undefined || block.outputQueue !== undefined;
  if (!named && !delivery.replyTo) return undefined;
  const headers: Record<string, string> = {};
  let contentType = encoded.contentType;
  for (const [name, values] of Object.entries(responseHeaders)) {
    if (name.toLowerCase() === "content-type") contentType = values[0] ?? contentType;
    else headers[name] = values.join(", ");
  }
  const props = block.outputProps ?? {};
  return {
    url: named ? block.outputURL || undefined : undefined,
    exchange: named ? (block.outputExchange ?? "") : "",
    routingKey: named ? (block.outputRoutingKey ?? block.outputQueue ?? "") : delivery.replyTo!,
    queue: named ? block.outputQueue || undefined : undefined,
    content: encoded.content,
    properties: {
      contentType: props.contentType ?? contentType,
      headers,
      correlationId: props.correlationId ?? delivery.correlationId,
      replyTo: props.replyTo,
      messageId: props.messageId,
      type: props.type,
      appId: props.appId,
      priority: props.priority,
      // Absent: persistent, so a reply to a durable queue outlives a broker restart as the request did; 0: the broker's default.
      deliveryMode: props.deliveryMode === undefined ? 2 : props.deliveryMode === 0 ? undefined : props.deliveryMode,
    },
  };
}

async function scopeFor(server: RabbitServer, path: string, headers: Record<string, string[]>): Promise<ServingScope | undefined> {
  const index = namespaceMocksNow(server.namespace) ?? (await namespaceMocks(server.namespace));
  if (!index) return undefined;
  return { namespace: server.namespace, index, deps: await engineDepsFor(index), requestId: randomUUID(), started: performance.now(), path, search: "", query: {}, headers };
}

/** Serves one message; never throws for what the message holds (the consumer goes on with the next). */
export async function serveDelivery(server: RabbitServer, delivery: Delivery): Promise<Outcome> {
  const path = rabbitmqRoute(server.serverName, delivery.sourceKey);
  const headers = engineHeaders(delivery.headers);
  const scope = await scopeFor(server, path, headers);
  if (!scope) return { kind: "unmatched", reason: `namespace '${server.namespace}' does not exist` };
  const miss = (reason: string, body: unknown): Outcome => {
    scope.headers = { ...headers, [REASON_HEADER]: [reason] };
    recordMiss(scope, { protocol: "rabbitmq", method: RABBITMQ_METHOD, path: `${path} ${delivery.queue}`, body });
    logger().info({ namespace: server.namespace, serverName: server.serverName, queue: delivery.queue, reason }, "rabbitmq: undefined request");
    return { kind: "unmatched", reason };
  };
  const limit = maxBodyBytes();
  if (delivery.content.length > limit) return miss(`the message is ${delivery.content.length} bytes, over the limit of ${limit}`, `(${delivery.content.length} bytes, not kept)`);

  const parsed = parseRabbitBody(delivery.content, delivery.contentType);
  const req: EngineRequest = { namespace: server.namespace, method: RABBITMQ_METHOD, path, headers, query: {}, body: parsed.body, rawBody: parsed.text };
  let result;
  try {
    result = await serve("rabbitmq", scope, req);
  } catch (err) {
    // A broken mock (missing template file) is logged; the consumer goes on.
    if (!isMockError(err)) throw err;
    logger().warn({ err, namespace: server.namespace, serverName: server.serverName }, "rabbitmq mock failed");
    return { kind: "failed", reason: (err as Error).message };
  }
  if (!result.matched) {
    const nearest = result.nearest[0];
    const why = parsed.jsonError ?? (nearest ? `nearest mock '${nearest.id}': ${nearest.reasons.map((r) => r.message).join("; ")}` : `no rabbitmq mock consumes ${delivery.queue}`);
    return miss(why, parsed.body);
  }
  const { response } = result;
  const reply = replyOf(result.mock, response.body, response.headers, delivery);
  const hooks: AfterSend = {};
  await answered(scope, result, 200, hooks, { method: RABBITMQ_METHOD, url: `${path} ${delivery.queue}`, headers, body: parsed.body }, { headers: reply?.properties, body: response.body }, response.status);
  if (response.delayMs > 0) await sleep(response.delayMs);
  return { kind: "matched", mockId: result.mock.id, reply, afterSend: hooks.afterSend };
}
