// The web process: PORT (default 5770). Stub traffic (/stubs/*) and WebSocket
// upgrades are served here on node:http directly (about 35x faster than a
// route handler, see ARCHITECTURE.md); everything else is handed to the
// Next.js process this one starts (server/runtime/next-app.ts), which has no
// port of its own. Next.js is kept out of this process on purpose: see
// docs/decisions.md, "Two processes behind port 5770".
import { env } from "@/server/env";
import { logger } from "@/server/lib/logger";
import { startNextChild } from "@/server/runtime/next-child";
import { createFrontServer } from "@/server/transport/front";
import { createNextProxy } from "@/server/transport/next-proxy";
import { drainWebhooks } from "@/server/services/webhooks";
import { stubRecorder } from "@/server/serving/recorder";
import { closeStubSockets } from "@/server/transport/ws-stub";

process.env.SERVICE_NAME ??= "web";
const log = logger();

async function main() {
  const { PORT: port, HOST: host } = env();
  const nextApp = await startNextChild();
  const toNext = createNextProxy(nextApp.socketPath);

  // Stubs, WebSocket stubs and the wire-level error answers: server/transport/front.ts.
  const server = createFrontServer(toNext);

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
