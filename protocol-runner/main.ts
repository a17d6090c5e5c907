// The protocol-runner process: serves gRPC, broker, SMTP and socket mocks from
// the same database as the web process. For now it serves its health only;
// each protocol adds a listener here.
import http from "node:http";
import { db } from "@/server/db/client";
import { logger } from "@/server/lib/logger";
import { releaseId } from "@/server/release";
import { runnerEnv } from "./env";
import { startGrpc } from "./grpc/server";

process.env.SERVICE_NAME ??= "protocol-runner";
const log = logger();

async function databaseUp(): Promise<boolean> {
  try {
    await db().$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}

async function main() {
  const env = runnerEnv();
  if (!(await databaseUp())) throw new Error("database unreachable");
  const server = http.createServer(async (req, res) => {
    if (req.url === "/health" || req.url === "/health/live" || req.url === "/health/ready") {
      const up = req.url === "/health/live" ? true : await databaseUp();
      res.writeHead(up ? 200 : 503, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ status: up ? "up" : "down", releaseId: releaseId(), checks: { database: { status: up ? "up" : "down" } }, protocols: [] }));
      return;
    }
    res.writeHead(404, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: "Not found", code: "not_found", request_id: "-" }));
  });
  await new Promise<void>((resolve) => server.listen(env.RUNNER_HEALTH_PORT, "127.0.0.1", resolve));
  log.info({ port: env.RUNNER_HEALTH_PORT }, "protocol-runner health listening");
  const grpc = await startGrpc({ port: env.GRPC_PORT, log });

  const shutdown = () => {
    server.close();
    void grpc.stop();
    void db().$disconnect().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

main().catch((err) => {
  log.fatal({ err }, "protocol-runner failed to start");
  process.exit(1);
});
