// One TCP/UDP message (or connection) through the serving core, as thin as the
// WebSocket adapter (server/transport/ws-stub.ts): decode into an
// EngineRequest for the socket mocks whose `serverName` names the protocol
// server, serve, and return the rendered frames; a miss is an undefined
// request of protocol `tcp`/`udp`.
import { randomUUID } from "node:crypto";
import { isMockError } from "@/server/engine/mock-error";
import { parseSocketMessage, socketReply, type SocketMessage } from "@/server/engine/protocols/socket";
import type { EngineRequest } from "@/server/engine/types";
import { logger } from "@/server/lib/logger";
import { engineDepsFor } from "@/server/serving/engine-deps";
import { namespaceMocks, namespaceMocksNow } from "@/server/serving/mock-index";
import { answered, recordMiss, serve, type AfterSend, type ServingScope } from "@/server/serving/serve";

/** The event of a new TCP connection: a mock with `socket.event: "connect"` greets the client. */
export const CONNECT_EVENT = "connect";

export interface Peer {
  /** The undefined-request protocol of its misses. */
  protocol: "tcp" | "udp";
  namespace: string;
  serverName: string;
  /** "address:port" of the client, kept in the request log's headers. */
  remote: string;
}

/** A frame to send after waiting `delayMs` (the mock's delay, then each chained event's). */
export interface Outgoing {
  delayMs: number;
  text: string;
}

export interface Answer {
  frames: Outgoing[];
  /** Starts the mock's non-blocking webhooks once the frames are sent. */
  afterSend?: () => void;
}

async function scopeFor(peer: Peer): Promise<ServingScope | undefined> {
  const index = namespaceMocksNow(peer.namespace) ?? (await namespaceMocks(peer.namespace));
  if (!index) return undefined;
  return {
    namespace: peer.namespace,
    index,
    deps: await engineDepsFor(index),
    requestId: randomUUID(),
    started: performance.now(),
    path: `/${peer.serverName}`,
    search: "",
    query: {},
    headers: { "x-remote-address": [peer.remote] },
  };
}

/**
 * Serves a message's text (`text`), or the connection itself (`text`
 * undefined, event "connect"). Unmatched messages are captured; an unmatched
 * connect is the ordinary case of a server that does not greet.
 */
export async function exchange(peer: Peer, text: string | undefined): Promise<Answer> {
  return exchangeMessage(peer, text === undefined ? undefined : parseSocketMessage(text), text ?? "", socketReply);
}

/**
 * The same for a message another codec decoded (the plugin listener's RESP
 * commands): `message` undefined is the connection itself, `raw` is what the
 * request log keeps, `encode` turns a rendered payload into the wire's text.
 * `matched` tells a codec that answers every command to send its own reply.
 */
export async function exchangeMessage(
  peer: Peer,
  message: SocketMessage | undefined,
  raw: string,
  encode: (payload: unknown) => string | undefined,
  /** false: a miss is not an undefined request (a protocol handshake the codec answers itself). */
  captureMiss = true,
): Promise<Answer & { matched: boolean; known: boolean }> {
  const none = { frames: [], matched: false };
  const scope = await scopeFor(peer);
  if (!scope) return { ...none, known: false };
  const connect = message === undefined;
  const msg = message ?? { event: CONNECT_EVENT, body: null };
  const req: EngineRequest = { namespace: peer.namespace, method: msg.event, path: scope.path, headers: scope.headers, query: {}, body: msg.body, rawBody: raw };
  let result;
  try {
    result = await serve("socket", scope, req);
  } catch (err) {
    // A broken mock (missing template file) is logged; the connection stays up, as on the WebSocket wire.
    if (!isMockError(err)) throw err;
    logger().warn({ err, namespace: peer.namespace, serverName: peer.serverName }, `${peer.protocol} mock failed`);
    return { ...none, known: true };
  }
  // Only a mock naming the connect event greets: one without an event answers messages, not connections.
  if (connect && result.matched && result.mock.socket?.event !== CONNECT_EVENT) return { ...none, known: true };
  if (!result.matched) {
    if (!connect && captureMiss) recordMiss(scope, { protocol: peer.protocol, method: "MESSAGE", path: `${scope.path} ${msg.event}`, body: msg.body });
    return { ...none, known: true };
  }
  const { response } = result;
  const hooks: AfterSend = {};
  await answered(scope, result, 200, hooks, { method: msg.event, headers: scope.headers, body: msg.body }, undefined, response.status);
  const frames: Outgoing[] = [];
  const reply = encode(response.body);
  if (reply !== undefined) frames.push({ delayMs: response.delayMs, text: reply });
  for (const e of response.events ?? []) {
    const chained = encode(e.data);
    if (chained !== undefined) frames.push({ delayMs: e.delayMs, text: chained });
  }
  return { frames, afterSend: hooks.afterSend, matched: true, known: true };
}
