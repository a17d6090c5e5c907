// What every protocol adapter of the stub path shares: the request as
// received within its serving scope (server/serving/scope.ts: the namespace's
// compiled mocks, the engine's dependencies), and the answer's shape.
// Adapters (HTTP, GraphQL, SOAP, SSE, MCP, S3, WebSocket) build their
// EngineRequest from this and call the serving core, so no protocol has its
// own matching, templating, logging or webhook dispatch.
import type { NearMiss } from "@/server/engine/near-miss";
import type { ServedProtocol } from "@/server/engine/protocols";
import type { EngineResponse } from "@/server/engine/types";
import type { ServingScope } from "@/server/serving/scope";
import { responseBytes } from "@/server/engine/rendered-body";

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

/**
 * Removes a mock's own Transfer-Encoding and Trailer headers: the stub frames
 * the body itself (Content-Length, or chunks for a stream). Recorded and
 * imported answers carry `Transfer-Encoding: chunked` from the service they
 * came from, while their body is already whole; sent as is, the header would
 * misframe it (docs/decisions.md, "The lean stub layer before node:http").
 */
export function dropFramingHeaders(headers: Record<string, string | string[]>): void {
  for (const name in headers) {
    const n = name.length;
    if ((n === 17 || n === 7) && (name.toLowerCase() === "transfer-encoding" || name.toLowerCase() === "trailer")) delete headers[name];
  }
}

export interface StubContext extends ServingScope {
  input: StubInput;
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

/** A protocol adapter tried before a stub request is served as plain HTTP (the list is ./stub-adapters.ts). */
export interface StubAdapter {
  protocol: ServedProtocol;
  /** Try this adapter even when the namespace has no mocks of its protocol (e.g. to capture an undefined call). */
  always?: boolean;
  /**
   * A cheap, synchronous first look: false means "not mine" without calling
   * serve. Plain HTTP traffic then passes every adapter without a promise.
   */
  claims?(ctx: StubContext): boolean;
  /** null: not this adapter's request after all (the next one, then HTTP, gets it). Synchronous when it can be: no promise per request. */
  serve(ctx: StubContext): StubOutput | null | Promise<StubOutput | null>;
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

/** The 404 of an unmatched stub call: the error envelope with the nearest mocks in details. */
export function notFound(ctx: StubContext, method: string, nearest: NearMiss[], what = `${method} ${ctx.path}`): StubOutput {
  return jsonOutput(
    404,
    { error: `No mock matches ${what} in namespace '${ctx.namespace}'`, code: "not_found", request_id: ctx.requestId, details: { namespace: ctx.namespace, method, path: ctx.path, nearest } },
    ctx.requestId,
  );
}
