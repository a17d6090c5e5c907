// The sandbox's contract with its caller: verdict rules, scopes in and out,
// the pre-request script's request, errors with the user's line and column,
// and one sandbox serving many scripts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { response, scriptInput } from "@/server/testing/script-sandbox";
import { emptyScopes } from "@/server/tester/scopes";
import { ScriptSandbox, runScript } from "./index";

let sandbox: ScriptSandbox;
beforeAll(async () => {
  sandbox = await ScriptSandbox.create();
});
afterAll(() => sandbox.dispose());

const run = (script: string, extra: Parameters<typeof scriptInput>[1] = {}) => sandbox.run(scriptInput(script, extra));
const pre = (script: string, extra: Parameters<typeof scriptInput>[1] = {}) => run(script, { scriptType: "preRequest", ...extra });

describe("verdict", () => {
  it("a script with no tests and no error passes", async () => {
    const out = await run(`const x = 1 + 1;`);
    expect(out).toMatchObject({ status: "passed", success: true, totalTests: 0, passedTests: 0, failedTests: 0, skippedTests: 0, tests: [], logs: [] });
    expect(out.durationMs).toBeGreaterThan(0);
    expect(out.skipRequest).toBeUndefined();
    expect(out.error).toBeUndefined();
  });

  it("counts passed, failed and skipped tests in declaration order", async () => {
    const out = await run(`
      pm.test("a", () => {});
      pm.test.skip("b", () => { throw new Error("never runs") });
      pm.test("c", () => pm.expect(1).to.equal(2));
      pm.test("d", () => { null.x });
      pm.test("e");`);
    expect(out).toMatchObject({ status: "failed", success: false, totalTests: 5, passedTests: 1, failedTests: 2, skippedTests: 2 });
    expect(out.tests).toEqual([
      { name: "a", status: "passed" },
      { name: "b", status: "skipped" },
      { name: "c", status: "failed", error: "expected 1 to equal 2" },
      { name: "d", status: "failed", error: "TypeError: Cannot read properties of null (reading 'x')" },
      { name: "e", status: "skipped" },
    ]);
  });

  it("async tests: a promise, a rejection, done() and done(err), reported in declaration order", async () => {
    const out = await run(`
      pm.test("slow", async () => { await new Promise((r) => setTimeout(r, 30)); pm.expect(1).to.equal(1); });
      pm.test("rejects", () => Promise.reject(new Error("nope")));
      pm.test("done", (done) => setTimeout(done, 5));
      pm.test("done with error", (done) => setTimeout(() => done(new Error("late failure")), 5));
      pm.test("sync", () => {});`);
    expect(out.tests).toEqual([
      { name: "slow", status: "passed" },
      { name: "rejects", status: "failed", error: "Error: nope" },
      { name: "done", status: "passed" },
      { name: "done with error", status: "failed", error: "Error: late failure" },
      { name: "sync", status: "passed" },
    ]);
  });

  it("an uncaught error keeps the tests that ran before it, with the error's line and column", async () => {
    const out = await run(`pm.test("first", () => {});\n\n  undefinedFunction();\npm.test("never", () => {});`);
    expect(out.status).toBe("error");
    expect(out.success).toBe(false);
    expect(out.tests).toEqual([{ name: "first", status: "passed" }]);
    expect(out.error).toEqual({ message: "ReferenceError: undefinedFunction is not defined", kind: "runtime", line: 3, column: 3 });
  });

  it("a syntax error points into the user's script", async () => {
    const out = await run(`pm.test("x", () => {\n  pm.expect(1).to.equal(1)\n  const = 5;\n});`);
    expect(out.status).toBe("error");
    expect(out.error).toEqual({ message: "SyntaxError: Unexpected token '='", kind: "syntax", line: 3, column: 9 });
  });

  it("an error thrown in a timer or a sendRequest callback is the script's error", async () => {
    const timer = await run(`setTimeout(() => { throw new TypeError("in a timer") }, 1)`);
    expect(timer.error).toMatchObject({ kind: "runtime", message: "TypeError: in a timer", line: 1 });
    const send = await run(`pm.sendRequest("http://x.test", () => { throw new Error("in a callback") })`, { sendRequest: async () => response() });
    expect(send.error?.message).toBe("Error: in a callback");
  });

  it("skipRequest: status skipped unless a test failed", async () => {
    expect(await pre(`pm.execution.skipRequest()`)).toMatchObject({ status: "skipped", success: true, skipRequest: true });
    expect(await pre(`pm.test("t", () => pm.expect(1).to.equal(2)); pm.execution.skipRequest()`)).toMatchObject({ status: "failed", skipRequest: true });
    expect(await pre(`const a = 1`)).toMatchObject({ status: "passed", skipRequest: false });
  });

  it("top-level await and return work", async () => {
    const out = await run(`const v = await Promise.resolve(5); if (v === 5) return; pm.test("not reached", () => {})`);
    expect(out).toMatchObject({ status: "passed", totalTests: 0 });
  });
});

describe("scopes", () => {
  it("reads with precedence, writes where asked, and never mutates the caller's scopes", async () => {
    const scopes = { globals: { g: "G", shared: "globals" }, collection: { c: "C", shared: "collection" }, environment: { e: "E", shared: "environment" }, data: { shared: "data" }, local: {} };
    const before = structuredClone(scopes);
    const out = await run(
      `pm.test("precedence", () => pm.expect(pm.variables.get("shared")).to.equal("data"));
       pm.variables.set("shared", "local");
       pm.test("local wins", () => pm.expect(pm.variables.get("shared")).to.equal("local"));
       pm.environment.set("token", { value: 1 });
       pm.collectionVariables.unset("c");
       pm.globals.clear();
       pm.test("toObject", () => pm.expect(pm.variables.toObject()).to.include({ e: "E", shared: "local" }));
       pm.test("replaceIn", () => pm.expect(pm.variables.replaceIn("{{e}}-{{shared}}-{{missing}}")).to.equal("E-local-{{missing}}"));`,
      { scopes },
    );
    expect(out.status).toBe("passed");
    expect(scopes).toEqual(before);
    expect(out.scopes).toEqual({ globals: {}, collection: { shared: "collection" }, environment: { e: "E", shared: "environment", token: { value: 1 } }, data: { shared: "data" }, local: { shared: "local" } });
  });

  it("iterationData is the data scope and pm.iterationData", async () => {
    const out = await run(
      `pm.test("data", () => {
         pm.expect(pm.iterationData.get("user")).to.equal("ada");
         pm.expect(pm.iterationData.toObject()).to.eql({ user: "ada", n: 2 });
         pm.expect(pm.variables.get("n")).to.equal(2);
         pm.expect(data.user).to.equal("ada");
         pm.expect(iteration).to.equal(3);
         pm.expect(pm.info).to.eql({ eventName: "test", iteration: 3, iterationCount: 5, requestName: "Get user", requestId: "req-1" });
       });
       pm.test("read-only", () => pm.expect(() => pm.iterationData.set("x", 1)).to.throw(/read-only/));`,
      { iterationData: { user: "ada", n: 2 }, info: { eventName: "test", iteration: 3, iterationCount: 5, requestName: "Get user", requestId: "req-1" } },
    );
    expect(out.status).toBe("passed");
    expect(out.scopes.data).toEqual({ user: "ada", n: 2 });
  });

  it("variable changes made before an error or a limit are kept", async () => {
    const out = await run(`pm.environment.set("step", 1); while (true) {}`, { limits: { cpuMs: 100 } });
    expect(out.error?.kind).toBe("timeout");
    expect(out.scopes.environment).toEqual({ step: 1 });
  });
});

describe("the pre-request script's request", () => {
  const request = { method: "POST", url: "{{baseUrl}}/users?page=1&debug", headers: [{ key: "Accept", value: "*/*" }, { key: "X-Remove", value: "1" }], body: { mode: "raw" as const, raw: '{"a":1}', language: "json" as const }, name: "Create user", id: "r-9" };

  it("comes back unchanged, URL text included, when the script does not touch it", async () => {
    const out = await pre(`pm.test("url parts", () => {
      pm.expect(pm.request.url.getHost()).to.equal("{{baseUrl}}");
      pm.expect(pm.request.url.getPath()).to.equal("/users");
      pm.expect(pm.request.url.query.get("page")).to.equal("1");
      pm.expect(pm.request.url.toString()).to.equal("{{baseUrl}}/users?page=1&debug");
      pm.expect(pm.request.body.raw).to.equal('{"a":1}');
    })`, { request });
    expect(out.status).toBe("passed");
    expect(out.request).toEqual(request);
  });

  it("takes the script's changes to URL, query, method, headers and body", async () => {
    const out = await pre(
      `pm.request.url.query.upsert({ key: "page", value: "2" });
       pm.request.url.query.remove("debug");
       pm.request.addQueryParams("sort=name");
       pm.request.method = "put";
       pm.request.headers.upsert({ key: "accept", value: "application/json" });
       pm.request.headers.remove("X-Remove");
       pm.request.headers.add({ key: "Authorization", value: "Bearer " + pm.variables.replaceIn("{{token}}") });
       pm.request.body.update(JSON.stringify({ a: 2 }));`,
      { request, scopes: { ...emptyScopes(), environment: { token: "t0k" } } },
    );
    expect(out.request).toEqual({
      method: "PUT",
      url: "{{baseUrl}}/users?page=2&sort=name",
      headers: [
        { key: "Accept", value: "application/json" },
        { key: "Authorization", value: "Bearer t0k" },
      ],
      body: { mode: "raw", raw: '{"a":2}' },
      name: "Create user",
      id: "r-9",
    });
  });

  it("accepts a whole new URL string, and urlencoded bodies", async () => {
    const out = await pre(
      `pm.request.url = "https://api.example.com:8443/v2/items#top";
       pm.request.body = { mode: "urlencoded", urlencoded: [{ key: "a", value: "1" }, { key: "b", value: "2", disabled: true }] };
       pm.test("parsed", () => pm.expect(pm.request.url.port).to.equal("8443"));`,
      { request },
    );
    expect(out.status).toBe("passed");
    expect(out.request?.url).toBe("https://api.example.com:8443/v2/items#top");
    expect(out.request?.body).toEqual({ mode: "urlencoded", urlencoded: [{ key: "a", value: "1", enabled: true }, { key: "b", value: "2", enabled: false }] });
  });

  it("an invalid change is ignored with a warning, not sent", async () => {
    const out = await pre(`pm.request.method = "G E T"; pm.request.body = { mode: "carrier-pigeon" }`, { request });
    expect(out.request?.method).toBe("POST");
    expect(out.request?.body).toEqual(request.body);
    expect(out.logs.map((l) => l.level)).toEqual(["warn", "warn"]);
  });
});

describe("one sandbox, many scripts", () => {
  it("a script's own declarations do not leak into the next script", async () => {
    await run(`var leaked = 1; function helper() {}`);
    const out = await run(`pm.test("clean", () => { pm.expect(typeof leaked).to.equal("undefined"); pm.expect(typeof helper).to.equal("undefined"); })`);
    expect(out.status).toBe("passed");
  });

  it("runs concurrent calls one after another, each with its own results", async () => {
    const outs = await Promise.all([1, 2, 3].map((n) => run(`await new Promise((r) => setTimeout(r, 10)); console.log("run ${n}"); pm.test("t${n}", () => {})`)));
    expect(outs.map((o) => [o.logs[0].message, o.tests[0].name])).toEqual([
      ["run 1", "t1"],
      ["run 2", "t2"],
      ["run 3", "t3"],
    ]);
  });

  it("a timer left by one script never fires into the next", async () => {
    await run(`setTimeout(() => console.log("late"), 50); pm.execution.skipRequest()`, { scriptType: "preRequest", response: undefined });
    const out = await run(`await new Promise((r) => setTimeout(r, 100))`);
    expect(out.logs).toEqual([]);
  });

  it("a run asking for another memory limit gets an isolate with that limit", async () => {
    const out = await run(`const keep = []; while (true) keep.push(new Array(100000).fill(1.5));`, { limits: { memoryMb: 16, cpuMs: 20_000 } });
    expect(out.error).toEqual({ message: "Script exceeded its memory limit (16 MB)", kind: "memory" });
    expect((await run(`pm.test("ok", () => {})`, { limits: { memoryMb: 16 } })).status).toBe("passed");
    // The next run without a limit of its own is back on the sandbox's 64 MB.
    const big = await run(`const keep = []; for (let i = 0; i < 30; i++) keep.push(new Array(100000).fill(1.5)); pm.test("24 MB held", () => {})`);
    expect(big.status).toBe("passed");
  });

  it("dispose() during a script ends it with an error saying so", async () => {
    const s = await ScriptSandbox.create();
    const pending = s.run(scriptInput(`await new Promise((r) => setTimeout(r, 10)); while (true) {}`, { limits: { cpuMs: 5000 } }));
    await new Promise((r) => setTimeout(r, 100));
    s.dispose();
    expect((await pending).error).toEqual({ message: "The sandbox was disposed while the script ran", kind: "runtime" });
  });

  it("runScript is a sandbox of its own for one script", async () => {
    const out = await runScript(scriptInput(`pm.test("one-off", () => pm.response.to.be.ok)`));
    expect(out.status).toBe("passed");
  });

  it("a disposed sandbox refuses to run", async () => {
    const s = await ScriptSandbox.create();
    s.dispose();
    await expect(s.run(scriptInput(""))).rejects.toThrow(/disposed/);
  });
});
