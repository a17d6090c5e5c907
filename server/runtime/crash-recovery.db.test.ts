// Killed mid-write, the service loses nothing it acknowledged and keeps no
// half-written mock: 200 concurrent mock creations, SIGKILL while they are in
// flight, restart on the same embedded PostgreSQL data directory, then every
// 2xx-acknowledged mock is there with its version row. Twice: once killing
// only the serving process (PostgreSQL is left running with its
// postmaster.pid: the next start must stop it), once killing the whole
// process group (PostgreSQL dies too: stale postmaster.pid, crash recovery).
// The serving process is server/testing/route-host.ts (see there why not the Next.js child).
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, chmodSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = mkdtempSync(path.join(os.tmpdir(), "polymock-crash-"));
chmodSync(dataDir, 0o755);
const ADMIN_PASSWORD = "crash-test-admin-password";
const BURST = 200;
const children: ChildProcess[] = [];

interface Host {
  child: ChildProcess;
  base: string;
  databaseUrl: string;
}

function startHost(): Promise<Host> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ADMIN_PASSWORD, NODE_ENV: "production", LOG_LEVEL: "silent" };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ["--import", "tsx", "server/testing/route-host.ts"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  children.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d;
      const ready = /READY (\{.*\})/.exec(output);
      if (ready) {
        const { port, databaseUrl } = JSON.parse(ready[1]);
        resolve({ child, base: `http://127.0.0.1:${port}`, databaseUrl });
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (d) => (output += d));
    child.once("exit", (code) => reject(new Error(`route host exited with ${code} before it served:\n${output}`)));
  });
}

async function login(base: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password: ADMIN_PASSWORD }) });
  expect(res.status).toBe(200);
  return res.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}

/** Fires BURST creations at once and kills the host (how: `kill`) once a few have been acknowledged. */
async function burstAndKill(host: Host, round: string, kill: (child: ChildProcess) => void): Promise<string[]> {
  const cookie = await login(host.base);
  const acknowledged: string[] = [];
  let killed = false;
  const exited = new Promise((r) => host.child.once("exit", r));
  await Promise.allSettled(
    Array.from({ length: BURST }, async (_, i) => {
      const id = `${round}-${i}`;
      const res = await fetch(`${host.base}/api/v1/mocks?namespace=sandbox`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ id, http: { route: `/${round}/${i}`, httpMethod: "POST" }, response: { statusCode: 201, payload: { i } } }),
      });
      await res.arrayBuffer();
      if (res.status >= 200 && res.status < 300) acknowledged.push(id);
      // Kill while most of the burst is still in flight.
      if (!killed && acknowledged.length >= 10) {
        killed = true;
        kill(host.child);
      }
    }),
  );
  if (!killed) kill(host.child);
  await exited;
  return acknowledged;
}

async function integrity(databaseUrl: string, acknowledged: string[]) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const present = await client.query<{ id: string }>(`SELECT m.id FROM "Mock" m JOIN "Namespace" n ON n.id = m."namespaceId" WHERE n.name = 'sandbox' AND m.id = ANY($1)`, [acknowledged]);
    const missing = acknowledged.filter((id) => !present.rows.some((r) => r.id === id));
    // Half-written: a mock without the version row of its current version.
    const halfWritten = await client.query(`SELECT m.id FROM "Mock" m WHERE NOT EXISTS (SELECT 1 FROM "MockVersion" v WHERE v."mockPk" = m.pk AND v.version = m.version)`);
    return { missing, halfWritten: halfWritten.rows.map((r) => r.id as string) };
  } finally {
    await client.end();
  }
}

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null && c.pid) {
    try {
      process.kill(-c.pid, "SIGKILL");
    } catch {}
  }
  rmSync(dataDir, { recursive: true, force: true });
});

describe("SIGKILL during a burst of writes", { timeout: 240_000 }, () => {
  it("keeps every acknowledged mock and nothing half-written, after killing the server and after killing the database with it", async () => {
    const first = await startHost();
    // Only the serving process: PostgreSQL (its child) keeps running, orphaned, with a live postmaster.pid.
    const round1 = await burstAndKill(first, "r1", (c) => process.kill(c.pid!, "SIGKILL"));
    expect(round1.length).toBeGreaterThanOrEqual(10);
    expect(existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(true);

    const second = await startHost();
    expect(await integrity(second.databaseUrl, round1)).toEqual({ missing: [], halfWritten: [] });
    // The whole process group, PostgreSQL included: a stale postmaster.pid and a database that must recover from its WAL.
    const round2 = await burstAndKill(second, "r2", (c) => process.kill(-c.pid!, "SIGKILL"));
    expect(round2.length).toBeGreaterThanOrEqual(10);
    expect(existsSync(path.join(dataDir, "pg", "postmaster.pid"))).toBe(true);

    const third = await startHost();
    expect(await integrity(third.databaseUrl, [...round1, ...round2])).toEqual({ missing: [], halfWritten: [] });
    const res = await fetch(`${third.base}/api/v1/mocks/${round2[0]}?namespace=sandbox`, { headers: { cookie: await login(third.base) } });
    expect(res.status).toBe(200);
    process.kill(-third.child.pid!, "SIGTERM");
    await new Promise((r) => third.child.once("exit", r));
  });
});
