// The API tester's execution endpoints end to end, through the route handlers,
// against a real node:http server started here: sending (with and without
// scripts, variables written back, secrets masked), the browser split,
// scripts alone, collection runs (iterations from a data file, bail, cancel,
// server-sent events), reports out (JUnit, HTML, JSON) and back in.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as collectionsRoute from "@/app/api/v1/api-tester/collections/route";
import * as requestsRoute from "@/app/api/v1/api-tester/collections/[id]/requests/route";
import * as executeCollectionRoute from "@/app/api/v1/api-tester/collections/[id]/execute/route";
import * as executeMultipleRoute from "@/app/api/v1/api-tester/collections/execute-multiple/route";
import * as environmentsRoute from "@/app/api/v1/api-tester/environments/route";
import * as environmentRoute from "@/app/api/v1/api-tester/environments/[id]/route";
import * as executeRoute from "@/app/api/v1/api-tester/requests/execute/route";
import * as withScriptsRoute from "@/app/api/v1/api-tester/requests/execute-with-scripts/route";
import * as clientRoute from "@/app/api/v1/api-tester/requests/execute-client/route";
import * as scriptRoute from "@/app/api/v1/api-tester/scripts/execute/route";
import * as cancelRoute from "@/app/api/v1/api-tester/test-runs/[id]/cancel/route";
import * as exportRoute from "@/app/api/v1/api-tester/test-runs/[id]/export/route";
import * as runRoute from "@/app/api/v1/api-tester/test-runs/[id]/route";
import * as importRoute from "@/app/api/v1/api-tester/reports/import/route";
import * as historyRoute from "@/app/api/v1/api-tester/requests/history/route";
import { SECRET_MASK } from "@/server/contracts/tester-request";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "exec";
let cookie: string;
let server: http.Server;
let base: string;
const seen: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  cookie = await sessionCookie(o.user.id);
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const url = new URL(req.url!, "http://x");
      if (url.pathname === "/slow") return void setTimeout(() => res.end("late"), 10_000);
      if (url.pathname === "/login") {
        res.writeHead(200, { "content-type": "application/json", "set-cookie": "sid=abc; Path=/" });
        return void res.end(JSON.stringify({ token: "tok-" + (JSON.parse(body || "{}").user ?? "anon") }));
      }
      if (url.pathname.startsWith("/status/")) {
        res.writeHead(Number(url.pathname.slice(8)), { "content-type": "application/json" });
        return void res.end("{}");
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ method: req.method, path: url.pathname, query: Object.fromEntries(url.searchParams), auth: req.headers.authorization ?? null, body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const q = `?namespace=${NS}`;
const post = (route: { POST: any }, path: string, body: unknown, params?: Record<string, string>) => call(route.POST, `${path}${q}`, { method: "POST", cookie, body, params });

async function collection(name: string, extra: Record<string, unknown> = {}) {
  const r = await post(collectionsRoute, "/api/v1/api-tester/collections", { name, ...extra });
  expect(r.status).toBe(201);
  return r.body.id as string;
}
async function request(collectionId: string, body: Record<string, unknown>) {
  const r = await post(requestsRoute, `/api/v1/api-tester/collections/${collectionId}/requests`, body, { id: collectionId });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}
async function environment(name: string, variables: Record<string, string>, secrets: string[] = []) {
  const r = await post(environmentsRoute, "/api/v1/api-tester/environments", { name, variables, secrets });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.id as string;
}
const run = (id: string, body: Record<string, unknown>) => post(executeCollectionRoute, `/api/v1/api-tester/collections/${id}/execute`, body, { id });

describe("requests/execute", () => {
  it("sends an inline request with environment variables substituted and a history entry", async () => {
    const env = await environment("e1", { base, who: "ada" });
    const r = await post(executeRoute, "/api/v1/api-tester/requests/execute", { request: { method: "POST", url: "{{base}}/echo", params: { q: "{{who}}" }, body: { mode: "raw", language: "json", raw: '{"n":"{{who}}"}' } }, environmentId: env });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.ok).toBe(true);
    const echoed = JSON.parse(r.body.response.body);
    expect(echoed).toMatchObject({ method: "POST", path: "/echo", query: { q: "ada" }, body: '{"n":"ada"}' });
    expect(r.body.response.timings.totalMs).toBeGreaterThanOrEqual(r.body.response.timings.firstByteMs);
    const h = await call(historyRoute.GET, `/api/v1/api-tester/requests/history${q}`, { cookie });
    expect(h.body.history.some((e: { id: string }) => e.id === r.body.historyId)).toBe(true);
  });

  it("answers a blocked target as a failed send, not an API error", async () => {
    const r = await post(executeRoute, "/api/v1/api-tester/requests/execute", { request: { url: "http://169.254.169.254/latest/meta-data/" }, environmentId: null });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: false, error: { code: "blocked" } });
  });

  it("refuses an inline request and a requestId together, and neither", async () => {
    expect((await post(executeRoute, "/api/v1/api-tester/requests/execute", {})).status).toBe(400);
    const bad = await post(executeRoute, "/api/v1/api-tester/requests/execute", { requestId: "00000000-0000-4000-8000-000000000000", request: { url: base } });
    expect(bad.status).toBe(400);
  });

  it("is 404 for a request of no collection of the namespace", async () => {
    const r = await post(executeRoute, "/api/v1/api-tester/requests/execute", { requestId: "00000000-0000-4000-8000-000000000000" });
    expect(r.status).toBe(404);
  });
});

describe("requests/execute-with-scripts", () => {
  it("runs collection, folder and request scripts, writes the token back to the environment, masks the secret", async () => {
    const env = await environment("login-env", { base, password: "hunter2-secret" }, ["password"]);
    const col = await collection("Login flow", { scripts: { preRequest: "pm.variables.set('user', 'ada')" } });
    const login = await request(col, {
      name: "login",
      method: "POST",
      url: "{{base}}/login?pw={{password}}",
      body: { mode: "raw", language: "json", raw: '{"user":"{{user}}"}' },
      scripts: { test: "pm.test('status 200', () => pm.response.to.have.status(200));\npm.environment.set('token', pm.response.json().token);\nconsole.log('got', pm.response.json().token)" },
    });
    const r = await post(withScriptsRoute, "/api/v1/api-tester/requests/execute-with-scripts", { requestId: login, environmentId: env });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: "passed", success: true, totalTests: 1, passedTests: 1, failedTests: 0 });
    expect(r.body.logs[0].message).toContain("tok-ada");
    expect(r.body.request.url).toContain(`pw=${SECRET_MASK}`);
    expect(r.body.request.url).not.toContain("hunter2-secret");
    const stored = await call(environmentRoute.GET, `/api/v1/api-tester/environments/${env}${q}`, { cookie, params: { id: env } });
    expect(stored.body.variables.token).toBe("tok-ada");
    expect(stored.body.variables.password).toBe(SECRET_MASK);
  });

  it("reports a failed assertion and a script error with its kind", async () => {
    const failed = await post(withScriptsRoute, "/api/v1/api-tester/requests/execute-with-scripts", { request: { url: `${base}/status/404`, scripts: { test: "pm.test('is 200', () => pm.response.to.have.status(200))" } }, environmentId: null });
    expect(failed.body).toMatchObject({ status: "failed", success: false, failedTests: 1 });
    const broken = await post(withScriptsRoute, "/api/v1/api-tester/requests/execute-with-scripts", { request: { url: `${base}/x`, scripts: { preRequest: "this is not javascript" } }, environmentId: null });
    expect(broken.body).toMatchObject({ status: "error", success: false, error: { kind: "syntax" } });
  });

  it("skips the send when a pre-request script says so", async () => {
    const before = seen.length;
    const r = await post(withScriptsRoute, "/api/v1/api-tester/requests/execute-with-scripts", { request: { url: `${base}/never`, scripts: { preRequest: "pm.execution.skipRequest()" } }, environmentId: null });
    expect(r.body).toMatchObject({ status: "skipped", skipRequest: true });
    expect(seen.length).toBe(before);
  });
});

describe("browser split and scripts alone", () => {
  it("prepares requestData with a masked scriptState, then judges the browser's response", async () => {
    const env = await environment("split-env", { base, key: "k-very-secret" }, ["key"]);
    const pre = await post(clientRoute, "/api/v1/api-tester/requests/execute-client", { executionMode: "client", request: { url: "{{base}}/c", headers: { "x-key": "{{key}}" }, scripts: { preRequest: "pm.environment.set('step', 'pre')", test: "pm.test('ok', () => pm.expect(pm.response.json().fine).to.eql(true)); pm.environment.set('step', 'test')" } }, environmentId: env });
    expect(pre.status, JSON.stringify(pre.body)).toBe(200);
    expect(pre.body.requestData.url).toBe(`${base}/c`);
    expect(pre.body.requestData.headers).toContainEqual({ key: "x-key", value: "k-very-secret" });
    expect(pre.body.scriptState).toMatchObject({ environmentId: env, environment: { key: SECRET_MASK, step: "pre" } });
    const test = await post(clientRoute, "/api/v1/api-tester/requests/execute-client", {
      executionMode: "client",
      stage: "test",
      request: { url: "{{base}}/c", headers: { "x-key": "{{key}}" }, scripts: { test: "pm.test('ok', () => pm.expect(pm.response.json().fine).to.eql(true)); pm.environment.set('step', 'test')" } },
      scriptState: pre.body.scriptState,
      responseData: { status: 200, headers: [{ key: "content-type", value: "application/json" }], body: '{"fine":true}' },
    });
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    expect(test.body).toMatchObject({ stage: "test", status: "passed", passedTests: 1, scriptState: { environment: { step: "test", key: SECRET_MASK } } });
  });

  it("runs a test script alone over a given response; a syntax error names its line", async () => {
    const ok = await post(scriptRoute, "/api/v1/api-tester/scripts/execute", { scriptType: "test", script: "pm.test('code', () => pm.response.to.have.status(201))", response: { status: 201, headers: [], body: "" }, environmentId: null });
    expect(ok.body).toMatchObject({ status: "passed", success: true, totalTests: 1 });
    const bad = await post(scriptRoute, "/api/v1/api-tester/scripts/execute", { scriptType: "preRequest", script: "let a = 1;\nlet = = 2;", environmentId: null });
    expect(bad.body).toMatchObject({ status: "error", success: false, error: { kind: "syntax", line: 2 } });
  });

  it("authorizeOnly checks the request and runs nothing", async () => {
    const col = await collection("Preflight");
    const id = await request(col, { name: "r", url: `${base}/p`, scripts: { preRequest: "throw new Error('must not run')" } });
    const r = await post(scriptRoute, "/api/v1/api-tester/scripts/execute", { scriptType: "preRequest", requestId: id, authorizeOnly: true });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ success: true });
    const missing = await post(scriptRoute, "/api/v1/api-tester/scripts/execute", { scriptType: "preRequest", requestId: "00000000-0000-4000-8000-000000000000", authorizeOnly: true });
    expect(missing.status).toBe(404);
  });
});

describe("collection runs", () => {
  it("runs every request with its tests, iterations from a CSV data file, and stores the run", async () => {
    const col = await collection("Three", { variables: [{ key: "base", value: base }] });
    await request(col, { name: "one", url: "{{base}}/one?user={{user}}", scripts: { test: "pm.test('200', () => pm.response.to.have.status(200)); pm.test('user', () => pm.expect(pm.response.json().query.user).to.eql(pm.iterationData.get('user')))" } });
    await request(col, { name: "two", url: "{{base}}/two", scripts: { test: "pm.test('path', () => pm.expect(pm.response.json().path).to.eql('/two'))" } });
    await request(col, { name: "three", url: "{{base}}/status/500", scripts: { test: "pm.test('5xx', () => pm.response.to.be.serverError)" } });
    const r = await run(col, { data: "user,n\nada,1\nbob,2\n", environmentId: null });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({ status: "passed", mode: "functional", iterations: 2, counts: { requests: 6, passedRequests: 6, tests: 8, passedTests: 8, failedTests: 0 } });
    expect(r.body.results.map((x: { name: string; iteration: number }) => `${x.iteration}:${x.name}`)).toEqual(["0:one", "0:two", "0:three", "1:one", "1:two", "1:three"]);
    const again = await call(runRoute.GET, `/api/v1/api-tester/test-runs/${r.body.id}${q}`, { cookie, params: { id: r.body.id } });
    expect(again.body.results).toHaveLength(6);
  });

  it("stops at the first failure with bail, and names an unresolved URL variable", async () => {
    const col = await collection("Bail");
    await request(col, { name: "unknown var", url: "{{nowhere}}/x" });
    await request(col, { name: "never sent", url: `${base}/y` });
    const r = await run(col, { bail: true, environmentId: null });
    expect(r.body.status).toBe("failed");
    expect(r.body.results).toHaveLength(1);
    expect(r.body.results[0].error).toContain("{{nowhere}}");
    expect(r.body.statusReason).toContain("bail");
  });

  it("refuses a data file that is not usable, before any run exists", async () => {
    const col = await collection("Bad data");
    const r = await run(col, { data: '[{"a":1}, 2]', environmentId: null });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain("data file");
  });

  it("cancels a running run within a second", async () => {
    const col = await collection("Slow");
    await request(col, { name: "slow", url: `${base}/slow` });
    const pending = run(col, { environmentId: null, iterations: 3 });
    let runId: string | undefined;
    for (let i = 0; i < 50 && !runId; i++) {
      await new Promise((r) => setTimeout(r, 100));
      const { db } = await import("@/server/db/client");
      runId = (await db().testRun.findFirst({ where: { name: "Slow", status: "running" } }))?.id;
    }
    expect(runId).toBeDefined();
    const asked = Date.now();
    const c = await call(cancelRoute.POST, `/api/v1/api-tester/test-runs/${runId}/cancel${q}`, { method: "POST", cookie, params: { id: runId! } });
    expect(c.status).toBe(200);
    const done = await pending;
    expect(Date.now() - asked).toBeLessThan(1500);
    expect(done.body.status).toBe("cancelled");
    const late = await call(cancelRoute.POST, `/api/v1/api-tester/test-runs/${runId}/cancel${q}`, { method: "POST", cookie, params: { id: runId! } });
    expect(late.status).toBe(409);
  });

  it("streams progress as server-sent events and ends with the run", async () => {
    const col = await collection("Streamed");
    await request(col, { name: "a", url: `${base}/a` });
    await request(col, { name: "b", url: `${base}/b` });
    const r = await run(col, { useSSE: true, environmentId: null });
    expect(r.headers.get("content-type")).toContain("text/event-stream");
    const events = [...r.text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(events[0]).toBe("started");
    expect(events.filter((e) => e === "result")).toHaveLength(2);
    expect(events.at(-1)).toBe("finished");
  });

  it("runs several collections as one run", async () => {
    const a = await collection("Multi A");
    const b = await collection("Multi B");
    const skipped = await request(a, { name: "a1", url: `${base}/a1` });
    await request(a, { name: "a2", url: `${base}/a2` });
    await request(b, { name: "b1", url: `${base}/b1` });
    const r = await post(executeMultipleRoute, "/api/v1/api-tester/collections/execute-multiple", { collectionIds: [{ collectionId: a, requestIds: [skipped] }, b], environmentId: null });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.results.map((x: { name: string }) => x.name)).toEqual(["a1", "b1"]);
    expect(r.body.collectionIds).toEqual([a, b]);
  });
});

describe("reports", () => {
  it("exports JUnit, HTML and JSON and imports the JUnit back as a run", async () => {
    const col = await collection("Reported <b>");
    await request(col, { name: "ok", url: `${base}/ok`, scripts: { test: "pm.test('fine', () => {}); pm.test('broken', () => pm.expect(1).to.eql(2))" } });
    const r = await run(col, { environmentId: null });
    expect(r.body.status).toBe("failed");
    const id = r.body.id;
    const get = (format: string) => call(exportRoute.GET, `/api/v1/api-tester/test-runs/${id}/export${q}&format=${format}`, { cookie, params: { id } });
    const junit = await get("junit");
    expect(junit.headers.get("content-type")).toContain("xml");
    expect(junit.headers.get("content-disposition")).toContain("attachment");
    expect(junit.text).toContain("<testsuites");
    expect(junit.text).toContain("<failure");
    const html = await get("html");
    expect(html.text).toContain("Reported &lt;b&gt;");
    const json = await get("json");
    expect(json.body.run.id).toBe(id);
    const imported = await call(importRoute.POST, `/api/v1/api-tester/reports/import${q}`, { method: "POST", cookie, rawBody: junit.text, headers: { "content-type": "application/xml" } });
    expect(imported.status, imported.text).toBe(201);
    expect(imported.body).toMatchObject({ source: "import", status: "failed", counts: { tests: 2, passedTests: 1, failedTests: 1 } });
    const wrapped = await call(importRoute.POST, `/api/v1/api-tester/reports/import${q}`, { method: "POST", cookie, body: { data: json.text, name: "From JSON" } });
    expect(wrapped.status, wrapped.text).toBe(201);
    expect(wrapped.body.name).toBe("From JSON");
  });

  it("refuses a document that is not a report, naming the problem", async () => {
    const r = await call(importRoute.POST, `/api/v1/api-tester/reports/import${q}`, { method: "POST", cookie, rawBody: "<testsuite><testcase", headers: { "content-type": "application/xml" } });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain("report");
  });
});
