// The web process: a Next.js custom server on PORT (default 5770). Stub
// traffic (/stubs/*) and WebSocket upgrades are served on node:http directly
// (about 35x faster than a route handler, see ARCHITECTURE.md); everything
// else goes to Next.
import { EventEmitter } from "node:events";
import http from "node:http";
import next from "next";
import { env } from "@/server/env";
import { randomUUID } from "node:crypto";
import { isRequestId, PEER_HEADER, requestIdFrom } from "@/server/http/request-meta";
import { logger } from "@/server/lib/logger";
import { observeRequest } from "@/server/observability/metrics";
import { handleStubRequest, isStubPath } from "@/server/transport/http-stub";
import { drainWebhooks } from "@/server/services/webhooks";
import { stubRecorder } from "@/server/transport/stub-recorder";
import { closeStubSockets, handleStubUpgrade } from "@/server/transport/ws-stub";

process.env.SERVICE_NAME ??= "web";
const log = logger();

function stubFailed(err: unknown, res: http.ServerResponse, requestId: string) {
  log.error({ err, requestId }, "stub request failed");
  if (!res.headersSent) {
    res.writeHead(500, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: "Internal server error", code: "internal", request_id: requestId }));
  } else res.destroy();
}

// No closures per request here: this is the hot path.
function serveStub(req: http.IncomingMessage, res: http.ServerResponse) {
  const started = performance.now();
  const incoming = req.headers["x-request-id"];
  const requestId = typeof incoming === "string" && isRequestId(incoming) ? incoming : randomUUID();
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
  // Next attaches its own 'upgrade' listener to the server it is given and
  // closes sockets it does not recognise; give it a decoy so stub WebSockets survive.
  const decoy = new EventEmitter() as unknown as http.Server;
  const app = next({ dev: false, dir: process.cwd(), hostname: "localhost", port, httpServer: decoy });
  const handle = app.getRequestHandler();
  await app.prepare();

  const server = http.createServer((req, res) => {
    const url = req.url ?? "/";
    if (url.startsWith("/stubs") && isStubPath(url.split("?", 1)[0])) return serveStub(req, res);
    const started = process.hrtime.bigint();
    const requestId = requestIdFrom({ get: (n) => (req.headers[n] as string | undefined) ?? null });
    req.headers["x-request-id"] = requestId;
    req.headers[PEER_HEADER] = req.socket.remoteAddress ?? "unknown";
    const pathname = url.split("?", 1)[0];
    res.on("finish", () => {
      observeRequest(req.method ?? "GET", pathname, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    if (!res.hasHeader("X-Request-Id")) res.setHeader("X-Request-Id", requestId);
    handle(req, res).catch((err) => {
      log.error({ err, requestId }, "request failed");
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ error: "Internal server error", code: "internal", request_id: requestId }));
      }
    });
  });
  // WebSocket stubs (/stubs/<namespace>/<serverName>); any other upgrade is refused with a 404.
  server.on("upgrade", handleStubUpgrade);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;

  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  log.info({ port, host }, `web listening on http://localhost:${port}`);

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, "web shutting down");
    // Stop taking requests, finish the ones in flight, then write the queued bookkeeping and finish webhook deliveries.
    // Open stub WebSockets are closed (1001) first: server.close waits for every connection.
    void closeStubSockets();
    server.close(() => {
      void Promise.allSettled([stubRecorder().drain(), drainWebhooks()]).finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

main().catch((err) => {
  log.fatal({ err }, "web failed to start");
  process.exit(1);
});
