// The pm API in detail, one table per area: each row is a script whose
// pm.test calls must all pass (the assertions live in the script, where the
// API is), plus the few things only visible from the host (logs, requests).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { response, scriptInput } from "@/server/testing/script-sandbox";
import { ScriptSandbox, type ScriptRequest } from "./index";

let sandbox: ScriptSandbox;
beforeAll(async () => {
  sandbox = await ScriptSandbox.create();
});
afterAll(() => sandbox.dispose());

const richResponse = response({
  status: 201,
  statusText: "Created",
  headers: [
    { key: "Content-Type", value: "application/json; charset=utf-8" },
    { key: "Set-Cookie", value: "sid=1" },
    { key: "Set-Cookie", value: "theme=dark" },
    { key: "X-Request-Id", value: "abc" },
  ],
  body: JSON.stringify({ id: 7, user: { name: "Ada", tags: ["x", "y"] }, items: [{ sku: "a1", qty: 2 }] }),
  cookies: [{ name: "sid", value: "1", path: "/" }],
});

async function expectAllPass(script: string, extra: Parameters<typeof scriptInput>[1] = {}) {
  const out = await sandbox.run(scriptInput(script, { response: richResponse, ...extra }));
  expect(out.error).toBeUndefined();
  expect(out.tests.filter((t) => t.status !== "passed")).toEqual([]);
  expect(out.totalTests).toBeGreaterThan(0);
  return out;
}

describe("pm.response", () => {
  it.each([
    ["code, status, time, size", `pm.test("t", () => { pm.expect(pm.response.code).to.equal(201); pm.expect(pm.response.status).to.equal("Created"); pm.expect(pm.response.responseTime).to.equal(46); pm.expect(pm.response.responseSize).to.be.above(50); pm.expect(pm.response.reason()).to.equal("Created"); })`],
    ["headers", `pm.test("t", () => { pm.expect(pm.response.headers.get("content-type")).to.match(/json/); pm.expect(pm.response.headers.has("X-REQUEST-ID")).to.be.true; pm.expect(pm.response.headers.has("X-Request-Id", "abc")).to.be.true; pm.expect(pm.response.headers.toObject()["x-request-id"]).to.equal("abc"); pm.expect(pm.response.headers.all().filter((h) => h.key === "Set-Cookie")).to.have.lengthOf(2); let n = 0; pm.response.headers.each(() => n++); pm.expect(n).to.equal(4); })`],
    ["body", `pm.test("t", () => { pm.expect(pm.response.json().user.tags).to.eql(["x", "y"]); pm.expect(pm.response.text()).to.include('"sku":"a1"'); pm.expect(pm.response.contentInfo().mimeType).to.equal("application/json"); pm.expect(pm.response.json((k, v) => (k === "id" ? v * 2 : v)).id).to.equal(14); })`],
    ["status assertions", `pm.test("t", () => { pm.response.to.have.status(201); pm.response.to.have.status("Created"); pm.response.to.be.success; pm.response.to.not.be.ok; pm.response.to.not.be.error; pm.response.to.have.statusCodeClass(2); pm.response.to.not.be.clientError; pm.expect(pm.response).to.have.statusCode(201); pm.response.to.be.json; pm.response.to.be.withBody; })`],
    ["header and body assertions", `pm.test("t", () => { pm.response.to.have.header("x-request-id"); pm.response.to.have.header("X-Request-Id", "abc"); pm.response.to.not.have.header("X-Missing"); pm.response.to.have.body(/"id":7/); pm.response.to.not.have.body("nope"); })`],
    ["jsonBody paths", `pm.test("t", () => { pm.response.to.have.jsonBody("user.name", "Ada"); pm.response.to.have.jsonBody("items[0].sku"); pm.response.to.have.jsonBody("user.tags[1]", "y"); pm.response.to.not.have.jsonBody("user.email"); pm.response.to.have.jsonBody("items", [{ sku: "a1", qty: 2 }]); })`],
    ["responseTime chains", `pm.test("t", () => { pm.response.to.have.responseTime.below(100); pm.expect(pm.response).to.have.responseTime.above(10); pm.response.to.have.responseSize.above(10); })`],
    ["chai's own ok still works on other values", `pm.test("t", () => { pm.expect(1).to.be.ok; pm.expect(0).to.not.be.ok; pm.expect("x").to.be.a("string"); })`],
    ["cookies", `pm.test("t", () => { pm.expect(pm.cookies.get("sid")).to.equal("1"); pm.expect(pm.cookies.has("nope")).to.be.false; pm.expect(pm.cookies.toObject()).to.eql({ sid: "1" }); pm.expect(pm.response.cookies.get("sid")).to.equal("1"); pm.expect(postman.getResponseCookie("sid").value).to.equal("1"); })`],
    ["legacy globals", `pm.test("t", () => { pm.expect(JSON.parse(responseBody).id).to.equal(7); pm.expect(responseCode).to.eql({ code: 201, name: "Created", detail: "Created" }); pm.expect(responseTime).to.equal(46); pm.expect(responseHeaders["X-Request-Id"]).to.equal("abc"); pm.expect(responseCookies[0].name).to.equal("sid"); pm.expect(request.method).to.equal("GET"); pm.expect(request.headers.Accept).to.equal("application/json"); pm.expect(postman.getResponseHeader("content-type")).to.match(/json/); })`],
  ])("%s", async (_name, script) => {
    await expectAllPass(script);
  });

  it("failure messages name what was expected and what came", async () => {
    const out = await sandbox.run(
      scriptInput(
        `pm.test("status", () => pm.response.to.have.status(200));
         pm.test("reason", () => pm.response.to.have.status("OK"));
         pm.test("header value", () => pm.response.to.have.header("X-Request-Id", "zzz"));
         pm.test("class", () => pm.response.to.be.serverError);
         pm.test("not json", () => pm.expect(pm.response).to.have.jsonBody("user.name", "Bob"));
         pm.test("not a response", () => pm.expect({ code: 200 }).to.be.success);`,
        { response: richResponse },
      ),
    );
    expect(out.tests.map((t) => t.error)).toEqual([
      "expected response to have status code 200 but got 201",
      "expected response to have status reason 'OK' but got 'Created'",
      "expected 'X-Request-Id' response header to be 'zzz' but got 'abc'",
      "expected response code to be 5XX but found 201",
      `expected response body json at "user.name" to contain 'Bob' but got 'Ada'`,
      "expecting a postman response object but got { code: 200 }",
    ]);
  });

  it("a base64 body reads as UTF-8 text", async () => {
    await expectAllPass(`pm.test("t", () => pm.expect(pm.response.text()).to.equal("héllo"))`, { response: response({ body: Buffer.from("héllo").toString("base64"), bodyEncoding: "base64" }) });
  });

  it("jsonSchema: types, required, nested, $ref, enums, formats and additionalProperties", async () => {
    const schema = {
      type: "object",
      required: ["id", "user"],
      properties: { id: { type: "integer", minimum: 1 }, user: { $ref: "#/definitions/user" }, items: { type: "array", minItems: 1, items: { type: "object", properties: { qty: { type: "number", multipleOf: 1 } } } } },
      definitions: { user: { type: "object", properties: { name: { type: "string", enum: ["Ada", "Grace"] }, tags: { type: "array", uniqueItems: true } }, additionalProperties: false } },
    };
    const out = await sandbox.run(
      scriptInput(
        `const schema = ${JSON.stringify(schema)};
         pm.test("valid", () => pm.response.to.have.jsonSchema(schema));
         pm.test("bad", () => pm.expect({ id: 0, user: { name: "Bob", extra: 1 } }).to.have.jsonSchema(schema));
         pm.test("formats", () => pm.expect({ at: "2024-01-02T03:04:05Z", mail: "a@b.co", id: "d8893057-3e91-4cdd-a36f-a0af460b6373" }).to.have.jsonSchema({ properties: { at: { format: "date-time" }, mail: { format: "email" }, id: { format: "uuid" } } }));
         pm.test("combinators", () => pm.expect(5).to.have.jsonSchema({ anyOf: [{ type: "string" }, { type: "integer" }], not: { const: 6 } }));
         pm.test("tv4", () => { pm.expect(tv4.validate([1], { items: { type: "string" } })).to.be.false; pm.expect(tv4.error.message).to.equal("should be string"); });`,
        { response: richResponse },
      ),
    );
    expect(out.tests).toEqual([
      { name: "valid", status: "passed" },
      { name: "bad", status: "failed", error: "expected data to satisfy schema but found following errors: \ndata.id should be >= 1\ndata.user.name should be equal to one of the allowed values\ndata.user should NOT have additional property 'extra'" },
      { name: "formats", status: "passed" },
      { name: "combinators", status: "passed" },
      { name: "tv4", status: "passed" },
    ]);
  });
});

describe("the script's environment", () => {
  it.each([
    ["atob and btoa", `pm.test("t", () => { pm.expect(btoa("user:pass")).to.equal("dXNlcjpwYXNz"); pm.expect(atob("dXNlcjpwYXNz")).to.equal("user:pass"); pm.expect(atob(btoa("\\u00ff\\u0000x"))).to.equal("\\u00ff\\u0000x"); pm.expect(() => btoa("\\u2603")).to.throw(/Latin1/); })`],
    ["require's allow-list", `pm.test("t", () => { pm.expect(require("chai").expect).to.equal(pm.expect); pm.expect(require("uuid").v4()).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/); pm.expect(require("btoa")("a")).to.equal("YQ=="); pm.expect(() => require("lodash")).to.throw("module 'lodash' is not available in the sandbox"); })`],
    ["setInterval and clearInterval", `let n = 0; const id = setInterval(() => { n++; if (n === 3) { clearInterval(id); pm.test("t", () => pm.expect(n).to.equal(3)); } }, 1);`],
    ["clearTimeout", `const id = setTimeout(() => pm.test("never", () => pm.expect.fail()), 5); clearTimeout(id); pm.test("t", () => {});`],
    ["pm.test returns pm and counts", `pm.test("a", () => {}).test("b", () => {}); pm.test("t", () => pm.expect(pm.test.index()).to.equal(3));`],
    ["dynamic variables", `pm.test("t", () => { pm.expect(pm.variables.replaceIn("{{$guid}}")).to.match(/^[0-9a-f-]{36}$/); pm.expect(Number(pm.variables.replaceIn("{{$timestamp}}"))).to.be.closeTo(Date.now() / 1000, 5); pm.expect(pm.variables.replaceIn("{{$nope}}")).to.equal("{{$nope}}"); })`],
    ["URL parts", `pm.test("t", () => { const u = pm.request.url; pm.expect(u.protocol).to.equal("https"); pm.expect(u.getHost()).to.equal("api.example.com"); pm.expect(u.getPathWithQuery()).to.equal("/users/1"); pm.expect(pm.request.to).to.be.an("object"); pm.request.to.have.header("Accept", "application/json"); })`],
  ])("%s", async (_name, script) => {
    await expectAllPass(script);
  });

  it("console methods keep their level and print values readably", async () => {
    const out = await sandbox.run(
      scriptInput(`
        console.log("text", 1, true, null, undefined);
        console.info({ a: 1, nested: { deep: { deeper: { deepest: 1 } } }, list: [1, "two"] });
        console.warn("%s is %d years", "Ada", 36);
        console.error(new Error("boom").message, [1, 2, 3].map((x) => x * 2));
        console.debug(new Map([["k", 1]]), new Set([1]), () => 1, Symbol("s"), 10n);
        const circular = { name: "loop" }; circular.self = circular; console.log(circular);`),
    );
    expect(out.logs.map((l) => [l.level, l.message])).toEqual([
      ["log", "text 1 true null undefined"],
      ["info", "{\n  a: 1,\n  nested: { deep: { deeper: { deepest: 1 } } },\n  list: [ 1, 'two' ]\n}"],
      ["warn", "Ada is 36 years"],
      ["error", "boom [ 2, 4, 6 ]"],
      ["debug", "Map(1) { 'k' => 1 } Set(1) { 1 } [Function: (anonymous)] Symbol(s) 10n"],
      ["log", "{ name: 'loop', self: [Circular] }"],
    ]);
    expect(out.logs.every((l) => l.at >= 0)).toBe(true);
  });

  it("pm.sendRequest returns a promise without a callback, and reports the host's failure", async () => {
    const seen: (string | ScriptRequest)[] = [];
    const out = await sandbox.run(
      scriptInput(
        `const res = await pm.sendRequest({ url: "https://api.example.com/a", method: "PUT", header: [{ key: "X-Skip", value: "1", disabled: true }, { key: "X-Keep", value: "2" }], body: { mode: "urlencoded", urlencoded: [{ key: "k", value: "v" }] }, auth: { type: "bearer", bearer: [{ key: "token", value: "t" }] } });
         pm.test("response", () => { pm.expect(res.code).to.equal(200); pm.expect(res.json()).to.eql({ ok: 1 }); res.to.have.status(200); });
         try { await pm.sendRequest("https://api.example.com/down"); } catch (e) { pm.test("failure: " + e.message, () => {}); }`,
        {
          sendRequest: async (req) => {
            seen.push(req);
            if (typeof req === "string") throw new Error("connect ECONNREFUSED");
            return response({ json: { ok: 1 } });
          },
        },
      ),
    );
    expect(out.tests.map((t) => [t.name, t.status])).toEqual([
      ["response", "passed"],
      ["failure: connect ECONNREFUSED", "passed"],
    ]);
    expect(seen[0]).toEqual({ method: "PUT", url: "https://api.example.com/a", headers: [{ key: "X-Keep", value: "2" }], body: { mode: "urlencoded", urlencoded: [{ key: "k", value: "v", enabled: true }] }, auth: { type: "bearer", bearer: { token: "t" } } });
  });

  it("pm.sendRequest refuses a request it cannot make sense of, through the callback", async () => {
    const out = await sandbox.run(scriptInput(`pm.sendRequest({ method: "GET" }, (err) => pm.test(String(err && err.message), () => {}))`, { sendRequest: async () => response() }));
    expect(out.tests[0].name).toBe("pm.sendRequest: the request has no url");
  });

  it("the visualizer keeps its template and a JSON copy of its data; clear() removes it", async () => {
    const set = await sandbox.run(scriptInput(`pm.visualizer.set("<b>{{n}}</b>", { n: 1, fn() {} })`));
    expect(set.visualizer).toEqual({ template: "<b>{{n}}</b>", data: { n: 1 } });
    const cleared = await sandbox.run(scriptInput(`pm.visualizer.set("x"); pm.visualizer.clear()`));
    expect(cleared.visualizer).toBeUndefined();
  });

  it("setNextRequest(null) stops the run; not calling it leaves nextRequest out", async () => {
    expect((await sandbox.run(scriptInput(`pm.execution.setNextRequest(null)`))).nextRequest).toBeNull();
    expect("nextRequest" in (await sandbox.run(scriptInput(``)))).toBe(false);
  });
});
