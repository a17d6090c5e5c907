// One gRPC call through the serving core: decode the request message(s),
// match them against the namespace's gRPC mocks, then stream back the mock's
// message(s) or its status (with rich details). Every method is registered
// as a raw bidirectional handler, so one code path serves the four kinds:
// unary and server-streaming answer the first message, client-streaming
// answers the list of messages once the client half-closes, bidirectional
// answers each message as it comes and ends when the client does.
import { setTimeout as sleep } from "node:timers/promises";
import * as grpc from "@grpc/grpc-js";
import type { EngineRequest } from "@/server/engine/types";
import type { NearMiss } from "@/server/engine/near-miss";
import { newRequestId } from "@/server/http/request-meta";
import { logger } from "@/server/lib/logger";
import { engineDepsFor } from "@/server/serving/engine-deps";
import { namespaceMocks, namespaceMocksNow } from "@/server/serving/mock-index";
import { answered, recordMiss, serve, type AfterSend, type Matched, type ServingScope } from "@/server/serving/serve";
import { namespaceFor, type Catalog, type GrpcMethod } from "./catalog";
import { decodeMessage, encodeMessage, MessageMismatch } from "./messages";
import { DetailError, encodeRichStatus } from "./rich-status";

type Call = grpc.ServerDuplexStream<Buffer, Buffer>;

/** Lower-case metadata names, lists of values; binary values as base64. */
export function metadataHeaders(md: grpc.Metadata): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const name of Object.keys(md.getMap())) out[name.toLowerCase()] = md.get(name).map((v) => (Buffer.isBuffer(v) ? v.toString("base64") : String(v)));
  return out;
}

function fail(call: Call, code: grpc.status, details: string) {
  call.emit("error", { code, details, metadata: new grpc.Metadata() });
}

function nearestText(nearest: NearMiss[]): string {
  if (nearest.length === 0) return "no gRPC mock in this namespace comes close";
  return `nearest mocks: ${nearest.slice(0, 3).map((n) => `'${n.id}' (${n.route}${n.reasons[0] ? `: ${n.reasons[0].message}` : ""})`).join("; ")}`;
}

async function scopeFor(namespace: string, methodPath: string, headers: Record<string, string[]>): Promise<ServingScope | undefined> {
  const index = namespaceMocksNow(namespace) ?? (await namespaceMocks(namespace));
  if (!index) return undefined;
  return { namespace, index, deps: await engineDepsFor(index), requestId: newRequestId(), started: performance.now(), path: methodPath, search: "", query: {}, headers };
}

/** A call to a path no namespace's protos define: captured as an undefined request, answered UNIMPLEMENTED. */
export function unknownMethodHandler(catalog: () => Catalog) {
  return (call: Call) => {
    const methodPath = (call as unknown as { getPath(): string }).getPath();
    const headers = metadataHeaders(call.metadata);
    const namespace = namespaceFor(catalog(), methodPath, headers);
    let body: string | null = null;
    call.once("data", (b: Buffer) => (body = b.toString("base64")));
    call.on("error", () => {});
    const finish = async () => {
      const scope = await scopeFor(namespace, methodPath, headers).catch(() => undefined);
      if (scope) recordMiss(scope, { protocol: "grpc", method: "POST", body: body === null ? null : { base64: body } });
      fail(call, grpc.status.UNIMPLEMENTED, `No .proto uploaded to any namespace defines ${methodPath}`);
    };
    call.once("end", () => void finish());
  };
}

/**
 * Where an answer goes: a unary call's callback, a grpc-js stream, or an
 * HTTP/2 stream the lean path (./lean-call.ts) serves itself. Unary and
 * server-streaming methods use grpc-js's unary and server-stream handlers
 * (no duplex stream per call) when grpc-js serves them; client-streaming and
 * bidirectional ones the duplex stream.
 */
export interface Sink {
  fail(code: grpc.status, details: string, metadata?: grpc.Metadata): void;
  write(frame: Buffer): void;
  end(): void;
  /** Set once the client cancelled: nothing more is sent. */
  cancelled(): boolean;
  onCancel(listener: () => void): void;
}

function streamSink(call: grpc.ServerWritableStream<Buffer, Buffer> | Call): Sink {
  let cancelled = false;
  call.on("cancelled", () => (cancelled = true));
  return {
    fail: (code, details, metadata) => call.emit("error", { code, details, metadata: metadata ?? new grpc.Metadata() }),
    write: (frame) => void call.write(frame),
    end: () => call.end(),
    cancelled: () => cancelled,
    onCancel: (listener) => void call.once("cancelled", listener),
  };
}

function unarySink(call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>): Sink {
  let cancelled = false;
  let reply: Buffer | undefined;
  call.on("cancelled", () => (cancelled = true));
  return {
    fail: (code, details, metadata) => callback({ code, details, metadata: metadata ?? new grpc.Metadata() }),
    write: (frame) => (reply = frame),
    end: () => callback(null, reply ?? Buffer.alloc(0)),
    cancelled: () => cancelled,
    onCancel: (listener) => void call.once("cancelled", listener),
  };
}

/** Waits `ms` unless the call is cancelled first. */
async function pause(sink: Sink, ms: number) {
  if (ms <= 0) return;
  const stop = new AbortController();
  sink.onCancel(() => stop.abort());
  await sleep(ms, undefined, { signal: stop.signal }).catch(() => {});
}

/**
 * A unary or server-streaming call of one method path: its metadata (as
 * headers), its one request message, and where the answer goes. The grpc-js
 * handlers and the lean HTTP/2 path both end here.
 */
export type SingleRequestCall = (headers: Record<string, string[]>, request: Buffer, sink: Sink) => void;

/** The call's namespace and method, or undefined after answering UNIMPLEMENTED when the namespace's protos lack the method. */
function resolveCall(methodPath: string, catalog: () => Catalog, headers: Record<string, string[]>, sink: Sink): CallContext | undefined {
  const cat = catalog();
  const namespace = namespaceFor(cat, methodPath, headers);
  const method = cat.namespaces.get(namespace)?.methods.get(methodPath);
  if (method) return { method, namespace, headers, sink };
  // Another namespace's protos define it; this one's do not.
  void scopeFor(namespace, methodPath, headers)
    .then((scope) => scope && recordMiss(scope, { protocol: "grpc", method: "POST", body: null }))
    .catch(() => {});
  sink.fail(grpc.status.UNIMPLEMENTED, `Namespace '${namespace}' has no .proto defining ${methodPath} (name the namespace in x-service-namespace metadata)`);
  return undefined;
}

/** Serves a unary or server-streaming call of `methodPath`; `catalog()` is read per call, so a reload applies to the next call. */
export function singleRequestCall(methodPath: string, catalog: () => Catalog): SingleRequestCall {
  return (headers, request, sink) => {
    const ctx = resolveCall(methodPath, catalog, headers, sink);
    if (ctx) void answer(ctx, [request], true).catch((err) => internal(ctx, err));
  };
}

/** The grpc-js handler of one method path, of the kind its method needs. */
export function methodHandler(methodPath: string, catalog: () => Catalog, kind: "unary" | "serverStream" | "bidi") {
  if (kind === "unary") {
    const serveCall = singleRequestCall(methodPath, catalog);
    return (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => serveCall(metadataHeaders(call.metadata), call.request, unarySink(call, callback));
  }
  if (kind === "serverStream") {
    const serveCall = singleRequestCall(methodPath, catalog);
    return (call: grpc.ServerWritableStream<Buffer, Buffer>) => {
      call.on("error", () => {});
      serveCall(metadataHeaders(call.metadata), call.request, streamSink(call));
    };
  }
  return (call: Call) => {
    call.on("error", () => {});
    const ctx = resolveCall(methodPath, catalog, metadataHeaders(call.metadata), streamSink(call));
    if (!ctx) return void call.resume();
    if (!ctx.method.responseStream) {
      const messages: Buffer[] = [];
      call.on("data", (b: Buffer) => messages.push(b));
      call.once("end", () => void answer(ctx, messages, true).catch((err) => internal(ctx, err)));
      return;
    }
    let chain = Promise.resolve(true);
    call.on("data", (b: Buffer) => {
      chain = chain.then((open) => (open ? answer(ctx, [b], false) : false)).catch((err) => (internal(ctx, err), false));
    });
    call.once("end", () => void chain.then((open) => open && call.end()));
  };
}

interface CallContext {
  method: GrpcMethod;
  namespace: string;
  headers: Record<string, string[]>;
  sink: Sink;
}

function internal(ctx: CallContext, err: unknown) {
  logger().error({ err, path: ctx.method.path, namespace: ctx.namespace }, "gRPC call failed");
  ctx.sink.fail(grpc.status.INTERNAL, "internal error of the mock server");
}

/**
 * Matches `messages` (one, or a client stream's list) and sends the answer. With `end` the
 * call ends after it; without (bidirectional), only an error status ends it. Resolves to
 * whether the call is still open.
 */
async function answer(ctx: CallContext, messages: Buffer[], end: boolean): Promise<boolean> {
  const { sink, method } = ctx;
  let decoded: Record<string, unknown>[];
  try {
    decoded = messages.map((m) => decodeMessage(method.requestType, m));
  } catch (err) {
    sink.fail(grpc.status.INVALID_ARGUMENT, `The request is not a ${method.requestType.fullName.slice(1)}: ${(err as Error).message}`);
    return false;
  }
  const body: unknown = method.requestStream && end ? decoded : (decoded[0] ?? {});
  const scope = await scopeFor(ctx.namespace, method.path, ctx.headers);
  if (!scope) {
    sink.fail(grpc.status.NOT_FOUND, `Namespace '${ctx.namespace}' does not exist`);
    return false;
  }
  const req: EngineRequest = { namespace: ctx.namespace, method: "POST", path: method.path, headers: ctx.headers, query: {}, body };
  let result = await serve("grpc", scope, req);
  // A mock may name the service by its simple name (docs/decisions.md, Protocol runner).
  const simple = `/${method.service.split(".").pop()}/${method.name}`;
  if (!result.matched && simple !== method.path) {
    const again = await serve("grpc", scope, { ...req, path: simple });
    result = again.matched ? again : { matched: false, nearest: [...result.nearest, ...again.nearest].sort((a, b) => a.distance - b.distance) };
  }
  const logged = { method: "POST", body };
  if (!result.matched) {
    recordMiss(scope, { protocol: "grpc", method: "POST", body });
    sink.fail(grpc.status.UNIMPLEMENTED, `No gRPC mock matches ${method.path} in namespace '${ctx.namespace}'; ${nearestText(result.nearest)}`);
    return false;
  }
  return respond(ctx, scope, result, logged, end);
}

async function respond(ctx: CallContext, scope: ServingScope, result: Matched, logged: { method: string; body: unknown }, end: boolean): Promise<boolean> {
  const { sink, method } = ctx;
  const response = result.response;
  // statusCode is HTTP-minded by default (200): absent, 0 and 200 are OK.
  const code = response.status === 200 ? grpc.status.OK : response.status;
  await pause(sink, response.delayMs);
  if (sink.cancelled()) return false;
  const hooks: AfterSend = {};
  if (code !== grpc.status.OK) {
    const message = response.grpc?.error ?? "";
    const metadata = new grpc.Metadata();
    let status = code > 16 ? grpc.status.UNKNOWN : code;
    let details = message;
    if (response.grpc?.errorDetails?.length) {
      try {
        metadata.set("grpc-status-details-bin", encodeRichStatus(status, message, response.grpc.errorDetails));
      } catch (err) {
        if (!(err instanceof DetailError)) throw err;
        status = grpc.status.INTERNAL;
        details = `mock '${result.mock.id}': ${err.message}`;
      }
    }
    await answered(scope, result, status, hooks, logged, { body: { code: status, message: details, errorDetails: response.grpc?.errorDetails } });
    sink.fail(status, details, metadata);
    hooks.afterSend?.();
    return false;
  }
  const payload = response.body;
  const items = method.responseStream && Array.isArray(payload) ? payload : [payload];
  let frames: Buffer[];
  try {
    // `wire` marks a static payload (no template): the same object on every hit of this mock version.
    const encode = response.wire ? encodedOnce : encodeMessage;
    frames = items.map((item, i) => encode(method.responseType, item, items.length > 1 ? `response[${i}]` : "response"));
  } catch (err) {
    if (!(err instanceof MessageMismatch)) throw err;
    const details = `mock '${result.mock.id}': the response does not fit ${method.responseType.fullName.slice(1)}: ${err.message}`;
    await answered(scope, result, grpc.status.INTERNAL, hooks, logged, { body: { error: details } });
    sink.fail(grpc.status.INTERNAL, details);
    return false;
  }
  await answered(scope, result, grpc.status.OK, hooks, logged, { body: payload });
  const gap = response.grpc?.streamDelayMs ?? 0;
  for (let i = 0; i < frames.length; i++) {
    if (i > 0) await pause(sink, gap);
    if (sink.cancelled()) return false;
    sink.write(frames[i]);
  }
  if (end) sink.end();
  hooks.afterSend?.();
  return true;
}

/** A static payload's bytes, encoded and checked once per output type. */
const encoded = new WeakMap<object, Map<GrpcMethod["responseType"], Buffer>>();

function encodedOnce(type: GrpcMethod["responseType"], item: unknown, where: string): Buffer {
  if (!item || typeof item !== "object") return encodeMessage(type, item, where);
  let byType = encoded.get(item);
  const hit = byType?.get(type);
  if (hit) return hit;
  const bytes = encodeMessage(type, item, where);
  if (!byType) encoded.set(item, (byType = new Map()));
  byType.set(type, bytes);
  return bytes;
}
