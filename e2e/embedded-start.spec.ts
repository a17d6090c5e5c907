// `npm start` with no DATABASE_URL: the embedded PostgreSQL path, end to end.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { freePort } from "./support/server";

test.describe.configure({ mode: "serial", timeout: 180_000 });

const dataDir = mkdtempSync(path.join(os.tmpdir(), "polymock-embedded-"));
chmodSync(dataDir, 0o755);

function launch(port: number, runnerPort: number) {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), RUNNER_HEALTH_PORT: String(runnerPort), DATA_DIR: dataDir, SKIP_BUILD: "1" };
  for (const k of ["DATABASE_URL", "APP_SECRET", "ADMIN_PASSWORD", "NEXTAUTH_SECRET", "NEXTAUTH_URL", "PUBLIC_URL"]) delete env[k];
  env.EMBEDDED_PG_PORT = String(port + 1);
  const child = spawn(process.execPath, ["--import", "tsx", "server/runtime/launcher.ts"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  return { child, output: () => output };
}

async function waitReady(base: string, child: ChildProcess) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`launcher exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/health/ready`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error("not ready in 120 s");
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null) return child.exitCode;
  process.kill(-child.pid!, "SIGTERM");
  return new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
}

test.afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

test("starts on the embedded database, prints the admin password once, keeps data across restarts, and locks its data directory", async ({ request }) => {
  const port = await freePort();
  const base = `http://localhost:${port}`;
  const first = launch(port, await freePort());
  await waitReady(base, first.child);
  const password = /created the admin user 'admin' with password: (\S+)/.exec(first.output())?.[1];
  expect(password, first.output()).toBeTruthy();
  expect(first.output()).toContain("embedded PostgreSQL on 127.0.0.1:");

  const login = await request.post(`${base}/api/v1/auth/login`, { data: { username: "admin", password } });
  expect(login.status()).toBe(200);
  const created = await request.post(`${base}/api/v1/auth/tokens`, { data: { name: "smoke", permissions: ["read"] } });
  expect(created.status()).toBe(201);
  const { token } = await created.json();
  const me = await request.get(`${base}/api/v1/auth/me`, { headers: { "X-API-Key": token } });
  expect((await me.json()).username).toBe("admin");
  const health = await (await request.get(`${base}/health`)).json();
  expect(health.checks.database.status).toBe("up");

  // A second launcher on the same data directory is refused.
  const second = launch(await freePort(), await freePort());
  const code = await new Promise<number | null>((r) => second.child.once("exit", (c) => r(c)));
  expect(code).not.toBe(0);
  expect(second.output()).toMatch(/in use by another Polymock process/);

  expect(await stop(first.child)).toBe(0);

  // Restart: same data, no new password, sandbox still there.
  const again = launch(port, await freePort());
  await waitReady(base, again.child);
  expect(again.output()).not.toContain("created the admin user");
  const me2 = await request.get(`${base}/api/v1/auth/me`, { headers: { "X-API-Key": token } });
  expect(me2.status()).toBe(200);
  const ns = await (await request.get(`${base}/api/v1/namespaces`, { headers: { "X-API-Key": token } })).json();
  expect(ns.namespaces).toContain("sandbox");
  expect(await stop(again.child)).toBe(0);
});
