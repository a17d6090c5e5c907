// The node:http fast path for stub traffic: /stubs/<namespace>/<path>.
import type { IncomingMessage, ServerResponse } from "node:http";
import { logger } from "@/server/lib/logger";
import { observeStub } from "@/server/observability/metrics";
import { headerLists } from "./header-lists";
import { serveStubNow } from "./stub-core";
import { collectStubBody, StubBodyTooLarge, stubBodyLimit } from "./stub-body";
import { dropFramingHeaders, type StubOutput } from "./stub-context";
import { internalErrorBody } from "@/server/errors";

export function isStubPath(pathname: string): boolean {
  return pathname === "/stubs" || pathname.startsWith("/stubs/");
}

/**
 * Serves a stub request on node:http; with `started` (performance.now() at
 * arrival) it also records the request's metrics. Synchronous for a bodiless request to
 * the usual mock: no promise is made on the way. A returned promise is a
 * bodiless request still being answered (the caller handles its failure with
 * stubFailed); requests with a body handle their own failures.
 */
export function handleStubRequest(req: IncomingMessage, res: ServerResponse, requestId: string, started?: number): void | Promise<void> {
  const method = req.method ?? "GET";
  const url = req.url ?? "/";
  const headers = headerLists(req.headers);
  const bodiless = (method === "GET" || method === "HEAD") && req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined;
  if (bodiless) {
    req.resume();
    return respond(req, res, serveStubNow({ method, url, headers, rawBody: EMPTY, requestId }), started);
  }
  collectStubBody(req, stubBodyLimit(), (err, rawBody) => {
    if (err) return bodyError(req, res, err, requestId, started);
    try {
      const out = respond(req, res, serveStubNow({ method, url, headers, rawBody, requestId }), started);
      if (out) out.catch((e) => stubFailed(e, res, requestId));
    } catch (e) {
      stubFailed(e, res, requestId);
    }
  });
}

/** The last resort: a 500 envelope, or a cut connection once the answer has begun. */
export function stubFailed(err: unknown, res: ServerResponse, requestId: string) {
  logger().error({ err, requestId }, "stub request failed");
  if (!res.headersSent) {
    res.writeHead(500, { "Content-Type": "application/json" });
    res.end(JSON.stringify(internalErrorBody(requestId)));
  } else res.destroy();
}

function bodyError(req: IncomingMessage, res: ServerResponse, err: Error, requestId: string, started?: number) {
  const tooLarge = err instanceof StubBodyTooLarge;
  const text = JSON.stringify({ error: tooLarge ? err.message : "Could not read the request body", code: tooLarge ? "payload_too_large" : "validation", request_id: requestId });
  res.writeHead(tooLarge ? 413 : 400, { "Content-Type": "application/json", "X-Request-Id": requestId, Connection: "close" });
  res.end(text);
  if (started !== undefined) observeStub(req.method ?? "GET", tooLarge ? 413 : 400, (performance.now() - started) / 1000);
}

const EMPTY = Buffer.alloc(0);

function respond(req: IncomingMessage, res: ServerResponse, out: StubOutput | Promise<StubOutput>, started?: number): void | Promise<void> {
  if (out instanceof Promise) return out.then((o) => respond(req, res, o, started));
  if (out.delayMs > 0) {
    return new Promise<void>((resolve) => setTimeout(resolve, out.delayMs)).then(() => send(req, res, out, started));
  }
  return send(req, res, out, started);
}

function send(req: IncomingMessage, res: ServerResponse, out: StubOutput, started?: number): void | Promise<void> {
  dropFramingHeaders(out.headers);
  if (out.stream) return streamOut(res, out).finally(() => started !== undefined && observeStub(req.method ?? "GET", out.status, (performance.now() - started) / 1000));
  // A proxied HEAD answer carries the upstream's Content-Length for a body it does not send; keep it.
  const keepLength = req.method === "HEAD" && Object.keys(out.headers).some((h) => h.toLowerCase() === "content-length");
  // 204 and 304 carry neither a body nor a Content-Length (RFC 9110).
  const bodiless = out.status === 204 || out.status === 304 || (out.status >= 100 && out.status < 200);
  if (!keepLength && !bodiless) out.headers["Content-Length"] = String(typeof out.body === "string" ? Buffer.byteLength(out.body) : out.body.length);
  const { afterSend } = out;
  // Webhooks start once the response has left ('finish'), or when the client went away first ('close').
  if (afterSend) {
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      afterSend();
    };
    res.once("finish", start);
    res.once("close", start);
  }
  res.writeHead(out.status, out.headers);
  res.end(req.method === "HEAD" || bodiless ? undefined : out.body);
  if (started !== undefined) observeStub(req.method ?? "GET", out.status, (performance.now() - started) / 1000);
}

async function streamOut(res: ServerResponse, out: StubOutput) {
  let closed = false;
  const gone = new Promise<void>((resolve) =>
    res.once("close", () => {
      closed = true;
      resolve();
    }),
  );
  res.writeHead(out.status, out.headers);
  res.flushHeaders();
  try {
    await out.stream!({
      write: (chunk) => {
        if (!closed) res.write(chunk);
      },
      get closed() {
        return closed;
      },
      gone,
    });
  } finally {
    if (!closed) res.end();
    out.afterSend?.();
  }
}
