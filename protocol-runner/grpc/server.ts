// The protocol runner's gRPC listener on GRPC_PORT: every method the
// namespaces' uploaded .proto files define is served through the serving
// core (./call.ts), with server reflection (v1 and v1alpha) and the standard
// health service. It reloads its catalog when protos or mocks change (the
// mocks_changed notification); a port it cannot bind is its error state,
// never a crash of the runner.
import * as grpc from "@grpc/grpc-js";
import { ReflectionService } from "@grpc/reflection";
import { listen, MOCKS_CHANNEL, type Listener } from "@/server/db/notify";
import type { Logger } from "pino";
import type { IncomingHttpHeaders, ServerHttp2Stream } from "node:http2";
import { methodHandler, singleRequestCall, unknownMethodHandler, type SingleRequestCall } from "./call";
import { serveLeanCall, takesLean } from "./lean-call";
import { loadCatalog, type Catalog } from "./catalog";
import { addHealth } from "./health";

export interface GrpcState {
  protocol: "grpc";
  status: "starting" | "listening" | "error" | "stopped";
  port: number;
  error?: string;
  /** Method paths served. */
  methods: number;
  /** Namespaces whose protos could not be loaded. */
  protoErrors: { namespace: string; error: string }[];
  /** Who serves unary and server-streaming calls: the lean HTTP/2 path (./lean-call.ts) or grpc-js. */
  wire: "lean" | "grpc-js";
}

export interface GrpcListener {
  /** The bound port (the one asked for, or the one the system chose for 0). */
  port(): number;
  state(): GrpcState;
  /** Rebuilds the catalog now (also done on every change notification). */
  reconcile(): Promise<void>;
  stop(): Promise<void>;
}

const REFLECTION_PATHS = ["/grpc.reflection.v1.ServerReflection/ServerReflectionInfo", "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo"];
const raw = (b: Buffer) => b;

type HandlerKind = "unary" | "serverStream" | "bidi";

/**
 * grpc-js's cheapest handler for the path: unary and server-streaming calls
 * get theirs; client-streaming and bidirectional calls the duplex stream.
 * A path two namespaces define with different streaming takes the duplex
 * stream, which serves every kind.
 */
function handlerKind(catalog: Catalog, path: string): HandlerKind {
  const kinds = new Set<HandlerKind>();
  for (const ns of catalog.namespaces.values()) {
    const m = ns.methods.get(path);
    if (m) kinds.add(m.requestStream ? "bidi" : m.responseStream ? "serverStream" : "unary");
  }
  return kinds.size === 1 ? [...kinds][0] : "bidi";
}

/** A path the lean HTTP/2 path serves (./lean-call.ts). */
interface LeanPath {
  serveCall: SingleRequestCall;
  unary: boolean;
}

type StreamHandler = (this: grpc.Server, extraInterceptors: unknown, stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => void;

export async function startGrpc(opts: {
  port: number;
  host?: string;
  log: Logger;
  listenForChanges?: boolean;
  retryMs?: number;
  /** Unary and server-streaming calls on the lean path (default; GRPC_WIRE=grpc-js turns it off): false leaves every call to grpc-js. */
  lean?: boolean;
}): Promise<GrpcListener> {
  let catalog: Catalog = { namespaces: new Map(), paths: new Set(), defaultNamespace: new Map(), reflection: {}, errors: [] };
  const registered = new Map<string, HandlerKind>();
  const leanPaths = new Map<string, LeanPath>();
  const lean = opts.lean ?? process.env.GRPC_WIRE !== "grpc-js";
  const state: GrpcState = { protocol: "grpc", status: "starting", port: opts.port, methods: 0, protoErrors: [], wire: "grpc-js" };
  const current = () => catalog;

  /** A server with health and the capture of unknown paths; the methods are registered by reload(). */
  const newServer = () => {
    // No channelz: its per-call bookkeeping (counters, call trackers) was 2.5 % of the runner's
    // CPU under G1, and nothing here serves the channelz admin service that would read it.
    const s = new grpc.Server({ "grpc.enable_channelz": 0 });
    addHealth(s, (service) => [...catalog.paths].some((p) => p.startsWith(`/${service}/`)));
    // grpc-js answers unknown paths UNIMPLEMENTED by itself; routing them here captures them as
    // undefined requests first (relies on grpc-js's internal handler lookup; plain UNIMPLEMENTED if it changes).
    const internals = s as unknown as { _retrieveHandler?: (path: string) => unknown };
    const lookup = internals._retrieveHandler?.bind(s);
    if (lookup) {
      const func = unknownMethodHandler(current);
      // grpc-js hands the handler's `path` to the call (getPath()).
      internals._retrieveHandler = (path: string) => lookup(path) ?? { func, serialize: raw, deserialize: raw, type: "bidi", path };
    }
    // The lean path takes its calls before grpc-js's stream handler (which _setupHandlers binds at
    // bindAsync); any other call, or every call if grpc-js changes these internals, stays grpc-js's.
    const streams = s as unknown as { _streamHandler?: StreamHandler; onStreamOpened?: (stream: ServerHttp2Stream) => void };
    const grpcJs = streams._streamHandler;
    if (lean && grpcJs && streams.onStreamOpened) {
      state.wire = "lean";
      streams._streamHandler = function (extraInterceptors, stream, headers) {
        const take = leanPaths.get(headers[":path"] as string);
        if (take === undefined || !takesLean(headers)) return grpcJs.call(this, extraInterceptors, stream, headers);
        // grpc-js's idle-connection accounting counts this stream as it counts its own.
        streams.onStreamOpened!.call(this, stream);
        serveLeanCall(stream, headers, take.serveCall, take.unary, headers[":path"] as string);
      };
    }
    return s;
  };
  let server = newServer();

  let reloading: Promise<void> | undefined;
  let again = false;
  const reload = async () => {
    const next = await loadCatalog();
    for (const [p, kind] of registered) {
      if (!next.paths.has(p) || handlerKind(next, p) !== kind) {
        server.unregister(p);
        registered.delete(p);
        leanPaths.delete(p);
      }
    }
    for (const p of next.paths) {
      if (registered.has(p)) continue;
      // A path whose kind changes with a reload is unregistered above and registered again here.
      const kind = handlerKind(next, p);
      server.register<Buffer, Buffer>(p, methodHandler(p, current, kind) as grpc.handleBidiStreamingCall<Buffer, Buffer>, raw, raw, kind);
      registered.set(p, kind);
      if (kind !== "bidi") leanPaths.set(p, { serveCall: singleRequestCall(p, current), unary: kind === "unary" });
    }
    for (const p of REFLECTION_PATHS) server.unregister(p);
    new ReflectionService(next.reflection).addToServer(server);
    catalog = next;
    state.methods = next.paths.size;
    state.protoErrors = next.errors;
    if (next.errors.length) opts.log.warn({ errors: next.errors }, "gRPC: protos that could not be loaded");
  };
  const reconcile = async (): Promise<void> => {
    if (reloading) {
      again = true;
      return reloading;
    }
    reloading = (async () => {
      do {
        again = false;
        await reload().catch((err) => opts.log.error({ err }, "gRPC: reload failed"));
      } while (again);
    })().finally(() => (reloading = undefined));
    return reloading;
  };

  await reconcile();
  const listener: Listener | undefined = opts.listenForChanges === false ? undefined : listen(MOCKS_CHANNEL, () => void reconcile(), () => void reconcile());
  let bound = opts.port;
  let retry: NodeJS.Timeout | undefined;
  // A port in use is the error state; the bind is tried again every retryMs until it succeeds.
  // grpc-js remembers a failed bind per server, so each retry takes a new server.
  const bind = async () => {
    try {
      bound = await new Promise<number>((resolve, reject) =>
        server.bindAsync(`${opts.host ?? "0.0.0.0"}:${opts.port}`, grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))),
      );
      state.status = "listening";
      state.port = bound;
      delete state.error;
      opts.log.info({ port: bound }, "gRPC listening");
    } catch (err) {
      const first = state.status !== "error";
      state.status = "error";
      state.error = (err as Error).message;
      if (first) opts.log.error({ err, port: opts.port }, "gRPC listener could not start; retrying");
      retry = setTimeout(() => {
        server.forceShutdown();
        server = newServer();
        registered.clear();
        leanPaths.clear();
        void reconcile().then(bind);
      }, opts.retryMs ?? 15_000);
      retry.unref();
    }
  };
  await bind();

  return {
    port: () => bound,
    state: () => ({ ...state }),
    reconcile,
    async stop() {
      clearTimeout(retry);
      await listener?.close();
      // Open streams (a health Watch never ends by itself) would hold a graceful shutdown forever.
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 2000);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      state.status = "stopped";
    },
  };
}
