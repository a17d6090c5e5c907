// The Next.js half of the web process: UI pages, /api/v1, /api/trpc, /health,
// /metrics and /swagger, listening on a Unix socket that only server.ts talks
// to. It runs in a process of its own because Next.js in the stub server's
// process costs stub traffic about a third of its throughput (its
// AsyncLocalStorage turns on async hooks for every promise and handle, and its
// heap makes every GC dearer); see docs/decisions.md, "Two processes behind port 5770".
import { EventEmitter } from "node:events";
import { unlinkSync } from "node:fs";
import http from "node:http";
import next from "next";
import { requestIdFrom } from "@/server/http/request-meta";
import { logger } from "@/server/lib/logger";
import { observeRequest } from "@/server/observability/metrics";
import { startScheduler, stopScheduler } from "@/server/services/tester/scheduler";
import { startPerfMaintenance } from "@/server/services/perf/maintenance";
import { perfSchedules } from "@/server/services/perf/perf-scheduler";
import { stopRunnerQueue } from "@/server/services/runners/queue";
import { drainWebhooks } from "@/server/services/webhooks";
import { stubRecorder } from "@/server/serving/recorder";
import { internalErrorBody } from "@/server/errors";

process.env.SERVICE_NAME ??= "web";
const log = logger();

async function main() {
  const socketPath = process.env.POLYMOCK_NEXT_SOCKET;
  if (!socketPath) throw new Error("POLYMOCK_NEXT_SOCKET is not set: this process is started by server.ts");
  // Next attaches its own 'upgrade' listener to the server it is given; WebSockets are server.ts's business.
  const decoy = new EventEmitter() as unknown as http.Server;
  const port = Number(process.env.PORT ?? 5770);
  const app = next({ dev: false, dir: process.cwd(), hostname: "localhost", port, httpServer: decoy });
  const handle = app.getRequestHandler();
  await app.prepare();

  // server.ts has set x-request-id and the peer address header; both are trusted here.
  // Its own limit on headers is node's 16 KB; twice that here, so that a request it let
  // through, plus the headers it adds, never meets an empty 431 from this side.
  const server = http.createServer({ maxHeaderSize: 32 * 1024 }, (req, res) => {
    const started = process.hrtime.bigint();
    const requestId = requestIdFrom({ get: (n) => (req.headers[n] as string | undefined) ?? null });
    const pathname = (req.url ?? "/").split("?", 1)[0];
    res.on("finish", () => {
      observeRequest(req.method ?? "GET", pathname, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    if (!res.hasHeader("X-Request-Id")) res.setHeader("X-Request-Id", requestId);
    handle(req, res).catch((err) => {
      log.error({ err, requestId }, "request failed");
      if (!res.headersSent) {
        res.writeHead(500, { "Content-Type": "application/json" });
        res.end(JSON.stringify(internalErrorBody(requestId)));
      }
    });
  });
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  try {
    unlinkSync(socketPath);
  } catch {}
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  process.send?.({ type: "ready" });
  // API-tester and load-test schedules run here, not in server.ts: the stub path never pays for them.
  startScheduler([perfSchedules]);
  startPerfMaintenance();

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    server.close(() => {
      void Promise.allSettled([stubRecorder().drain(), drainWebhooks(), stopScheduler(), stopRunnerQueue()]).finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 10_000).unref();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  // server.ts gone (even by SIGKILL): nobody can reach this process any more.
  process.on("disconnect", shutdown);
}

main().catch((err) => {
  log.fatal({ err }, "the Next.js process failed to start");
  process.exit(1);
});
