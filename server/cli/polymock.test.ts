// The `polymock run` command as CI runs it: the real process
// (node bin/polymock.mjs) against a real node:http server, local mode.
// Exit codes, the summary table, the failure list, the file reporters
// (JUnit read back with the report importer), iterations and data files,
// Postman files, and the usage errors.
import { spawn } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseReport } from "@/server/tester/reports/import-report";

const root = path.resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(path.join(tmpdir(), "polymock-cli-"));
let server: http.Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const url = new URL(req.url!, "http://x");
    res.writeHead(url.pathname === "/missing" ? 404 : 200, { "content-type": "application/json" });
    res.end(JSON.stringify({ path: url.pathname, query: Object.fromEntries(url.searchParams), auth: req.headers.authorization ?? null }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function polymock(args: string[], env: Record<string, string> = {}, bin = path.join(root, "bin/polymock.mjs")): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir, env: { ...process.env, NO_COLOR: "1", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

function file(name: string, content: unknown): string {
  const p = path.join(dir, name);
  writeFileSync(p, typeof content === "string" ? content : JSON.stringify(content));
  return p;
}

const native = (items: unknown[], variables: { key: string; value: string }[] = []) => ({ format: "polymock-collection", version: 1, collection: { name: "CLI suite", variables }, items });
const req = (name: string, url: string, test: string, extra: Record<string, unknown> = {}) => ({ type: "request", name, request: { url, scripts: { test }, ...extra } });

/** The table's row: name, executed, failed. */
function row(stdout: string, name: string): [number, number] {
  const m = new RegExp(`│\\s*${name} │\\s*(\\d+) │\\s*(\\d+) │`).exec(stdout);
  if (!m) throw new Error(`no '${name}' row in:\n${stdout}`);
  return [Number(m[1]), Number(m[2])];
}

describe("polymock run (local)", () => {
  it("passes: exit 0, each request with its assertions, and the summary table", async () => {
    const c = file("pass.json", native([{ type: "folder", name: "Users", items: [req("get user", "{{base}}/users/1", "pm.test('200', () => pm.response.to.have.status(200)); pm.test('path', () => pm.expect(pm.response.json().path).to.eql('/users/1'))")] }, req("missing", "{{base}}/missing", "pm.test('404', () => pm.response.to.have.status(404))")], [{ key: "base", value: base }]));
    const r = await polymock(["run", c]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("❏ Users\n↳ get user");
    expect(r.stdout).toContain("→ missing");
    expect(r.stdout).toMatch(new RegExp(`GET ${base}/users/1 \\[200, \\d+B, \\d+ms\\]`));
    expect(r.stdout).toContain("✓  path");
    expect(row(r.stdout, "iterations")).toEqual([1, 0]);
    expect(row(r.stdout, "requests")).toEqual([2, 0]);
    expect(row(r.stdout, "test-scripts")).toEqual([2, 0]);
    expect(row(r.stdout, "prerequest-scripts")).toEqual([0, 0]);
    expect(row(r.stdout, "assertions")).toEqual([3, 0]);
    expect(r.stdout).toMatch(/total run duration: \d/);
    expect(r.stdout).toMatch(/average response time: \d+ms \[min: \d+ms, max: \d+ms, s\.d\.: \d+ms\]/);
    expect(r.stdout).not.toContain("failure");
  });

  it("fails: exit 1, the failure numbered with its source, and a JUnit file CI can read", async () => {
    const c = file("fail.json", native([req("wrong", `${base}/a`, "pm.test('is 201', () => pm.response.to.have.status(201)); pm.test('fine', () => {})"), req("down", "http://127.0.0.1:1/nothing", "")]));
    const junit = path.join(dir, "reports/run.xml");
    const r = await polymock(["run", c, "--reporters", "cli,junit,json,html", "--reporter-junit-export", junit, "--reporter-json-export", path.join(dir, "reports/run.json"), "--reporter-html-export", path.join(dir, "reports/run.html")]);
    expect(r.code).toBe(1);
    expect(row(r.stdout, "assertions")).toEqual([2, 1]);
    expect(row(r.stdout, "requests")).toEqual([2, 1]); // as Newman: a request that could not be sent was still executed
    expect(r.stdout).toMatch(/1\.\s+AssertionError\s+is 201\n\s+expected .*201/);
    expect(r.stdout).toMatch(/2\.\s+Error\s+.*(refused|ECONNREFUSED|connect)/i);
    expect(r.stdout).toContain('inside "wrong"');
    expect(r.stderr).toContain(`report written: ${junit}`);
    const imported = parseReport(readFileSync(junit, "utf8"), { format: "junit" });
    expect(imported.counts).toMatchObject({ tests: expect.any(Number), failedTests: 1, passedTests: 1 });
    expect(imported.results.map((x) => x.name)).toEqual(["wrong", "down"]);
    const json = JSON.parse(readFileSync(path.join(dir, "reports/run.json"), "utf8"));
    expect(json.run.counts.failedTests).toBe(1);
    expect(readFileSync(path.join(dir, "reports/run.html"), "utf8")).toContain("<html");
  });

  it("stops at the first failure with --bail", async () => {
    const c = file("bail.json", native([req("first", `${base}/b1`, "pm.test('no', () => pm.expect(1).to.eql(2))"), req("second", `${base}/b2`, "")]));
    const before = seen.length;
    const r = await polymock(["run", c, "--bail"]);
    expect(r.code).toBe(1);
    expect(seen.slice(before)).toEqual(["GET /b1"]);
  });

  it("runs --iterations with rows of a --data CSV file and --env-var values", async () => {
    const c = file("data.json", native([req("q", "{{base}}/search?user={{user}}", "pm.test('user', () => pm.expect(pm.response.json().query.user).to.eql(pm.iterationData.get('user')))")]));
    const data = file("rows.csv", "user\nada\nbob\n");
    const before = seen.length;
    const r = await polymock(["run", c, "--data", data, "--env-var", `base=${base}`]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(seen.slice(before)).toEqual(["GET /search?user=ada", "GET /search?user=bob"]);
    expect(row(r.stdout, "iterations")).toEqual([2, 0]);
    expect(r.stdout).toContain("Iteration 2/2");
    const three = await polymock(["run", c, "-d", data, "-n", "3", "--env-var", `base=${base}`]);
    expect(three.code).toBe(0);
    expect(row(three.stdout, "assertions")).toEqual([3, 0]);
  });

  it("runs a Postman v2.1 collection with a Postman environment file", async () => {
    const collection = {
      info: { name: "From Postman", schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json" },
      item: [{ name: "whoami", request: { method: "GET", url: "{{host}}/me", auth: { type: "bearer", bearer: [{ key: "token", value: "{{token}}", type: "string" }] } }, event: [{ listen: "test", script: { exec: ["pm.test('bearer sent', () => pm.expect(pm.response.json().auth).to.eql('Bearer t0k'))"] } }] }],
    };
    const env = { name: "local", values: [{ key: "host", value: base, enabled: true }, { key: "token", value: "t0k", enabled: true }], _postman_variable_scope: "environment" };
    const r = await polymock(["run", file("postman.json", collection), "-e", file("postman-env.json", env)]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(row(r.stdout, "assertions")).toEqual([1, 0]);
  });

  it("usage and input errors: exit 2 with a clear message", async () => {
    const missing = await polymock(["run", path.join(dir, "nope.json")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("does not exist");
    const notJson = await polymock(["run", file("bad.json", "{not json")]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toContain("is not JSON");
    const notCollection = await polymock(["run", file("other.json", { hello: "world" })]);
    expect(notCollection.code).toBe(2);
    expect(notCollection.stderr).toContain("neither a polymock-collection export nor a Postman collection");
    const invalid = await polymock(["run", file("invalid.json", { format: "polymock-collection", version: 1, collection: { name: "" }, items: [] })]);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toContain("collection.name");
    const option = await polymock(["run", file("ok.json", native([])), "--iterations", "zero"]);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("--iterations must be a whole number");
    const reporter = await polymock(["run", path.join(dir, "ok.json"), "-r", "teamcity"]);
    expect(reporter.code).toBe(2);
    expect(reporter.stderr).toContain("unknown reporter 'teamcity'");
    const noToken = await polymock(["run", "00000000-0000-4000-8000-000000000000", "--server", "http://127.0.0.1:1"], { POLYMOCK_TOKEN: "" });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toContain("needs an API token");
    const badData = await polymock(["run", path.join(dir, "ok.json"), "--data", file("bad.csv", 'a,b\n"open')]);
    expect(badData.code).toBe(2);
    expect(badData.stderr).toContain("data file");
    const nothing = await polymock([]);
    expect(nothing.code).toBe(2);
    expect(nothing.stdout).toContain("Usage: polymock run");
  });

  it("works from an install, inside node_modules (where tsx ignores tsconfig paths)", async () => {
    const installed = path.join(dir, "app/node_modules/polymock");
    mkdirSync(installed, { recursive: true });
    // What `npm install` puts there: the package's files (the generated Prisma client aside: the CLI never loads it).
    for (const part of ["bin", "server", "tsconfig.json", "package.json"]) cpSync(path.join(root, part), path.join(installed, part), { recursive: true, filter: (src) => !src.includes(`${path.sep}generated`) });
    symlinkSync(path.join(root, "node_modules"), path.join(installed, "node_modules"));
    const c = file("installed.json", native([req("one", `${base}/installed`, "pm.test('200', () => pm.response.to.have.status(200))")]));
    const r = await polymock(["run", c], {}, path.join(installed, "bin/polymock.mjs"));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(row(r.stdout, "assertions")).toEqual([1, 0]);
  });
});
