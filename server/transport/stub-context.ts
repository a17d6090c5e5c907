// What every protocol adapter of the stub path shares: the request as
// received, the namespace's compiled mocks and stores, the engine's
// dependencies, and the bookkeeping calls. Adapters (HTTP, GraphQL, SOAP,
// SSE, MCP, S3, WebSocket) build their EngineRequest from this and use the
// same engine, so no protocol has its own matching, templating or logging.
import { handle, type EngineDeps, type EngineResult } from "@/server/engine/engine";
import type { NearMiss } from "@/server/engine/near-miss";
import type { ServedProtocol } from "@/server/engine/protocols";
import type { EngineRequest, EngineResponse } from "@/server/engine/types";
import { responseBytes } from "@/server/engine/rendered-body";
import type { MockDefinition } from "@/server/contracts/mock";
import type { NamespaceIndex } from "@/server/services/mock-index";
import { storeAccessFor, type NamespaceStores } from "@/server/services/stores";
import { takeUse } from "@/server/services/use-limiter";
import { stubRecorder } from "./stub-recorder";

export interface StubInput {
  method: string;
  /** Path and query as received, starting with /stubs/. */
  url: string;
  headers: Record<string, string[]>;
  /** The body's bytes (a string is taken as UTF-8). */
  rawBody: string | Buffer;
  requestId: string;
}

/** A streamed answer (SSE): `write` sends a chunk; `closed` tells whether the client went away. */
export interface StubStreamSink {
  write(chunk: string): void;
  readonly closed: boolean;
  /** Resolves when the client disconnects. */
  readonly gone: Promise<void>;
}

export interface StubOutput {
  status: number;
  headers: Record<string, string | string[]>;
  /** Bytes for proxied answers and stored objects, text otherwise. */
  body: string | Buffer;
  delayMs: number;
  /** For the adapter to call once the response is sent: starts the mock's webhooks. */
  afterSend?: () => void;
  /** When set, the body is streamed: headers go out first, then `stream` writes until it resolves. */
  stream?: (sink: StubStreamSink) => Promise<void>;
}

export interface StubContext {
  input: StubInput;
  namespace: string;
  /** Path after /stubs/<namespace>, starting with "/". */
  path: string;
  /** The query string with its "?", or "". */
  search: string;
  query: Record<string, string[]>;
  requestId: string;
  /** performance.now() when the request arrived. */
  started: number;
  index: NamespaceIndex;
  deps: EngineDeps;
  /** The body as text (UTF-8). */
  text: string;
  /** The body's bytes. */
  bytes: Buffer;
  /**
   * Set by an adapter that recognised its protocol's request but found no mock
   * and passed it on to HTTP: if HTTP has none either, the miss is captured
   * under this protocol, with its near misses in the 404.
   */
  missAs?: { protocol: ServedProtocol; nearest: NearMiss[] };
}

const clock = { now: () => Date.now() };
const random = { next: () => Math.random(), unseeded: true };

const depsCache = new WeakMap<NamespaceIndex, { stores: NamespaceStores; deps: EngineDeps }>();

/** The engine's dependencies for a namespace; made once per (index, stores) pair, not per request. */
export function engineDeps(index: NamespaceIndex, stores: NamespaceStores): EngineDeps {
  const cached = depsCache.get(index);
  if (cached && cached.stores === stores) return cached.deps;
  const deps = makeDeps(index, stores);
  depsCache.set(index, { stores, deps });
  return deps;
}

function makeDeps(index: NamespaceIndex, stores: NamespaceStores): EngineDeps {
  return {
    clock,
    random,
    stores: storeAccessFor(index.namespaceId, stores),
    files: index.files,
    takeUse: (mockId, limit) => takeUse(index.namespaceId, mockId, limit),
  };
}

/** Runs the engine over one protocol's mocks of the namespace (synchronous for most mocks; await it). */
export function answer(ctx: StubContext, req: EngineRequest, protocol: ServedProtocol = "http"): EngineResult | Promise<EngineResult> {
  return handle(ctx.index, req, ctx.deps, protocol);
}

export function jsonOutput(status: number, body: unknown, requestId: string): StubOutput {
  return { status, headers: { "Content-Type": "application/json", "X-Request-Id": requestId }, body: JSON.stringify(body), delayMs: 0 };
}

const headerSafe = (v: string) => (v.includes("\r") || v.includes("\n") ? v.replace(/[\r\n]+/g, " ") : v);

/** The engine's response as bytes on the wire: JSON values serialised, header values kept to one line. */
export function engineOutput(response: EngineResponse, requestId: string, defaultTextType = "text/plain; charset=utf-8"): StubOutput {
  const { body, isText } = responseBytes(response);
  const headers: Record<string, string | string[]> = { "X-Request-Id": requestId };
  let hasType = false;
  for (const name in response.headers) {
    const values = response.headers[name];
    // Rendered header values may carry request data: CR/LF would split the response. A lone value goes out as a string (node's cheaper path).
    headers[name] = values.length === 1 ? headerSafe(values[0]) : values.map(headerSafe);
    if (!hasType && name.toLowerCase() === "content-type") hasType = true;
  }
  if (body.length > 0 && !hasType) headers["Content-Type"] = isText ? defaultTextType : "application/json";
  return { status: response.status, headers, body, delayMs: response.delayMs };
}

/** Logs a hit (request log, use counter, live event) unless the mock is transient. */
export function recordHit(ctx: StubContext, mock: MockDefinition, status: number, req: { method: string; url?: string; headers?: Record<string, string[]>; query?: Record<string, string[]>; body: unknown }, response?: { headers?: unknown; body?: unknown }) {
  if (mock.transient) return;
  stubRecorder().hit({
    namespaceId: ctx.index.namespaceId,
    namespace: ctx.namespace,
    mockId: mock.id,
    countUse: mock.useLimiter === 0,
    calledAt: Date.now(),
    method: req.method,
    url: req.url ?? ctx.path + ctx.search,
    headers: req.headers ?? ctx.input.headers,
    query: req.query ?? ctx.query,
    body: req.body,
    status,
    durationMs: performance.now() - ctx.started,
    // A reference, not a copy: the recorder bounds it only for the records it keeps.
    response: response && { status, headers: response.headers, get body() { return response.body; } },
  });
}

/** Captures an undefined request. `path` may carry protocol detail (e.g. "/graphql query users"). */
export function recordMiss(ctx: StubContext, miss: { protocol: ServedProtocol; method: string; path?: string; body: unknown }) {
  stubRecorder().miss({
    namespaceId: ctx.index.namespaceId,
    namespace: ctx.namespace,
    protocol: miss.protocol,
    method: miss.method,
    path: miss.path ?? ctx.path,
    query: ctx.query,
    headers: ctx.input.headers,
    body: miss.body,
  });
}

/** The 404 of an unmatched stub call: the error envelope with the nearest mocks in details. */
export function notFound(ctx: StubContext, method: string, nearest: NearMiss[], what = `${method} ${ctx.path}`): StubOutput {
  return jsonOutput(
    404,
    { error: `No mock matches ${what} in namespace '${ctx.namespace}'`, code: "not_found", request_id: ctx.requestId, details: { namespace: ctx.namespace, method, path: ctx.path, nearest } },
    ctx.requestId,
  );
}
