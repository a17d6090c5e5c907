// Postman's own published scripts (fixtures/, sources in its README) run
// against realistic responses must get the verdict Postman gives them.
// pm.sendRequest goes through a real node:http server standing in for
// postman-echo.com.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExecutedResponse } from "@/server/contracts/tester-execution";
import { response, scriptInput } from "@/server/testing/script-sandbox";
import { emptyScopes } from "@/server/tester/scopes";
import { ScriptSandbox, type ScriptInput, type ScriptOutcome, type ScriptRequest } from "./index";

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, "fixtures", `${name}.js`), "utf8");

let sandbox: ScriptSandbox;
let echo: http.Server;
let echoOrigin: string;
const sent: (string | ScriptRequest)[] = [];

beforeAll(async () => {
  sandbox = await ScriptSandbox.create();
  echo = http.createServer((req, res) => {
    let data = "";
    req.on("data", (c) => (data += c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "https://postman-echo.com");
      const body: Record<string, unknown> = { args: Object.fromEntries(url.searchParams), headers: req.headers, url: url.toString() };
      if (req.method !== "GET") {
        body.data = data;
        try {
          body.json = JSON.parse(data);
        } catch {
          body.json = null;
        }
      }
      res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
  echoOrigin = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
});
afterAll(() => {
  sandbox.dispose();
  echo.close();
});

/** The host's HTTP client in these tests: a plain http.request to the local echo server. */
async function sendRequest(req: string | ScriptRequest): Promise<ExecutedResponse> {
  sent.push(req);
  const r: ScriptRequest = typeof req === "string" ? { method: "GET", url: req, headers: [], body: { mode: "none" } } : req;
  const target = r.url.replace("https://postman-echo.com", echoOrigin);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const out = http.request(target, { method: r.method, headers: Object.fromEntries(r.headers.map((h) => [h.key, h.value])) }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const headers = Object.entries(res.headers).map(([key, value]) => ({ key, value: String(value) }));
        resolve(response({ status: res.statusCode ?? 0, statusText: res.statusMessage ?? "", body, headers, url: r.url, timings: { dnsMs: 0, connectMs: 0, tlsMs: 0, firstByteMs: 0, downloadMs: 0, totalMs: performance.now() - started } }));
      });
    });
    out.on("error", reject);
    if (r.body.mode === "raw" && r.body.raw) out.write(r.body.raw);
    out.end();
  });
}

const json = (body: unknown, overrides: Partial<ExecutedResponse> = {}) => response({ json: body, ...overrides });
const run = (name: string, overrides: Partial<ScriptInput> = {}) => sandbox.run(scriptInput(fixture(name), { sendRequest, ...overrides }));
const withEnv = (environment: Record<string, unknown>, collection: Record<string, unknown> = {}) => ({ ...emptyScopes(), environment, collection });

function verdict(out: ScriptOutcome) {
  return { status: out.status, tests: out.tests, error: out.error?.message };
}

describe("Postman docs: test script examples", () => {
  it.each([
    ["postman-docs/status-code-200", json({ id: 1 })],
    ["postman-docs/status-code-200-expect", json({ id: 1 })],
    ["postman-docs/status-test", json({ id: 1 })],
    ["postman-docs/all-properties", json({ type: "vip", name: "Jane", id: "1" })],
    ["postman-docs/body-contains-string", json({ customer_id: 7 })],
    ["postman-docs/body-is-string", response({ body: "whole-body-text" })],
    ["postman-docs/person-is-jane", json({ name: "Jane", age: 23 })],
    ["postman-docs/status-code-201", json({ id: 1 }, { status: 201, statusText: "Created" })],
    ["postman-docs/successful-post", json({ id: 1 }, { status: 202, statusText: "Accepted" })],
    ["postman-docs/status-code-name", json({ id: 1 }, { status: 201, statusText: "Created" })],
    ["postman-docs/content-type-present", json({ id: 1 })],
    ["postman-docs/content-type-json", json({ id: 1 })],
    ["postman-docs/response-time", json({ id: 1 })],
    ["postman-docs/value-types", json({ name: "Jane", age: 29, hobbies: ["skating", "painting"], email: null })],
    ["postman-docs/array-properties", json({ errors: [], areas: ["goods", "services"], settings: [{ type: "notification", detail: ["email", "sms"] }, { type: "visual", detail: ["light", "large"] }] })],
    ["postman-docs/value-in-list", json({ type: "Customer" })],
    ["postman-docs/object-contained", json({ id: "d8893057-3e91-4cdd-a36f-a0af460b6373", created: true, errors: [] })],
    ["postman-docs/okay-to-process", json({ id: 1 })],
    ["postman-docs/valid-with-body", json({ id: 1 })],
    ["postman-docs/schema-json-schema", json({ alpha: true })],
  ])("%s passes", async (name, res) => {
    const out = await run(name, { response: res });
    expect(out.error).toBeUndefined();
    expect(out.totalTests).toBeGreaterThan(0);
    expect(out.tests.every((t) => t.status === "passed")).toBe(true);
    expect(out.status).toBe("passed");
  });

  it.each([
    ["postman-docs/status-code-200", json({ error: "nope" }, { status: 404, statusText: "Not Found" }), "expected response to have status code 200 but got 404"],
    ["postman-docs/status-code-200-expect", json({}, { status: 500, statusText: "Internal Server Error" }), "expected 500 to deeply equal 200"],
    ["postman-docs/all-properties", json({ type: "basic", name: "Jane", id: "1" }), "expected 'basic' to deeply equal 'vip'"],
    ["postman-docs/content-type-json", json({ id: 1 }, { headers: [{ key: "Content-Type", value: "application/json; charset=utf-8" }] }), "expected 'application/json; charset=utf-8' to deeply equal 'application/json'"],
    ["postman-docs/content-type-present", response({ body: "x", headers: [] }), "expected response to have header with key 'Content-Type'"],
    ["postman-docs/response-time", json({ id: 1 }, { timings: { dnsMs: 0, connectMs: 0, tlsMs: 0, firstByteMs: 300, downloadMs: 50, totalMs: 350 } }), "expected 350 to be below 200"],
    ["postman-docs/value-in-list", json({ type: "Admin" }), "expected 'Admin' to be one of [ 'Subscriber', 'Customer', 'User' ]"],
    ["postman-docs/okay-to-process", json({ error: "bad" }), `expected { error: 'bad' } in response to not contain property 'error'`],
    ["postman-docs/okay-to-process", json({}, { status: 503, statusText: "Service Unavailable" }), "expected response code to not be 4XX or 5XX but found 503"],
    ["postman-docs/test-not-failing", json({}), "expected true to deeply equal false"],
    ["postman-docs/schema-tv4", json({}), "expected false to be true"],
    ["postman-docs/schema-json-schema", json({ alpha: 1 }), "expected data to satisfy schema but found following errors: \ndata.alpha should be boolean"],
  ])("%s fails as in Postman", async (name, res, message) => {
    const out = await run(name, { response: res });
    expect(out.status).toBe("failed");
    expect(out.success).toBe(false);
    expect(out.tests.find((t) => t.status === "failed")?.error).toBe(message);
  });

  it("cookies, the environment and the active environment's name", async () => {
    const cookies = [
      { name: "JSESSIONID", value: "abc" },
      { name: "isLoggedIn", value: "1" },
    ];
    expect((await run("postman-docs/cookie-present", { cookies })).status).toBe("passed");
    expect((await run("postman-docs/cookie-value", { cookies })).status).toBe("passed");
    expect((await run("postman-docs/cookie-value", { response: json({}, { cookies: [{ name: "isLoggedIn", value: "0" }] }) })).status).toBe("failed");
    expect((await run("postman-docs/matches-environment-variable", { scopes: withEnv({ name: "Jane" }) })).status).toBe("passed");
    expect((await run("postman-docs/environment-production", { scopes: withEnv({ env: "production" }) })).status).toBe("passed");
    const info = { eventName: "test" as const, iteration: 0, iterationCount: 1, requestName: "Get user", requestId: "req-1", environmentName: "Production" };
    expect((await run("postman-docs/active-environment", { info })).status).toBe("passed");
  });

  it("assertions outside pm.test: passing ones give a script with no tests, a failing one is the script's error", async () => {
    const keys = await run("postman-docs/object-properties");
    expect(keys).toMatchObject({ status: "passed", success: true, totalTests: 0 });
    const deep = await run("postman-docs/deep-equality-error");
    expect(deep.status).toBe("error");
    expect(deep.error).toEqual({ message: "AssertionError: expected 1 to deeply equal '1'", kind: "runtime", line: 2, column: 17 });
  });

  it("a variable used outside its test's scope fails only that test", async () => {
    const out = await run("postman-docs/json-not-defined", { response: json({ name: "John", age: 29 }) });
    expect(verdict(out)).toEqual({
      status: "failed",
      tests: [
        { name: "Test 1", status: "passed" },
        { name: "Test 2", status: "failed", error: "ReferenceError: jsonData is not defined" },
      ],
      error: undefined,
    });
  });

  it("console output is captured", async () => {
    const scopes = { ...emptyScopes(), collection: { name: "Ada" } };
    expect((await run("postman-docs/log-values", { scopes, response: json({ id: 5, name: "Jane" }) })).logs.map((l) => l.message)).toEqual(["Ada", "Jane"]);
    expect((await run("postman-docs/log-type", { response: json({ id: 5 }) })).logs.map((l) => l.message)).toEqual(["number"]);
    expect((await run("postman-docs/log-trace", { response: json({ id: 5 }) })).logs.map((l) => l.message)).toEqual(["id was found!"]);
    expect((await run("postman-docs/log-trace", { response: json({}) })).logs.map((l) => l.message)).toEqual(["no id ..."]);
  });

  it("a body that is not JSON makes pm.response.json() throw a clear error", async () => {
    const out = await run("postman-docs/parse-json", { response: response({ body: "<html><body>Bad gateway</body></html>", headers: [{ key: "Content-Type", value: "text/html" }] }) });
    expect(out.error?.kind).toBe("runtime");
    expect(out.error?.message).toMatch(/^JSONError: the response body is not valid JSON \(.+\); it starts with "<html><body>Bad gateway<\/body><\/html>"$/);
  });

  it("the older style: postman.* variables and tests[] (with the typo in the docs' first example)", async () => {
    const vars = await run("postman-docs/legacy-variables", { scopes: withEnv({}) });
    expect(vars.status).toBe("passed");
    expect(vars.scopes.environment).toEqual({ array: "[\n  1,\n  2,\n  3,\n  4\n]", obj: '{"a":[1,2,3,4],"b":{"c":"val"}}' });
    expect(vars.scopes.globals).toEqual({});

    const legacy = await run("postman-docs/legacy-tests", { response: json({ value: 100, note: "string_you_want_to_search" }, { status: 201, statusText: "Created" }) });
    expect(verdict(legacy)).toEqual({
      status: "failed",
      tests: [
        { name: "Body matches string", status: "passed" },
        { name: "Body is correct", status: "failed", error: "expected false to be truthy" },
        { name: "Your test name", status: "passed" },
        { name: "Content-Type is present", status: "passed" },
        { name: "Response time is less than 200ms", status: "passed" },
        { name: "Status code is 200", status: "failed", error: "expected false to be truthy" },
        { name: "Status code name has string", status: "passed" },
        { name: "Successful POST request", status: "passed" },
      ],
      error: undefined,
    });

    // `responsebody` (lower case) is not defined in Postman either.
    const typo = await run("postman-docs/legacy-lowercase-responsebody");
    expect(typo.error?.message).toBe("ReferenceError: responsebody is not defined");
  });

  it("an async test with a done callback", async () => {
    const out = await run("postman-docs/async-done");
    expect(verdict(out)).toEqual({ status: "passed", tests: [{ name: "async test", status: "passed" }], error: undefined });
    expect(out.durationMs).toBeGreaterThanOrEqual(1400);
  });

  it("libraries this sandbox does not have fail with a clear error (xml2Json, csv-parse, cheerio, cookie jar)", async () => {
    expect((await run("postman-docs/parse-xml")).error?.message).toBe("ReferenceError: xml2Json is not defined (xml2Json is not available in this sandbox)");
    expect((await run("postman-docs/parse-csv")).error?.message).toBe("Error: module 'csv-parse/lib/sync' is not available in the sandbox (available: chai, atob, btoa, uuid)");
    expect((await run("postman-docs/parse-html")).error?.message).toBe("ReferenceError: cheerio is not defined (cheerio is not available in this sandbox)");
    expect((await run("postman-docs/cookie-jar")).error?.message).toBe("Error: pm.cookies.jar() is not available in this sandbox");
  });
});

describe("Postman docs: the JavaScript reference", () => {
  it("variable precedence across three request runs (the 'score' example)", async () => {
    let scopes = withEnv({ score: 2 }, { score: 1 });
    const logs: string[][] = [];
    for (const part of [1, 2, 3]) {
      const out = await run(`postman-docs/variables-precedence-${part}`, { scopes });
      logs.push(out.logs.map((l) => l.message));
      // A runner starts each request with an empty local scope.
      scopes = { ...out.scopes, local: {} };
    }
    expect(logs).toEqual([["2", "1", "2"], ["3"], ["2"]]);
  });

  it("replaceIn, with scope variables and with a dynamic variable", async () => {
    const vars = { firstName: "Ada", age: 36 };
    expect((await run("postman-docs/environment-replace-in", { scopes: withEnv(vars) })).logs[0].message).toBe("Hi, my name is Ada and I am 36.");
    expect((await run("postman-docs/collection-replace-in", { scopes: withEnv({}, vars) })).logs[0].message).toBe("Hi, my name is Ada and I am 36.");
    expect((await run("postman-docs/globals-replace-in", { scopes: { ...emptyScopes(), globals: vars } })).logs[0].message).toBe("Hi, my name is Ada and I am 36.");
    expect((await run("postman-docs/replace-in-dynamic")).logs[0].message).toMatch(/^Hi, my name is [A-Z][a-z]+$/);
  });

  it("a pre-request script adds a header to the request", async () => {
    const out = await run("postman-docs/request-headers-add", { scriptType: "preRequest", response: undefined });
    expect(out.status).toBe("passed");
    expect(out.request?.headers).toEqual([
      { key: "Accept", value: "application/json" },
      { key: "client-id", value: "abcdef" },
    ]);
  });

  it("pm.sendRequest: the docs' three examples against a real HTTP server", async () => {
    sent.length = 0;
    const out = await run("postman-docs/send-request-examples");
    expect(out.error).toBeUndefined();
    expect(out.tests).toEqual([{ name: "response should be okay to process", status: "passed" }]);
    expect(sent).toEqual([
      "https://postman-echo.com/get",
      { method: "POST", url: "https://postman-echo.com/post", headers: [{ key: "Content-Type", value: "application/json" }, { key: "X-Foo", value: "bar" }], body: { mode: "raw", raw: '{"key":"this is json"}' } },
      "https://postman-echo.com/get",
    ]);
    const messages = out.logs.map((l) => l.message);
    expect(messages).toHaveLength(2);
    expect(messages.some((m) => m.startsWith("Response {") && m.includes("code: 200"))).toBe(true);
    expect(messages.some((m) => m.includes("json: { key: 'this is json' }"))).toBe(true);

    const get = await run("postman-docs/send-request-get");
    expect(get.logs[0].message).toContain("url: 'https://postman-echo.com/get'");
  });

  it("pm.sendRequest without a host client hands its callback an error", async () => {
    const out = await sandbox.run(scriptInput(fixture("postman-docs/send-request-examples")));
    expect(out.tests).toEqual([{ name: "response should be okay to process", status: "failed", error: "expected Error: pm.sendRequest is not available he… to equal null" }]);
  });

  it("postman.setNextRequest and pm.visualizer.set", async () => {
    expect((await run("postman-docs/set-next-request", { scopes: withEnv({ next: "req-7" }) })).nextRequest).toBe("req-7");
    const vis = await run("postman-docs/visualizer", { response: json({ info: "hello" }) });
    expect(vis.visualizer).toEqual({ template: "<p>{{res.info}}</p>", data: { res: { info: "hello" } } });
  });
});

describe("postman-sandbox's own tests of pm.execution", () => {
  const pre = { scriptType: "preRequest" as const, response: undefined };

  it("skipRequest stops the script and skips the request", async () => {
    const out = await run("postman-sandbox/skip-request", pre);
    expect(out).toMatchObject({ status: "skipped", success: true, skipRequest: true });
    expect(out.logs.map((l) => l.message)).toEqual(["pre-request log 1"]);
  });

  it("skipRequest does not wait for a pending pm.sendRequest", async () => {
    const out = await run("postman-sandbox/skip-request-after-send", pre);
    expect(out).toMatchObject({ status: "skipped", skipRequest: true });
    // Postman dispatches the first request without waiting for it; this sandbox does not send it at all.
    expect(out.logs.map((l) => l.message)).toEqual(["pre-request log 1"]);
  });

  it("skipRequest from a timer callback", async () => {
    const out = await run("postman-sandbox/skip-request-async", pre);
    expect(out).toMatchObject({ status: "skipped", skipRequest: true });
    expect(out.logs.map((l) => l.message)).toEqual(["pre-request log 1", "pre-request log 2"]);
  });

  it("skipRequest is not a function in a test script", async () => {
    const out = await run("postman-sandbox/skip-request-in-test");
    expect(out.error?.message).toBe("TypeError: pm.execution.skipRequest is not a function");
  });

  it("pm.execution.setNextRequest", async () => {
    expect((await run("postman-sandbox/execution-set-next-request")).nextRequest).toBe("R2");
  });
});
