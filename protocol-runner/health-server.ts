// The runner's health endpoint (loopback only): database reachability and
// every listener with its state, read by the web process's /health
// (`checks.protocolRunner`) and by operators.
import http from "node:http";
import { db } from "@/server/db/client";
import { releaseId } from "@/server/release";
import type { ListenerReport } from "./module";

async function databaseUp(): Promise<boolean> {
  try {
    await db().$queryRaw`SELECT 1`;
    return true;
  } catch {
    return false;
  }
}

export function runnerHealthBody(up: boolean, listeners: ListenerReport[], services: Record<string, unknown> = {}) {
  return { status: up ? ("up" as const) : ("down" as const), releaseId: releaseId(), checks: { database: { status: up ? "up" : "down" } }, listeners, ...services };
}

/** `services`: listeners that no protocol-server row declares (gRPC on GRPC_PORT), reported under their own names. */
export async function startHealthServer(port: number, listeners: () => ListenerReport[], services: () => Record<string, unknown> = () => ({})): Promise<http.Server> {
  const server = http.createServer(async (req, res) => {
    if (req.url === "/health" || req.url === "/health/live" || req.url === "/health/ready") {
      const up = req.url === "/health/live" ? true : await databaseUp();
      res.writeHead(up ? 200 : 503, { "Content-Type": "application/json" });
      res.end(JSON.stringify(runnerHealthBody(up, listeners(), services())));
      return;
    }
    res.writeHead(404, { "Content-Type": "application/json" });
    res.end(JSON.stringify({ error: "Not found", code: "not_found", request_id: "-" }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return server;
}
