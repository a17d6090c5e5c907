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
import { methodHandler, unknownMethodHandler } from "./call";
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

export async function startGrpc(opts: { port: number; host?: string; log: Logger; listenForChanges?: boolean }): Promise<GrpcListener> {
  const server = new grpc.Server();
  let catalog: Catalog = { namespaces: new Map(), paths: new Set(), defaultNamespace: new Map(), reflection: {}, errors: [] };
  const registered = new Set<string>();
  const state: GrpcState = { protocol: "grpc", status: "starting", port: opts.port, methods: 0, protoErrors: [] };
  const current = () => catalog;

  addHealth(server, (service) => [...catalog.paths].some((p) => p.startsWith(`/${service}/`)));
  // grpc-js answers unknown paths UNIMPLEMENTED by itself; routing them here captures them as
  // undefined requests first (relies on grpc-js's internal handler lookup; plain UNIMPLEMENTED if it changes).
  const internals = server as unknown as { _retrieveHandler?: (path: string) => unknown };
  const lookup = internals._retrieveHandler?.bind(server);
  if (lookup) {
    const func = unknownMethodHandler(current);
    // grpc-js hands the handler's `path` to the call (getPath()).
    internals._retrieveHandler = (path: string) => lookup(path) ?? { func, serialize: raw, deserialize: raw, type: "bidi", path };
  }

  let reloading: Promise<void> | undefined;
  let again = false;
  const reload = async () => {
    const next = await loadCatalog();
    for (const p of registered) {
      if (!next.paths.has(p)) {
        server.unregister(p);
        registered.delete(p);
      }
    }
    for (const p of next.paths) {
      if (registered.has(p)) continue;
      server.register<Buffer, Buffer>(p, methodHandler(p, current) as grpc.handleBidiStreamingCall<Buffer, Buffer>, raw, raw, "bidi");
      registered.add(p);
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
  try {
    bound = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`${opts.host ?? "0.0.0.0"}:${opts.port}`, grpc.ServerCredentials.createInsecure(), (err, port) => (err ? reject(err) : resolve(port))),
    );
    state.status = "listening";
    state.port = bound;
    opts.log.info({ port: bound }, "gRPC listening");
  } catch (err) {
    state.status = "error";
    state.error = (err as Error).message;
    opts.log.error({ err, port: opts.port }, "gRPC listener could not start");
  }

  return {
    port: () => bound,
    state: () => ({ ...state }),
    reconcile,
    async stop() {
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
