// WebSocket stubs on the main port: a client connecting to
// /stubs/<namespace>/<socket.serverName> is accepted when the namespace has a
// socket mock for that path; each message it sends is matched by the engine
// (event name as selector, conditions over the message's data) and answered
// with the mock's rendered payload. The message format is in
// server/engine/protocols/socket.ts and docs/decisions.md ("WebSocket mocks").
//
// server.ts and the tests wire upgrades the same way: `handleStubUpgrade` on
// the node:http server's 'upgrade' event, `closeStubSockets` on shutdown.
import { STATUS_CODES, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { isMockError } from "@/server/engine/mock-error";
import { parseSocketMessage, socketReply } from "@/server/engine/protocols/socket";
import type { EngineRequest } from "@/server/engine/types";
import { requestIdFrom } from "@/server/http/request-meta";
import { logger } from "@/server/lib/logger";
import { engineDepsFor } from "@/server/serving/engine-deps";
import { namespaceMocks, namespaceMocksNow, type NamespaceIndex } from "@/server/serving/mock-index";
import { answered, recordMiss, serve, type AfterSend, type ServingScope } from "@/server/serving/serve";
import { headerLists } from "./header-lists";
import { isStubPath } from "./http-stub";
import { servesPath } from "./route-presence";
import { queryOf, splitStubUrl } from "./stub-core";
import { internalErrorBody } from "@/server/errors";

export const SOCKET_LIMITS = {
  /** Larger messages close the connection with 1009 (message too big). */
  maxMessageBytes: 1024 * 1024,
  /** Messages waiting for their answer on one connection; more get an error frame and are dropped. */
  maxPendingMessages: 100,
  /** Open stub WebSockets in this process; more upgrades are refused with 503. */
  maxConnections: 10_000,
  /** A ping every interval; a client that has not answered the previous one is dropped. */
  pingIntervalMs: 30_000,
};

/** A connection's place in the serving core; each message adds its own request id and engine dependencies. */
interface Connection extends Pick<ServingScope, "namespace" | "path" | "search" | "query" | "headers" | "requestId"> {
  ws: WebSocket;
  seq: number;
  pending: number;
  /** Messages are answered one after another, in the order they came. */
  chain: Promise<void>;
  /** Aborted when the connection closes: pending delays end at once. */
  closed: AbortController;
  alive: boolean;
}

const connections = new Map<WebSocket, Connection>();
let server: WebSocketServer | undefined;
let keepalive: NodeJS.Timeout | undefined;
let shuttingDown = false;

function wss(): WebSocketServer {
  server ??= new WebSocketServer({
    noServer: true,
    maxPayload: SOCKET_LIMITS.maxMessageBytes,
    perMessageDeflate: false,
    clientTracking: false,
    // A client that asks for subprotocols gets its first one: mocks do not speak any in particular,
    // and a client refused every subprotocol fails the handshake.
    handleProtocols: (protocols) => protocols.values().next().value ?? false,
  });
  return server;
}

/**
 * The 'upgrade' listener of the node:http server: stub WebSockets are accepted, anything else is refused.
 * Behind the front (server/transport/front.ts) only `Upgrade: websocket` gets here; other
 * upgrade offers (Java's h2c) are served as ordinary HTTP/1.1 requests.
 */
export function handleStubUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
  // A reset while the namespace loads must not become an uncaught error (ws takes over once it upgrades).
  const onError = () => socket.destroy();
  socket.on("error", onError);
  const requestId = requestIdFrom({ get: (n) => (req.headers[n] as string | undefined) ?? null });
  upgrade(req, socket, head, requestId, () => socket.off("error", onError)).catch((err) => {
    logger().error({ err, requestId }, "WebSocket upgrade failed");
    refuse(socket, 500, internalErrorBody(requestId), requestId);
  });
}

async function upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, requestId: string, handOver: () => void) {
  const url = req.url ?? "/";
  const pathname = url.split("?", 1)[0];
  if (!isStubPath(pathname)) return refuse(socket, 404, { error: `No WebSocket endpoint at ${pathname}`, code: "not_found", request_id: requestId }, requestId);
  if (req.headers.upgrade?.toLowerCase() !== "websocket") {
    return refuse(socket, 400, { error: "Only WebSocket upgrades are served here", code: "validation", request_id: requestId }, requestId);
  }
  if (shuttingDown || connections.size >= SOCKET_LIMITS.maxConnections) {
    return refuse(socket, 503, { error: "Too many WebSocket connections, or the server is shutting down", code: "unavailable", request_id: requestId }, requestId);
  }
  const { namespace, path, search } = splitStubUrl(url);
  const index = namespaceMocksNow(namespace) ?? (namespace ? await namespaceMocks(namespace) : undefined);
  if (!index) return refuse(socket, 404, { error: `Namespace '${namespace}' does not exist`, code: "not_found", request_id: requestId, details: { namespace } }, requestId);
  const conn: Omit<Connection, "ws"> = {
    namespace,
    path,
    search,
    query: queryOf(search),
    headers: headerLists(req.headers),
    requestId,
    seq: 0,
    pending: 0,
    chain: Promise.resolve(),
    closed: new AbortController(),
    alive: true,
  };
  if (!servesPath(index.indexes.socket, path)) {
    recordMiss(await scopeFor(conn, index, requestId), { protocol: "socket", method: "CONNECT", body: null });
    const body = { error: `No WebSocket mock at ${path} in namespace '${namespace}'`, code: "not_found", request_id: requestId, details: { namespace, path } };
    return refuse(socket, 404, body, requestId);
  }
  if (socket.destroyed) return;
  handOver();
  wss().handleUpgrade(req, socket, head, (ws) => accept({ ...conn, ws }));
}

/** Any socket mock of the namespace whose serverName route fits the path, whatever its event. */
/** An HTTP error answer on a socket that will not be upgraded. */
function refuse(socket: Duplex, status: number, body: unknown, requestId: string) {
  if (socket.destroyed) return;
  const text = JSON.stringify(body);
  socket.once("finish", () => socket.destroy());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${text}`,
  );
}

function accept(conn: Connection) {
  const { ws } = conn;
  connections.set(ws, conn);
  startKeepalive();
  ws.on("pong", () => (conn.alive = true));
  // Protocol errors (oversized or invalid frames) close the connection with their code; nothing to add.
  ws.on("error", () => {});
  ws.on("close", () => {
    conn.closed.abort();
    connections.delete(ws);
    if (connections.size === 0) stopKeepalive();
  });
  ws.on("message", (data: RawData) => {
    if (conn.pending >= SOCKET_LIMITS.maxPendingMessages) {
      send(conn, JSON.stringify({ error: `More than ${SOCKET_LIMITS.maxPendingMessages} messages are waiting for an answer; this one was dropped`, code: "too_many_requests", request_id: conn.requestId }));
      return;
    }
    // Binary frames are read as UTF-8 text, like text frames.
    const text = Buffer.isBuffer(data) ? data.toString("utf8") : Array.isArray(data) ? Buffer.concat(data).toString("utf8") : Buffer.from(data).toString("utf8");
    conn.pending++;
    const failed = (err: unknown) => {
      logger().error({ err, requestId: conn.requestId, namespace: conn.namespace }, "WebSocket message failed");
      send(conn, JSON.stringify(internalErrorBody(conn.requestId)));
    };
    // Matching runs in arrival order; each answer then goes out after its own delay, so a
    // slow answer (or a long chain of events) does not hold back the next message's.
    conn.chain = conn.chain.then(async () => {
      let delivery: Promise<void> | undefined;
      try {
        delivery = (await onMessage(conn, text))?.delivery;
      } catch (err) {
        failed(err);
      }
      if (!delivery) conn.pending--;
      else void delivery.catch(failed).finally(() => conn.pending--);
    });
  });
}

function send(conn: Connection, frame: string) {
  if (conn.ws.readyState === conn.ws.OPEN) conn.ws.send(frame);
}

async function scopeFor(conn: Omit<Connection, "ws">, index: NamespaceIndex, requestId: string): Promise<ServingScope> {
  return {
    namespace: conn.namespace,
    index,
    deps: await engineDepsFor(index),
    requestId,
    started: performance.now(),
    path: conn.path,
    search: conn.search,
    query: conn.query,
    headers: conn.headers,
  };
}

/** Matches one message; returns the delivery of its answer, which may wait for delays. */
async function onMessage(conn: Connection, text: string): Promise<{ delivery: Promise<void> } | undefined> {
  if (conn.closed.signal.aborted) return;
  const requestId = `${conn.requestId}.${++conn.seq}`;
  // The namespace's current mocks: a mock saved while the client is connected answers its next message.
  const index = namespaceMocksNow(conn.namespace) ?? (await namespaceMocks(conn.namespace));
  if (!index) {
    send(conn, JSON.stringify({ error: `Namespace '${conn.namespace}' does not exist`, code: "not_found", request_id: requestId }));
    return;
  }
  const scope = await scopeFor(conn, index, requestId);
  const message = parseSocketMessage(text);
  const req: EngineRequest = { namespace: conn.namespace, method: message.event, path: conn.path, headers: conn.headers, query: conn.query, body: message.body, rawBody: text };
  let result;
  try {
    result = await serve("socket", scope, req);
  } catch (err) {
    // A broken mock (missing template file, oversized template) is reported on the socket, which stays open.
    if (!isMockError(err)) throw err;
    send(conn, JSON.stringify({ error: err.message, code: "mock_error", request_id: requestId }));
    return;
  }
  if (!result.matched) {
    // Captured as "MESSAGE <path> <event>": the method column is upper-cased, event names are not.
    recordMiss(scope, { protocol: "socket", method: "MESSAGE", path: `${conn.path} ${message.event}`, body: message.body });
    send(
      conn,
      JSON.stringify({
        error: `No mock matches event '${message.event}' on ${conn.path} in namespace '${conn.namespace}'`,
        code: "not_found",
        request_id: requestId,
        details: { namespace: conn.namespace, path: conn.path, event: message.event, nearest: result.nearest },
      }),
    );
    return;
  }
  const { response } = result;
  // A message has no status of its own: the log shows 200, and `trigger` is judged on the mock's status.
  const hooks: AfterSend = {};
  await answered(scope, result, 200, hooks, { method: message.event, body: message.body }, undefined, response.status);
  const reply = socketReply(response.body);
  const events = response.events ?? [];
  if (response.delayMs === 0 && events.length === 0) {
    if (reply !== undefined) send(conn, reply);
    hooks.afterSend?.();
    return;
  }
  const delivery = (async () => {
    if (!(await pause(response.delayMs, conn))) return;
    if (reply !== undefined) send(conn, reply);
    // A chain of events pushes more frames, each after its delay (e.g. updates after a subscribe).
    for (const e of events) {
      if (!(await pause(e.delayMs, conn))) return;
      const frame = socketReply(e.data);
      if (frame !== undefined) send(conn, frame);
    }
    hooks.afterSend?.();
  })();
  return { delivery };
}

/** Waits, unless the connection closes first; false when it did. */
async function pause(ms: number, conn: Connection): Promise<boolean> {
  if (ms > 0) {
    try {
      await sleep(ms, undefined, { signal: conn.closed.signal });
    } catch {
      return false;
    }
  }
  return !conn.closed.signal.aborted;
}

function startKeepalive() {
  if (keepalive) return;
  keepalive = setInterval(sweepStubSockets, SOCKET_LIMITS.pingIntervalMs);
  keepalive.unref();
}

function stopKeepalive() {
  if (keepalive) clearInterval(keepalive);
  keepalive = undefined;
}

/** One keepalive round: drops clients that did not answer the last ping, pings the others. */
export function sweepStubSockets() {
  for (const conn of connections.values()) {
    if (!conn.alive) {
      conn.ws.terminate();
      continue;
    }
    conn.alive = false;
    conn.ws.ping();
  }
}

/** Closes every stub WebSocket (1001 "going away"), then refuses new ones; waits up to `graceMs` before cutting the rest. */
export async function closeStubSockets(graceMs = 1000): Promise<void> {
  shuttingDown = true;
  stopKeepalive();
  const open = [...connections.keys()];
  const closed = open.map((ws) => new Promise<void>((resolve) => (ws.readyState === ws.CLOSED ? resolve() : ws.once("close", () => resolve()))));
  for (const ws of open) ws.close(1001, "Server shutting down");
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
  await Promise.race([Promise.all(closed), grace]);
  clearTimeout(timer);
  for (const ws of connections.keys()) ws.terminate();
  connections.clear();
}
