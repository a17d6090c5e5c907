// `kill -TERM <pid of npm start>` (and SIGINT) sent to the top process alone,
// as a container runtime or a service manager does: npm, the launcher, the web
// process, its Next.js process and the protocol-runner all stop, and npm exits 0.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createTestDatabase, ensureTemplate } from "../server/testing/test-db";
import { freePort } from "./support/server";

test.describe.configure({ mode: "serial", timeout: 180_000 });

/** pid → [parent pid, state] for every process, from /proc. */
function processTable(): Map<number, { ppid: number; state: string }> {
  const table = new Map<number, { ppid: number; state: string }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      table.set(Number(entry), { ppid: Number(ppid), state });
    } catch {} // gone meanwhile
  }
  return table;
}

function descendantsOf(root: number): number[] {
  const table = processTable();
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const [pid, p] of table) {
      if (p.ppid !== parent || out.includes(pid)) continue;
      out.push(pid);
      queue.push(pid);
    }
  }
  return out;
}

/** Alive: present in /proc and not a zombie waiting to be reaped. */
function alive(pids: number[]): number[] {
  const table = processTable();
  return pids.filter((pid) => table.has(pid) && table.get(pid)!.state !== "Z");
}

async function startNpm() {
  await ensureTemplate();
  const database = await createTestDatabase();
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "polymock-signals-"));
  const base = `http://localhost:${port}`;
  const child: ChildProcess = spawn("npm", ["start"], {
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      PORT: String(port),
      RUNNER_HEALTH_PORT: String(await freePort()),
      DATA_DIR: dataDir,
      SKIP_BUILD: "1",
      ADMIN_PASSWORD: "signals-admin-password",
      APP_SECRET: "signals-secret",
      PUBLIC_URL: base,
      LOG_LEVEL: "warn",
    },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, only so that the clean-up below can reach whatever a failed run left behind.
    detached: true,
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}: ${output}`);
    try {
      if ((await fetch(`${base}/health/ready`)).ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`not ready in 120 s: ${output}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  const cleanUp = async () => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {} // the group is already gone: the expected case
    await database.drop().catch(() => {});
    rmSync(dataDir, { recursive: true, force: true });
  };
  return { child, exited, output: () => output, cleanUp };
}

for (const signal of ["SIGTERM", "SIGINT"] as const) {
  test(`${signal} to the npm start process alone stops every process it started, and npm exits 0`, async () => {
    const run = await startNpm();
    try {
      const tree = descendantsOf(run.child.pid!);
      // npm → launcher → web → Next.js, and the protocol-runner: at least four processes below npm.
      expect(tree.length, run.output()).toBeGreaterThanOrEqual(4);
      process.kill(run.child.pid!, signal);
      const { code } = await run.exited;
      expect(code, run.output()).toBe(0);
      // npm waits for the launcher, which waits for its children: all gone once npm has exited; allow a moment for reaping.
      await expect.poll(() => alive(tree), { timeout: 15_000 }).toEqual([]);
    } finally {
      await run.cleanUp();
    }
  });
}
