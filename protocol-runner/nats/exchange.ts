// One NATS message through the serving core, as thin as the RabbitMQ
// exchange: the message becomes an EngineRequest for the nats mocks of the
// protocol server's namespace on the route of its subscription; a match is
// logged (webhooks dispatched once the reply is out) and becomes a reply to
// publish; a miss — or a message the mock cannot take (over the size limit,
// not the JSON it claims to be) — is an undefined request of protocol `nats`
// whose headers carry the reason (x-polymock-reason).
import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { MockDefinition } from "@/server/contracts/mock";
import { isMockError } from "@/server/engine/mock-error";
import { messageReply, parseMessageBody } from "@/server/engine/protocols/message-body";
import { NATS_METHOD, natsRoute, SUBJECT_HEADER } from "@/server/engine/protocols/nats";
import type { EngineRequest, TemplateContext } from "@/server/engine/types";
import { logger } from "@/server/lib/logger";
import { engineDepsFor } from "@/server/serving/engine-deps";
import { namespaceMocks, namespaceMocksNow } from "@/server/serving/mock-index";
import { outputContext, renderOutputs } from "@/server/serving/output-template";
import { answered, recordMiss, serve, type AfterSend, type ServingScope } from "@/server/serving/serve";

/** The header of an undefined request that says why no mock took the message. */
export const REASON_HEADER = "x-polymock-reason";

/** NATS_MAX_BODY_BYTES, else the stub path's STUB_MAX_BODY_BYTES, else 10 MiB (a NATS server's own max_payload is usually 1 MiB). */
export const maxBodyBytes = () => Number(process.env.NATS_MAX_BODY_BYTES ?? process.env.STUB_MAX_BODY_BYTES ?? 10 * 1024 * 1024);

export interface NatsServer {
  namespace: string;
  serverName: string;
}

/** What the adapter needs of a received message. */
export interface Received {
  /** The key of the subscription it came through (server/engine/protocols/nats.ts subscriptionKey). */
  subscriptionKey: string;
  subject: string;
  data: Uint8Array;
  /** Header names as sent; values as lists. */
  headers: Record<string, string[]>;
  reply?: string;
}

export interface NatsReply {
  subject: string;
  data: Buffer;
  headers: Record<string, string>;
}

export type Outcome = { kind: "matched"; mockId: string; reply?: NatsReply; afterSend?: () => void } | { kind: "unmatched"; reason: string } | { kind: "failed"; reason: string };

/** NATS headers as the engine's: lower-case names, lists of values, and the concrete subject. */
function engineHeaders(received: Received): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(received.headers)) (out[name.toLowerCase()] ??= []).push(...values);
  out[SUBJECT_HEADER] = [received.subject];
  return out;
}

/**
 * The reply of a matched mock: to its output subject, else to the request's
 * reply subject; none when neither is there or the payload is absent. Its
 * headers: the response's, then `outputHeaders` rendered against the request.
 */
export function replyOf(mock: MockDefinition, payload: unknown, responseHeaders: Record<string, string[]>, received: Received, ctx: () => TemplateContext): NatsReply | undefined {
  const block = mock.nats;
  const encoded = messageReply(payload);
  const subject = block?.outputSubject || received.reply;
  if (!block || !encoded || !subject) return undefined;
  const headers: Record<string, string> = { "content-type": encoded.contentType };
  for (const [name, values] of Object.entries(responseHeaders)) headers[name.toLowerCase() === "content-type" ? "content-type" : name] = values.join(", ");
  if (block.outputHeaders) Object.assign(headers, renderOutputs(block.outputHeaders, ctx()));
  return { subject, data: encoded.content, headers };
}

async function scopeFor(server: NatsServer, path: string, headers: Record<string, string[]>): Promise<ServingScope | undefined> {
  const index = namespaceMocksNow(server.namespace) ?? (await namespaceMocks(server.namespace));
  if (!index) return undefined;
  return { namespace: server.namespace, index, deps: await engineDepsFor(index), requestId: randomUUID(), started: performance.now(), path, search: "", query: {}, headers };
}

/** Serves one message; never throws for what the message holds (the subscription goes on with the next). */
export async function serveMessage(server: NatsServer, received: Received): Promise<Outcome> {
  const path = natsRoute(server.serverName, received.subscriptionKey);
  const headers = engineHeaders(received);
  const scope = await scopeFor(server, path, headers);
  if (!scope) return { kind: "unmatched", reason: `namespace '${server.namespace}' does not exist` };
  const url = `${path} ${received.subject}`;
  const miss = (reason: string, body: unknown): Outcome => {
    scope.headers = { ...headers, [REASON_HEADER]: [reason] };
    recordMiss(scope, { protocol: "nats", method: NATS_METHOD, path: url, body });
    logger().info({ namespace: server.namespace, serverName: server.serverName, subject: received.subject, reason }, "nats: undefined request");
    return { kind: "unmatched", reason };
  };
  const limit = maxBodyBytes();
  if (received.data.byteLength > limit) return miss(`the message is ${received.data.byteLength} bytes, over the limit of ${limit}`, `(${received.data.byteLength} bytes, not kept)`);

  const parsed = parseMessageBody(received.data, headers["content-type"]?.[0]);
  const req: EngineRequest = { namespace: server.namespace, method: NATS_METHOD, path, headers, query: {}, body: parsed.body, rawBody: parsed.text };
  let result;
  let reply: NatsReply | undefined;
  try {
    result = await serve("nats", scope, req);
    if (result.matched) {
      const { mock, pathParams } = result;
      reply = replyOf(mock, result.response.body, result.response.headers, received, () => outputContext(mock, req, pathParams, scope.deps));
    }
  } catch (err) {
    // A broken mock (missing template file) is logged; the subscription goes on.
    if (!isMockError(err)) throw err;
    logger().warn({ err, namespace: server.namespace, serverName: server.serverName }, "nats mock failed");
    return { kind: "failed", reason: (err as Error).message };
  }
  if (!result.matched) {
    const nearest = result.nearest[0];
    const why = parsed.jsonError ?? (nearest ? `nearest mock '${nearest.id}': ${nearest.reasons.map((r) => r.message).join("; ")}` : `no nats mock subscribes to ${received.subject}`);
    return miss(why, parsed.body);
  }
  const { response } = result;
  const hooks: AfterSend = {};
  await answered(scope, result, 200, hooks, { method: NATS_METHOD, url, headers, body: parsed.body }, { headers: reply?.headers, body: response.body }, response.status);
  if (response.delayMs > 0) await sleep(response.delayMs);
  return { kind: "matched", mockId: result.mock.id, reply, afterSend: hooks.afterSend };
}
