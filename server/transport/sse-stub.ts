// SSE on the stub path: a GET that is SSE-shaped (server/engine/protocols/sse.ts)
// and matches an SSE mock is answered with a stream of the mock's
// `response.sseEventChain.events`, each after its own delay, rendered by the
// engine like any payload. A request no SSE mock takes goes on to HTTP mocks;
// if none answers either, it is captured as an undefined `sse` request.
import { setTimeout as sleep } from "node:timers/promises";
import { formatSseEvent, isSseRequest, queryObject } from "@/server/engine/protocols/sse";
import type { EngineRequest, EngineResponse } from "@/server/engine/types";
import { logger } from "@/server/lib/logger";
import { fireWebhooks } from "@/server/services/webhooks";
import type { StubAdapter } from "./stub-adapters";
import { answer, engineOutput, recordHit, type StubContext, type StubOutput, type StubStreamSink } from "./stub-context";

export const sseAdapter: StubAdapter = {
  protocol: "sse",
  claims: (ctx) => isSseRequest(ctx.input.method.toUpperCase(), ctx.path, ctx.input.headers.accept?.[0]),
  serve: serveSse,
};

async function serveSse(ctx: StubContext): Promise<StubOutput | null> {
  const { input, path } = ctx;
  if (!isSseRequest(input.method.toUpperCase(), path, input.headers.accept?.[0])) return null;
  const req: EngineRequest = {
    namespace: ctx.namespace,
    method: "GET",
    path,
    headers: input.headers,
    query: ctx.query,
    // An EventSource cannot send a body: conditions and $.req see the query string.
    body: queryObject(ctx.query),
    rawBody: ctx.text,
  };
  const result = await answer(ctx, req, "sse");
  if (!result.matched) {
    ctx.missAs = { protocol: "sse", nearest: result.nearest };
    return null;
  }
  const { mock, response } = result;
  const afterSend = result.webhooks.length > 0 ? () => fireWebhooks(result.webhooks, { namespace: ctx.namespace, mockId: mock.id, requestId: ctx.requestId }) : undefined;
  if (result.webhookErrors.length > 0) logger().warn({ requestId: ctx.requestId, namespace: ctx.namespace, mockId: mock.id, errors: result.webhookErrors }, "webhooks not rendered");
  recordHit(ctx, mock, response.status, req);
  // Another status (a 503 to test reconnection, a 204 that tells the client to stop) is a plain answer.
  if (response.status !== 200) return { ...engineOutput(response, ctx.requestId), afterSend };
  const out = streamOutput(response, mock.sse?.eventName, ctx.requestId);
  out.afterSend = afterSend;
  return out;
}

/** The stream of an SSE mock's answer: headers from the mock (type and caching fixed), then the events. */
export function streamOutput(response: EngineResponse, defaultEventName: string | undefined, requestId: string): StubOutput {
  const headers: Record<string, string | string[]> = {};
  for (const name in response.headers) {
    const lower = name.toLowerCase();
    if (lower === "content-type" || lower === "cache-control" || lower === "content-length") continue;
    headers[name] = response.headers[name].map((v) => v.replace(/[\r\n]+/g, " "));
  }
  headers["Content-Type"] = "text/event-stream";
  headers["Cache-Control"] = "no-cache";
  headers["X-Request-Id"] = requestId;
  // A mock without a chain but with a payload sends that payload as its one event.
  const events = response.events ?? (response.body === undefined ? [] : [{ eventName: undefined, data: response.body, delayMs: 0 }]);
  // A chain without delays is known whole at once: one write (with Content-Length) instead of
  // a chunk per event. EventSource clients read it the same way.
  if (events.every((e) => e.delayMs === 0)) {
    return { status: 200, headers, body: events.map((e) => formatSseEvent(e.eventName ?? defaultEventName, e.data)).join(""), delayMs: response.delayMs };
  }
  return {
    status: 200,
    headers,
    body: "",
    delayMs: response.delayMs,
    stream: (sink) => writeEvents(sink, events, defaultEventName),
  };
}

async function writeEvents(sink: StubStreamSink, events: NonNullable<EngineResponse["events"]>, defaultEventName: string | undefined) {
  // One abort for every pending delay: a client that goes away stops the stream at once, leaving no timer.
  const abort = new AbortController();
  void sink.gone.then(() => abort.abort());
  for (const e of events) {
    if (sink.closed) return;
    if (e.delayMs > 0) {
      try {
        await sleep(e.delayMs, undefined, { signal: abort.signal });
      } catch {
        return;
      }
    }
    if (sink.closed) return;
    sink.write(formatSseEvent(e.eventName ?? defaultEventName, e.data));
  }
}
