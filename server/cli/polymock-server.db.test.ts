// `polymock run <id> --server … --token …`: the real CLI process against the
// real route handler of POST /api/v1/api-tester/collections/{id}/execute
// (served on node:http here, as server/testing/route-host.ts serves them),
// a real PostgreSQL and a real target server. The token authenticates as a
// Bearer credential; the run is stored on the server like one from the UI.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as collectionsRoute from "@/app/api/v1/api-tester/collections/route";
import * as requestsRoute from "@/app/api/v1/api-tester/collections/[id]/requests/route";
import * as executeCollectionRoute from "@/app/api/v1/api-tester/collections/[id]/execute/route";
import { db } from "@/server/db/client";
import { call, makeToken, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();
const NS = "cli-server";
const root = path.resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(path.join(tmpdir(), "polymock-cli-server-"));
let cookie: string;
let token: string;
let api: http.Server;
let apiBase: string;
let target: http.Server;
let targetBase: string;

const EXECUTE = /^\/api\/v1\/api-tester\/collections\/([^/]+)\/execute$/;

beforeAll(async () => {
  const { user } = await makeUser({ namespaces: { [NS]: "owner" } });
  cookie = await sessionCookie(user.id);
  token = await makeToken(user, { namespace: NS });
  api = http.createServer(async (req, res) => {
    const url = new URL(req.url!, "http://localhost");
    const m = EXECUTE.exec(url.pathname);
    if (!m || req.method !== "POST") return void res.writeHead(404, { "content-type": "application/json" }).end('{"error":"No such route","code":"not_found"}');
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    headers.set("x-polymock-peer", "127.0.0.1");
    const request = new Request(url, { method: "POST", headers, body: Readable.toWeb(req) as ReadableStream, duplex: "half" } as RequestInit);
    const response = await executeCollectionRoute.POST(request, { params: Promise.resolve({ id: decodeURIComponent(m[1]) }) });
    const out: Record<string, string> = {};
    response.headers.forEach((v, k) => (out[k] = v));
    res.writeHead(response.status, out).end(Buffer.from(await response.arrayBuffer()));
  });
  target = http.createServer((req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ path: req.url }));
  });
  await Promise.all([new Promise<void>((r) => api.listen(0, "127.0.0.1", r)), new Promise<void>((r) => target.listen(0, "127.0.0.1", r))]);
  apiBase = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  targetBase = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => api.close(r));
  await new Promise((r) => target.close(r));
});

function polymock(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(root, "bin/polymock.mjs"), ...args], { cwd: dir, env: { ...process.env, NO_COLOR: "1", POLYMOCK_TOKEN: "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

async function collection(name: string, requests: { name: string; url: string; test: string }[]) {
  const c = await call(collectionsRoute.POST, `/api/v1/api-tester/collections?namespace=${NS}`, { method: "POST", cookie, body: { name, variables: [{ key: "base", value: targetBase }] } });
  expect(c.status).toBe(201);
  for (const r of requests) {
    const made = await call(requestsRoute.POST, `/api/v1/api-tester/collections/${c.body.id}/requests?namespace=${NS}`, { method: "POST", cookie, body: { name: r.name, url: r.url, scripts: { test: r.test } }, params: { id: c.body.id } });
    expect(made.status).toBe(201);
  }
  return c.body.id as string;
}

describe("polymock run --server", () => {
  it("runs a collection on the server with the token, prints the summary, writes JUnit, and the run is stored there", async () => {
    const id = await collection("Remote", [
      { name: "one", url: "{{base}}/one?n={{n}}", test: "pm.test('n', () => pm.expect(pm.response.json().path).to.eql('/one?n=' + pm.iterationData.get('n')))" },
      { name: "two", url: "{{base}}/two", test: "pm.test('200', () => pm.response.to.have.status(200))" },
    ]);
    const data = path.join(dir, "rows.json");
    (await import("node:fs")).writeFileSync(data, JSON.stringify([{ n: 1 }, { n: 2 }]));
    const junit = path.join(dir, "remote.xml");
    const r = await polymock(["run", id, "--server", apiBase, "--namespace", NS, "--data", data, "-r", "cli,junit", "--reporter-junit-export", junit], { POLYMOCK_TOKEN: token });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain("Iteration 2/2");
    expect(r.stdout).toMatch(/│\s*assertions │\s*4 │\s*0 │/);
    expect(r.stdout).toMatch(/│\s*requests │\s*4 │\s*0 │/);
    expect(readFileSync(junit, "utf8")).toContain('tests="4" failures="0"');
    const stored = await db().testRun.findFirst({ where: { name: "Remote" } });
    expect(stored?.status).toBe("passed");
  });

  it("exits 1 when a test fails on the server, and 2 for an unknown id or a bad token", async () => {
    const id = await collection("Remote failing", [{ name: "bad", url: "{{base}}/x", test: "pm.test('is 500', () => pm.response.to.have.status(500))" }]);
    const failed = await polymock(["run", id, "--server", apiBase, "--token", token, "--namespace", NS]);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/1\.\s+AssertionError\s+is 500/);

    const unknown = await polymock(["run", "00000000-0000-4000-8000-000000000000", "--server", apiBase, "--token", token, "--namespace", NS]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/404 not_found.*Collection/);

    const badToken = await polymock(["run", id, "--server", apiBase, "--token", "pm_not_a_token", "--namespace", NS]);
    expect(badToken.code).toBe(2);
    expect(badToken.stderr).toContain("401");
  });
});
