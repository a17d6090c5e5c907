// Starts the real service (the npm start launcher, without its build step) on
// free ports against a throwaway database cloned from the migrated template.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTestDatabase, ensureTemplate } from "../../server/testing/test-db";

export const ADMIN_PASSWORD = "e2e-admin-password";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  baseUrl: string;
  /** The launcher's pid (its children: the web process and the protocol-runner). */
  pid: number;
  databaseUrl: string;
  /** The protocol runner's gRPC listener. */
  grpcPort: number;
  stop(): Promise<void>;
}

export async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  await ensureTemplate();
  const database = await createTestDatabase();
  const port = await freePort();
  const runnerPort = await freePort();
  const grpcPort = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "polymock-e2e-"));
  const baseUrl = `http://localhost:${port}`;
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "server/runtime/launcher.ts"], {
    cwd: path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../.."),
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      PORT: String(port),
      RUNNER_HEALTH_PORT: String(runnerPort),
      GRPC_PORT: String(grpcPort),
      DATA_DIR: dataDir,
      SKIP_BUILD: "1",
      ADMIN_PASSWORD,
      APP_SECRET: "e2e-secret",
      PUBLIC_URL: baseUrl,
      NEXTAUTH_URL: baseUrl,
      RATE_LIMIT_DISABLED: "1",
      LOG_LEVEL: "warn",
      ...extraEnv,
    },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  const deadline = Date.now() + 90_000;
  const giveUp = async (why: string) => {
    // Leave nothing behind: an orphaned launcher keeps Playwright's output open.
    if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGKILL");
    await database.drop().catch(() => {});
    throw new Error(why);
  };
  for (;;) {
    if (child.exitCode !== null) await giveUp(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/health/ready`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) await giveUp("server did not become ready in 90 s");
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    baseUrl,
    pid: child.pid!,
    databaseUrl: database.url,
    grpcPort,
    async stop() {
      if (child.exitCode === null && child.pid) {
        process.kill(-child.pid, "SIGTERM");
        await new Promise((r) => child.once("exit", r));
      }
      await database.drop();
    },
  };
}
