// `npm start`: builds the web UI if needed, starts the embedded database when
// DATABASE_URL is not set, applies migrations, creates the admin user and the
// sandbox namespace, then runs the web process (server.ts, bundled; it starts
// the Next.js process itself) and the protocol-runner (bundled too), restarts either one that
// crashes while the other keeps serving, and stops all of them together on
// SIGTERM or SIGINT sent to this process alone. `npm start` execs it as
// `node --import tsx` (no shell and no tsx CLI between npm and this process:
// the shell did not pass npm's SIGTERM on, and tsx's relay SIGKILLs a child that
// does not acknowledge within 30 ms); see docs/decisions.md, "Platform and set-up".
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import { lockDataDir, secretFile, startEmbeddedDatabase, type EmbeddedDatabase } from "@/server/db/embedded";
import { migrate } from "@/server/db/migrate";
import { buildIsStale } from "./build-check";
import { bundleServer, entryCommand } from "./server-bundle";

const root = process.cwd();
/** How long a child may take to stop after SIGTERM before it is killed. */
const CHILD_STOP_MS = 20_000;
const say = (msg: string) => console.log(`[polymock] ${msg}`);
/** Restarts of a crashed child before the launcher gives up (a child that ran a minute starts the count afresh). */
const RESTART_LIMIT = 5;

/** Delays before restarting a crashed child: 1 s, doubling to 16 s; undefined once it has crashed RESTART_LIMIT times in a row. */
function restartPolicy() {
  let crashes = 0;
  return {
    next(uptimeMs: number): number | undefined {
      crashes = uptimeMs > 60_000 ? 1 : crashes + 1;
      return crashes > RESTART_LIMIT ? undefined : 1000 * 2 ** (crashes - 1);
    },
  };
}

async function main() {
  const dataDir = path.resolve(process.env.DATA_DIR ?? path.join(root, "data"));

  if (process.env.SKIP_BUILD !== "1" && buildIsStale(root)) {
    say("building the web UI (next build); this takes a minute the first time…");
    const result = spawnSync(process.execPath, [path.join(root, "node_modules", "next", "dist", "bin", "next"), "build"], { stdio: "inherit", env: { ...process.env, NODE_ENV: "production" } });
    if (result.status !== 0) throw new Error("next build failed");
  }

  await bundleServer(root);

  const releaseLock = await lockDataDir(dataDir);
  let embedded: EmbeddedDatabase | undefined;
  const children: ChildProcess[] = [];
  let stopping = false;

  const stopAll = async (code: number) => {
    if (stopping) return;
    stopping = true;
    const running = children.filter((c) => c.exitCode === null && c.signalCode === null);
    for (const c of running) c.kill("SIGTERM");
    // Each child drains within its own bound (the web process 13 s); one that hangs past it is killed, so this always ends.
    const hung = setTimeout(() => running.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill("SIGKILL")), CHILD_STOP_MS);
    await Promise.all(running.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once("exit", r)) : null)));
    clearTimeout(hung);
    if (embedded) await embedded.stop().catch(() => {});
    releaseLock();
    process.exit(code);
  };
  process.on("SIGINT", () => void stopAll(0));
  process.on("SIGTERM", () => void stopAll(0));

  try {
    if (!process.env.DATABASE_URL) {
      embedded = await startEmbeddedDatabase(dataDir, say);
      process.env.DATABASE_URL = embedded.url;
      say(`embedded PostgreSQL on 127.0.0.1:${embedded.port} (data in ${path.join(dataDir, "pg")})`);
    }
    process.env.APP_SECRET ??= await secretFile(path.join(dataDir, "app-secret"), 48);
    process.env.NEXTAUTH_SECRET ??= process.env.APP_SECRET;
    process.env.NEXTAUTH_URL ??= process.env.PUBLIC_URL ?? `http://localhost:${process.env.PORT ?? 5770}`;

    const { applied } = await migrate(process.env.DATABASE_URL);
    if (applied.length) say(`applied migrations: ${applied.join(", ")}`);

    const { bootstrap } = await import("@/server/services/bootstrap");
    const { disconnectDb } = await import("@/server/db/client");
    const result = await bootstrap({ adminUsername: process.env.ADMIN_USERNAME, adminPassword: process.env.ADMIN_PASSWORD });
    await disconnectDb();
    if (result.generatedPassword) {
      say("------------------------------------------------------------------");
      say(`created the admin user '${result.adminUsername}' with password: ${result.generatedPassword}`);
      say("it is shown only this once; change it under Settings › Profile");
      say("------------------------------------------------------------------");
    }
  } catch (err) {
    console.error(`[polymock] start failed: ${(err as Error).message}`);
    await stopAll(1);
    return;
  }

  const run = (name: string, entry: string, extraEnv: Record<string, string>, bundled: boolean) => {
    const restarts = restartPolicy();
    const start = () => {
      // A stop requested while the database was starting (or during a restart's wait): nothing more is started.
      if (stopping) return;
      const { nodeArgs, file } = entryCommand(root, entry, bundled);
      const child = spawn(process.execPath, [...nodeArgs, file], {
        stdio: "inherit",
        env: { ...process.env, ...extraEnv },
        cwd: root,
      });
      const startedAt = Date.now();
      child.on("exit", (code, signal) => {
        children.splice(children.indexOf(child), 1);
        if (stopping) return;
        // Ctrl-C or `kill -TERM` on the process group reaches the children too, and
        // one may be gone before this process handles its own signal: a child that
        // ended by SIGINT/SIGTERM (or their exit codes 130/143) is a requested stop.
        const requested = signal === "SIGINT" || signal === "SIGTERM" || code === 0 || code === 130 || code === 143;
        if (requested) return void stopAll(0);
        // The web process and the runner serve on their own: one that crashes is
        // restarted while the other keeps serving; a crash loop gives up.
        const delay = restarts.next(Date.now() - startedAt);
        if (delay === undefined) {
          console.error(`[polymock] ${name} exited (${signal ?? code}) ${RESTART_LIMIT} times in a row; stopping`);
          return void stopAll(code || 1);
        }
        console.error(`[polymock] ${name} exited (${signal ?? code}); restarting it in ${delay / 1000} s`);
        setTimeout(start, delay).unref();
      });
      children.push(child);
    };
    start();
  };
  run("web", "server.ts", { NODE_ENV: "production", SERVICE_NAME: "web" }, true);
  run("protocol-runner", "protocol-runner/main.ts", { NODE_ENV: "production", SERVICE_NAME: "protocol-runner" }, true);
  if (!stopping) say(`serving on http://localhost:${process.env.PORT ?? 5770}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
