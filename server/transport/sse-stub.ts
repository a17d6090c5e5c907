// SSE on the stub path: a GET that is SSE-shaped (server/engine/protocols/sse.ts)
// and matches an SSE mock is answered with a stream of the mock's
// `response.sseEventChain.events`, each after its own delay, rendered by the
// engine like any payload; the chain's controls repeat it (loop, loopDelay,
// maxLoops), keep it alive (heartbeat comments) and bound it (maxTime).
// A request no SSE mock takes goes on to HTTP mocks; if none answers either,
// it is captured as an undefined `sse` request.
import { setTimeout as sleep } from "node:timers/promises";
import { SSE_CHAIN_DEFAULTS } from "@/server/contracts/mock";
import { formatSseEvent, isSseRequest, queryObject, SSE_HEARTBEAT } from "@/server/engine/protocols/sse";
import type { EngineResult } from "@/server/engine/engine";
import type { ChainControls, EngineRequest, EngineResponse, RenderedEvent } from "@/server/engine/types";
import { logger } from "@/server/lib/logger";
import { answered, serve } from "@/server/serving/serve";
import { engineOutput, type StubAdapter, type StubContext, type StubOutput, type StubStreamSink } from "./stub-context";

export const sseAdapter: StubAdapter = {
  protocol: "sse",
  claims: (ctx) => isSseRequest(ctx.input.method.toUpperCase(), ctx.path, ctx.input.headers.accept?.[0]),
  serve: serveSse,
};

function serveSse(ctx: StubContext): StubOutput | null | Promise<StubOutput | null> {
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
  const result = serve("sse", ctx, req);
  return result instanceof Promise ? result.then((r) => sseAnswer(ctx, req, r)) : sseAnswer(ctx, req, result);
}

function sseAnswer(ctx: StubContext, req: EngineRequest, result: EngineResult): StubOutput | null | Promise<StubOutput | null> {
  if (!result.matched) {
    ctx.missAs = { protocol: "sse", nearest: result.nearest };
    return null;
  }
  const { mock, response } = result;
  // Another status (a 503 to test reconnection, a 204 that tells the client to stop) is a plain answer.
  const out = response.status !== 200 ? engineOutput(response, ctx.requestId) : streamOutput(response, mock.sse?.eventName, ctx.requestId, { requestId: ctx.requestId, namespace: ctx.namespace, mockId: mock.id });
  // A stream's afterSend runs when it ends.
  return answered(ctx, result, response.status, out, req);
}

/** A chain without controls (or a payload as the one event): one pass, no heartbeat. */
const ONE_PASS: ChainControls = {
  loop: false,
  loopDelayMs: SSE_CHAIN_DEFAULTS.loopDelay,
  heartbeatMs: 0,
  maxLoops: 1,
  maxTimeMs: SSE_CHAIN_DEFAULTS.maxTime * 1000,
  logBatch: SSE_CHAIN_DEFAULTS.logBatch,
};

const wire = (e: RenderedEvent, defaultEventName: string | undefined) => formatSseEvent(e.eventName ?? defaultEventName, e.data, e);

/** The stream of an SSE mock's answer: headers from the mock (type and caching fixed), then the events. */
export function streamOutput(response: EngineResponse, defaultEventName: string | undefined, requestId: string, logAs?: StreamLog): StubOutput {
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
  const events: RenderedEvent[] = response.events ?? (response.body === undefined ? [] : [{ eventName: undefined, data: response.body, delayMs: 0 }]);
  const chain = response.chain ?? ONE_PASS;
  // A single pass without delays is known whole at once: one write (with Content-Length) instead of
  // a chunk per event. EventSource clients read it the same way.
  if (!chain.loop && events.every((e) => e.delayMs === 0)) {
    return { status: 200, headers, body: events.map((e) => wire(e, defaultEventName)).join(""), delayMs: response.delayMs };
  }
  return {
    status: 200,
    headers,
    body: "",
    delayMs: response.delayMs,
    stream: (sink) => writeEvents(sink, events, defaultEventName, chain, logAs),
  };
}

/** Who a stream is for, in its progress lines. */
interface StreamLog {
  requestId: string;
  namespace: string;
  mockId: string;
}

/**
 * Writes the chain `maxLoops` times when it loops (once otherwise), with
 * `loopDelay` between passes, a heartbeat comment every `heartbeat` ms, and
 * an end after `maxTime` whatever is left. Every `logBatch` events one
 * progress line goes to the server log (and one when the stream ends), so a
 * long stream leaves a trace without a line per event.
 */
async function writeEvents(sink: StubStreamSink, events: RenderedEvent[], defaultEventName: string | undefined, chain: ChainControls, logAs: StreamLog | undefined) {
  // One abort for every pending delay: a client that goes away, or maxTime, stops the stream at once, leaving no timer.
  const abort = new AbortController();
  let ended: "done" | "client gone" | "maxTime" = "done";
  void sink.gone.then(() => {
    if (ended === "done") ended = "client gone";
    abort.abort();
  });
  const deadline = setTimeout(() => {
    if (ended === "done") ended = "maxTime";
    abort.abort();
  }, chain.maxTimeMs);
  const heartbeat = chain.heartbeatMs > 0 ? setInterval(() => sink.write(SSE_HEARTBEAT), chain.heartbeatMs) : undefined;
  const wait = async (ms: number) => {
    try {
      await sleep(ms, undefined, { signal: abort.signal });
      return true;
    } catch {
      return false;
    }
  };
  let sent = 0;
  let passes = 0;
  const log = (msg: string) => logAs && chain.logBatch > 0 && logger().info({ ...logAs, eventsSent: sent, passes, ended }, msg);
  try {
    const total = chain.loop ? chain.maxLoops : 1;
    for (; passes < total; passes++) {
      if (passes > 0 && !(await wait(chain.loopDelayMs))) return;
      for (const e of events) {
        if (abort.signal.aborted || sink.closed) return;
        if (e.delayMs > 0 && !(await wait(e.delayMs))) return;
        if (sink.closed) return;
        sink.write(wire(e, defaultEventName));
        if (++sent % chain.logBatch === 0) log("sse events sent");
      }
    }
  } finally {
    clearTimeout(deadline);
    clearInterval(heartbeat);
    log("sse stream ended");
  }
}
