// Serving one stub request over HTTP, independent of the server that received
// it (the node:http fast path in server.ts, or the Next.js route handler):
// find the namespace's compiled mocks (server/serving), let a protocol adapter
// claim the request (./stub-adapters), or serve it as HTTP through the
// serving core.
import type { EngineResult } from "@/server/engine/engine";
import { isMockError } from "@/server/engine/mock-error";
import type { EngineRequest } from "@/server/engine/types";
import { logger } from "@/server/lib/logger";
import { engineDeps } from "@/server/serving/engine-deps";
import { namespaceMocks, namespaceMocksNow, type NamespaceIndex } from "@/server/serving/mock-index";
import { answered, recordMiss, serve } from "@/server/serving/serve";
import { namespaceStores, namespaceStoresNow, type NamespaceStores } from "@/server/services/stores";
import { STUB_ADAPTERS } from "./stub-adapters";
import { parseStubBody } from "./stub-body";
import { engineOutput, jsonOutput, notFound, type StubContext, type StubInput, type StubOutput } from "./stub-context";
import { forwardToProxy } from "./stub-proxy";
import { internalErrorBody } from "@/server/errors";

export type { StubInput, StubOutput } from "./stub-context";

const EMPTY = Buffer.alloc(0);

export function queryOf(search: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (search.length <= 1) return out;
  for (const [k, v] of new URLSearchParams(search)) (out[k] ??= []).push(v);
  return out;
}

/** "/stubs/<namespace>/<path>?<query>" → its parts, without a URL object per request. */
export function splitStubUrl(url: string): { namespace: string; path: string; search: string } {
  const q = url.indexOf("?");
  let pathname = q < 0 ? url : url.slice(0, q);
  // Dot segments and backslashes are resolved the way a URL parser (and a browser) would.
  if (pathname.includes("/.") || pathname.includes("\\")) pathname = new URL(pathname, "http://stub").pathname;
  const search = q < 0 ? "" : url.slice(q);
  // "/stubs/" is 7 characters; the namespace runs to the next "/".
  const slash = pathname.indexOf("/", 7);
  const rawNamespace = slash < 0 ? pathname.slice(7) : pathname.slice(7, slash);
  let namespace = rawNamespace;
  if (rawNamespace.includes("%")) {
    try {
      namespace = decodeURIComponent(rawNamespace);
    } catch {}
  }
  const path = slash < 0 ? "/" : pathname.slice(slash);
  return { namespace, path, search };
}

/** Serves one stub request. */
export async function serveStub(input: StubInput): Promise<StubOutput> {
  return serveStubNow(input);
}

/** serveStub for the fast path: synchronous when nothing needs to wait (the usual mock, with a warm index). */
export function serveStubNow(input: StubInput): StubOutput | Promise<StubOutput> {
  const started = performance.now();
  const { namespace, path, search } = splitStubUrl(input.url);
  try {
    const index = namespaceMocksNow(namespace);
    const stores = index && namespaceStoresNow(index.namespaceId);
    if (index && stores) {
      const out = serveIn(input, started, namespace, path, search, index, stores);
      return out instanceof Promise ? out.catch((err) => failure(err, input.requestId, namespace, path)) : out;
    }
    return serveCold(input, started, namespace, path, search, index).catch((err) => failure(err, input.requestId, namespace, path));
  } catch (err) {
    return failure(err, input.requestId, namespace, path);
  }
}

/** The first request of a namespace (or one during a rebuild): waits for its index and stores. */
async function serveCold(input: StubInput, started: number, namespace: string, path: string, search: string, index: NamespaceIndex | undefined): Promise<StubOutput> {
  const loaded = index ?? (namespace ? await namespaceMocks(namespace) : undefined);
  if (!loaded) return jsonOutput(404, { error: `Namespace '${namespace}' does not exist`, code: "not_found", request_id: input.requestId, details: { namespace } }, input.requestId);
  return serveIn(input, started, namespace, path, search, loaded, namespaceStoresNow(loaded.namespaceId) ?? (await namespaceStores(loaded.namespaceId)));
}

function failure(err: unknown, requestId: string, namespace: string, path: string): StubOutput {
  // A broken mock (missing template file, oversized template) is the mock's error, reported as such.
  const known = isMockError(err);
  if (!known) logger().error({ err, requestId, namespace, path }, "stub request failed");
  return jsonOutput(500, known ? { error: err.message, code: "mock_error", request_id: requestId } : internalErrorBody(requestId), requestId);
}

function serveIn(input: StubInput, started: number, namespace: string, path: string, search: string, index: NamespaceIndex, stores: NamespaceStores): StubOutput | Promise<StubOutput> {
  const raw = input.rawBody;
  const ctx: StubContext = {
    input,
    namespace,
    path,
    search,
    query: queryOf(search),
    headers: input.headers,
    requestId: input.requestId,
    started,
    index,
    deps: engineDeps(index, stores),
    text: typeof raw === "string" ? raw : raw.length === 0 ? "" : raw.toString("utf8"),
    bytes: typeof raw === "string" ? (raw === "" ? EMPTY : Buffer.from(raw, "utf8")) : raw,
  };
  for (let i = 0; i < STUB_ADAPTERS.length; i++) {
    const adapter = STUB_ADAPTERS[i];
    if (!adapter.always && !index.indexes[adapter.protocol]) continue;
    if (adapter.claims && !adapter.claims(ctx)) continue;
    return viaAdapters(ctx, i);
  }
  return serveHttp(ctx);
}

/** The protocol adapters from `from` on, then HTTP; synchronous until an adapter needs to wait. */
function viaAdapters(ctx: StubContext, from: number): StubOutput | Promise<StubOutput> {
  for (let i = from; i < STUB_ADAPTERS.length; i++) {
    const adapter = STUB_ADAPTERS[i];
    if (!adapter.always && !ctx.index.indexes[adapter.protocol]) continue;
    if (adapter.claims && !adapter.claims(ctx)) continue;
    const out = adapter.serve(ctx);
    if (out instanceof Promise) return out.then((o) => o ?? viaAdapters(ctx, i + 1));
    if (out) return out;
  }
  return serveHttp(ctx);
}

function serveHttp(ctx: StubContext): StubOutput | Promise<StubOutput> {
  const { input, path, namespace } = ctx;
  const req: EngineRequest = {
    namespace,
    method: input.method.toUpperCase(),
    path,
    headers: input.headers,
    query: ctx.query,
    body: parseStubBody(ctx.text, input.headers["content-type"]?.[0]),
    rawBody: ctx.text,
  };
  const result = serve("http", ctx, req);
  return result instanceof Promise ? result.then((r) => httpAnswer(ctx, req, r)) : httpAnswer(ctx, req, result);
}

function httpAnswer(ctx: StubContext, req: EngineRequest, result: EngineResult): StubOutput | Promise<StubOutput> {
  const { input } = ctx;
  if (!result.matched) {
    const as = ctx.missAs;
    recordMiss(ctx, { protocol: as?.protocol ?? "http", method: req.method, body: req.body });
    return notFound(ctx, req.method, as ? [...as.nearest, ...result.nearest].sort((a, b) => a.distance - b.distance).slice(0, 3) : result.nearest);
  }
  const { response } = result;
  if (result.proxy) {
    const proxy = result.proxy;
    return forwardToProxy({ proxy, mock: result.mock, method: req.method, path: ctx.path, search: ctx.search, headers: input.headers, body: ctx.bytes, requestId: ctx.requestId }).then((out) =>
      // The upstream's status decides a proxy mock's webhook triggers; response.delay still applies (latency added to the real service).
      answered(ctx, result, out.status, { ...out, delayMs: response.delayMs }, req, { headers: out.headers, body: proxiedBodyForLog(out.body) }),
    );
  }
  // The response itself: its body (a getter on text-rendered bodies) is read only if the hit is logged.
  return answered(ctx, result, response.status, engineOutput(response, ctx.requestId), req, response);
}

/** A proxied answer's bytes as the log keeps them: text when it is UTF-8, a note otherwise. */
function proxiedBodyForLog(body: string | Buffer): unknown {
  if (typeof body === "string") return body;
  const text = body.subarray(0, 64 * 1024).toString("utf8");
  return text.includes("\ufffd") ? `[${body.length} bytes of binary data]` : text;
}
