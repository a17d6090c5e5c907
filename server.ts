// The web process: PORT (default 5770). Stub traffic (/stubs/*) and WebSocket
// upgrades are served here on node:http directly (about 35x faster than a
// route handler, see ARCHITECTURE.md); everything else is handed to the
// Next.js process this one starts (server/runtime/next-app.ts), which has no
// port of its own. Next.js is kept out of this process on purpose: see
// docs/decisions.md, "Two processes behind port 5770".
import http from "node:http";
import { env } from "@/server/env";
import { isRequestId, newRequestId, PEER_HEADER } from "@/server/http/request-meta";
import { logger } from "@/server/lib/logger";
import { startNextChild } from "@/server/runtime/next-child";
import { handleStubRequest, isStubPath, stubFailed } from "@/server/transport/http-stub";
import { createNextProxy } from "@/server/transport/next-proxy";
import { drainWebhooks } from "@/server/services/webhooks";
import { stubRecorder } from "@/server/transport/stub-recorder";
import { closeStubSockets, handleStubUpgrade } from "@/server/transport/ws-stub";

process.env.SERVICE_NAME ??= "web";
const log = logger();

// No closures per request here: this is the hot path.
function serveStub(req: http.IncomingMessage, res: http.ServerResponse) {
  const started = performance.now();
  const incoming = req.headers["x-request-id"];
  const requestId = typeof incoming === "string" && isRequestId(incoming) ? incoming : newRequestId();
  req.headers["x-request-id"] = requestId;
  try {
    const pending = handleStubRequest(req, res, requestId, started);
    if (pending) pending.catch((err) => stubFailed(err, res, requestId));
  } catch (err) {
    stubFailed(err, res, requestId);
  }
}

async function main() {
  const { PORT: port, HOST: host } = env();
  const nextApp = await startNextChild();
  const toNext = createNextProxy(nextApp.socketPath);

  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    if (url.startsWith("/stubs") && isStubPath(url.split("?", 1)[0])) return serveStub(req, res);
    const incoming = req.headers["x-request-id"];
    const requestId = typeof incoming === "string" && isRequestId(incoming) ? incoming : newRequestId();
    req.headers["x-request-id"] = requestId;
    // Only this process sees the client's socket; a client-sent value is overwritten.
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "unknown";
    toNext.forward(req, res, requestId);
  });
  // WebSocket stubs (/stubs/<namespace>/<serverName>); any other upgrade is refused with a 404.
  server.on("upgrade", handleStubUpgrade);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  log.info({ port, host }, `web listening on http://localhost:${port}`);

  let closing = false;
  const shutdown = (signal: string, code = 0) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, "web shutting down");
    // Stop taking requests, finish the ones in flight (the Next.js process finishes its own),
    // then write the queued bookkeeping and finish webhook deliveries.
    // Open stub WebSockets are closed (1001) first: server.close waits for every connection.
    void closeStubSockets();
    const nextStopped = nextApp.stop();
    server.close(() => {
      void Promise.allSettled([stubRecorder().drain(), drainWebhooks(), nextStopped]).finally(() => {
        toNext.close();
        process.exit(code);
      });
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(code), 13_000).unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
  nextApp.process.once("exit", (exitCode, signal) => {
    if (closing) return;
    // Ctrl-C reaches the whole process group: the Next.js process may have finished its own clean stop (exit 0) first.
    const requested = exitCode === 0 || signal === "SIGINT" || signal === "SIGTERM";
    if (!requested) log.error({ exitCode, signal }, "the Next.js process exited; stopping");
    shutdown(requested ? "next-stopped" : "next-exit", requested ? 0 : 1);
  });
}

main().catch((err) => {
  log.fatal({ err }, "web failed to start");
  process.exit(1);
});
