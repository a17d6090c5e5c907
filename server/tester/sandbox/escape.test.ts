// Scripts are hostile input: none of these may reach the host process, block
// it, or take the sandbox down for the next script.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExecutedResponse } from "@/server/contracts/tester-execution";
import { response, scriptInput } from "@/server/testing/script-sandbox";
import { ScriptSandbox, type ScriptRequest } from "./index";

let sandbox: ScriptSandbox;
beforeAll(async () => {
  sandbox = await ScriptSandbox.create();
});
afterAll(() => sandbox.dispose());

const run = (script: string, extra: Parameters<typeof scriptInput>[1] = {}) => sandbox.run(scriptInput(script, extra));

async function expectHealthy() {
  const out = await run(`pm.test("still works", () => pm.response.to.have.status(200))`);
  expect(out.status).toBe("passed");
}

describe("reaching the host", () => {
  it("this.constructor.constructor('return process')() finds no process", async () => {
    const out = await run(`const p = this.constructor.constructor("return process")(); console.log(typeof p)`);
    expect(out.error).toMatchObject({ kind: "runtime", line: 1, message: "ReferenceError: process is not defined (process is not available in this sandbox)" });
    expect(out.logs).toEqual([]);
  });

  it("has none of Node's globals", async () => {
    const out = await run(`
      for (const name of ["process", "global", "module", "exports", "__dirname", "Buffer", "setImmediate$", "fetch", "ivm", "_ivm", "$0"]) {
        pm.test(name, () => pm.expect(typeof globalThis[name]).to.equal("undefined"));
      }
      pm.test("Function('return this')() is the isolate's own global", () => pm.expect(Function("return this")()).to.equal(globalThis));`);
    expect(out.failedTests).toBe(0);
    expect(out.passedTests).toBe(12);
  });

  it("require('fs') and require('child_process') fail, with a clear message", async () => {
    for (const name of ["fs", "child_process", "node:fs", "net"]) {
      const out = await run(`require(${JSON.stringify(name)})`);
      expect(out.error?.message).toBe(`Error: module '${name}' is not available in the sandbox (available: chai, atob, btoa, uuid)`);
    }
  });

  it("a dynamic import('fs') is refused", async () => {
    const caught = await run(`try { await import("fs"); pm.test("imported", () => {}) } catch (e) { pm.test("refused: " + e.message, () => {}) }`);
    expect(caught.tests.map((t) => t.name)).toEqual(["refused: Not supported"]);
    const uncaught = await run(`await import("child_process")`);
    expect(uncaught.status).toBe("error");
  });

  it("every object and function reachable from the script's globals belongs to the isolate", async () => {
    const server = http.createServer((_req, res) => res.end('{"ok":true}'));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const out = await run(
        `
        const seen = new Set();
        const foreign = [];
        const queue = [globalThis];
        const realmRoot = Object.prototype;
        const res = await pm.sendRequest(${JSON.stringify(url)});
        queue.push(res, pm, postman, pm.response, pm.request, pm.request.url, console, tests);
        while (queue.length && seen.size < 50000) {
          const o = queue.pop();
          if (o === null || (typeof o !== "object" && typeof o !== "function") || seen.has(o)) continue;
          seen.add(o);
          let proto = o;
          while (Object.getPrototypeOf(proto) !== null) proto = Object.getPrototypeOf(proto);
          if (proto !== realmRoot && Object.getPrototypeOf(o) !== null) foreign.push(String(o));
          for (const k of ["derefInto", "applySync", "applySyncPromise", "copyInto", "copySync"]) if (typeof o[k] === "function" && o !== realmRoot) foreign.push("ivm-like: " + k);
          if (typeof o === "function") {
            const F = o.constructor;
            if (F === Function && F("return typeof process")() !== "undefined") foreign.push("process via " + String(o).slice(0, 40));
          }
          queue.push(Object.getPrototypeOf(o));
          for (const key of Reflect.ownKeys(o)) {
            const d = Object.getOwnPropertyDescriptor(o, key);
            if (!d) continue;
            for (const v of [d.value, d.get, d.set]) queue.push(v);
            if (d.get && o === globalThis) queue.push(globalThis[key]);
          }
        }
        pm.test("visited " + (seen.size > 500), () => {});
        pm.test("foreign: " + JSON.stringify(foreign.slice(0, 5)), () => pm.expect(foreign).to.have.lengthOf(0));`,
        { sendRequest: plainSend },
      );
      expect(out.tests).toEqual([
        { name: "visited true", status: "passed" },
        { name: "foreign: []", status: "passed" },
      ]);
    } finally {
      server.close();
    }
  });

  it("prototype pollution inside stays inside", async () => {
    const out = await run(`
      Object.prototype.polluted = 1;
      Array.prototype.pollutedArray = 1;
      Function.prototype.pollutedFunction = 1;
      ({}).__proto__.viaProto = 1;
      pm.environment.set("__proto__", { polluted: true });
      pm.environment.set("constructor", "x");
      pm.globals.set("toString", "y");
      pm.test("inside sees it", () => pm.expect(({}).polluted).to.equal(1));`);
    expect(out.status).toBe("passed");
    const plain: Record<string, unknown> = {};
    expect(plain.polluted).toBeUndefined();
    expect(plain.viaProto).toBeUndefined();
    expect(([] as unknown as Record<string, unknown>).pollutedArray).toBeUndefined();
    expect((expectHealthy as unknown as Record<string, unknown>).pollutedFunction).toBeUndefined();
    expect(Object.getPrototypeOf(out.scopes.environment)).toBe(Object.prototype);
    expect(Object.keys(out.scopes.environment)).toEqual(["constructor"]);
    expect({ ...out.scopes.environment, ...out.scopes.globals }.polluted).toBeUndefined();
    expect(out.scopes.globals.toString).toBe("y");
  });

  it("the host's sendRequest gets a plain copy, and the script cannot change the host's response object", async () => {
    const given: unknown[] = [];
    const hostResponse = response({ json: { n: 1 } });
    const out = await run(
      `pm.sendRequest({ url: "http://example.test/x", method: "post", header: { "X-A": "1" }, body: { mode: "raw", raw: "hi" } }, (err, res) => {
         res.code = 999; res.headers.add({ key: "X-Injected", value: "1" });
         pm.test("got it", () => pm.expect(res.json()).to.eql({ n: 1 }));
       })`,
      {
        sendRequest: async (req) => {
          given.push(req);
          return hostResponse;
        },
      },
    );
    expect(out.status).toBe("passed");
    expect(given).toEqual([{ method: "POST", url: "http://example.test/x", headers: [{ key: "X-A", value: "1" }], body: { mode: "raw", raw: "hi" } }]);
    expect(Object.getPrototypeOf(given[0])).toBe(Object.prototype);
    expect(hostResponse.status).toBe(200);
    expect(hostResponse.headers.map((h) => h.key)).not.toContain("X-Injected");
  });

  it("Error.prepareStackTrace sees only the script's and the runtime's frames", async () => {
    const out = await run(`
      Error.prepareStackTrace = (e, frames) => frames.map((f) => String(f.getFileName()));
      const files = new Error("x").stack;
      Error.prepareStackTrace = undefined;
      console.log(JSON.stringify([...new Set(files)]));`);
    const files = JSON.parse(out.logs[0].message) as string[];
    expect(files.every((f) => ["script.js", "pm-sandbox-runtime.js", "undefined"].includes(f))).toBe(true);
  });

  it("a script that closes the function it is wrapped in is refused before any of it runs", async () => {
    const out = await run(`}); globalThis.brokeOut = true; (async function () {`);
    expect(out.error?.kind).toBe("syntax");
    const after = await run(`pm.test("did not run", () => pm.expect(globalThis.brokeOut).to.equal(undefined))`);
    expect(after.status).toBe("passed");
  });
});

describe("limits", () => {
  it("while(true){} stops at about cpuMs with kind timeout, and the next script in the sandbox runs", async () => {
    const out = await run(`console.log("before"); while (true) {}`, { limits: { cpuMs: 300 } });
    expect(out.error).toEqual({ message: "Script exceeded its CPU time limit (300 ms)", kind: "timeout" });
    expect(out.logs.map((l) => l.message)).toEqual(["before"]);
    expect(out.durationMs).toBeGreaterThan(250);
    expect(out.durationMs).toBeLessThan(2000);
    await expectHealthy();
  });

  it("a CPU loop inside a timer callback is stopped too", async () => {
    const out = await run(`setTimeout(() => { while (true) {} }, 5)`, { limits: { cpuMs: 200 } });
    expect(out.error?.kind).toBe("timeout");
    await expectHealthy();
  });

  it("setTimeout recursion is stopped at wallMs", async () => {
    const out = await run(`let n = 0; (function again() { n++; setTimeout(again, 1); })();`, { limits: { wallMs: 400 } });
    expect(out.error?.kind).toBe("timeout");
    expect(out.error?.message).toMatch(/wall time limit \(400 ms\); still waiting for 1 timer/);
    expect(out.durationMs).toBeLessThan(2000);
    await expectHealthy();
  });

  it("a never-resolving promise is stopped at wallMs", async () => {
    const out = await run(`await new Promise(() => {})`, { limits: { wallMs: 300 } });
    expect(out.error).toMatchObject({ kind: "timeout" });
    expect(out.durationMs).toBeGreaterThanOrEqual(290);
    expect(out.durationMs).toBeLessThan(2000);
  });

  it("a test waiting for a done() that never comes fails when the wall time runs out", async () => {
    const out = await run(`pm.test("waits", (done) => {}); pm.test("sync", () => {})`, { limits: { wallMs: 300 } });
    expect(out.tests).toEqual([
      { name: "waits", status: "failed", error: "the script stopped before this test finished" },
      { name: "sync", status: "passed" },
    ]);
    expect(out.error?.message).toMatch(/1 async test/);
  });

  it("a 1 GB allocation is an error of kind memory", async () => {
    const out = await run(`const big = new ArrayBuffer(1024 * 1024 * 1024);`);
    expect(out.error).toMatchObject({ kind: "memory" });
    await expectHealthy();
  });

  it("filling the heap is kind memory; the sandbox gets a new isolate and the host carries on", async () => {
    const out = await run(`const keep = []; while (true) keep.push(new Array(100000).fill(1.5));`, { limits: { cpuMs: 20_000 } });
    expect(out.error).toEqual({ message: "Script exceeded its memory limit (64 MB)", kind: "memory" });
    await expectHealthy();
    await expectHealthy();
  });

  it("a log flood ends the script with kind output", async () => {
    const out = await run(`while (true) console.log("x".repeat(100))`);
    expect(out.error?.kind).toBe("output");
    expect(out.logs.length).toBeLessThanOrEqual(1000);
    const huge = await run(`console.log("y".repeat(2 * 1024 * 1024))`);
    expect(huge.error?.kind).toBe("output");
    expect(huge.logs).toEqual([]);
  });

  it("a flood the script swallows is still reported as output, not as the timeout it ran into", async () => {
    const out = await run(`for (;;) { try { console.log("x") } catch {} }`, { limits: { cpuMs: 300 } });
    expect(out.error?.kind).toBe("output");
  });

  it("a test flood ends the script with kind output", async () => {
    const out = await run(`for (let i = 0; ; i++) pm.test("t" + i, () => {})`, { limits: { maxTests: 50 } });
    expect(out.error?.kind).toBe("output");
    expect(out.totalTests).toBe(50);
  });

  it("SharedArrayBuffer, Atomics.wait and WebAssembly are not there", async () => {
    const out = await run(`
      pm.test("no SharedArrayBuffer", () => pm.expect(typeof SharedArrayBuffer).to.equal("undefined"));
      pm.test("no Atomics.wait", () => pm.expect(typeof Atomics.wait).to.equal("undefined"));
      pm.test("no WebAssembly", () => pm.expect(typeof WebAssembly).to.equal("undefined"));`);
    expect(out.passedTests).toBe(3);
  });

  it("a busy script does not block the host's event loop", async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 10);
    try {
      const out = await run(`while (true) {}`, { limits: { cpuMs: 500 } });
      expect(out.error?.kind).toBe("timeout");
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThan(15);
  });

  it("a script that sabotages the runtime (a looping Object.prototype.toJSON) only times itself out", async () => {
    const out = await run(`Object.prototype.toJSON = function () { while (true) {} }; pm.test("t", () => {})`, { limits: { cpuMs: 300 } });
    expect(out.error?.kind).toBe("timeout");
    // The CPU limit, then one bounded attempt to read the results back.
    expect(out.durationMs).toBeLessThan(1500);
    await expectHealthy();
  });
});

async function plainSend(req: string | ScriptRequest): Promise<ExecutedResponse> {
  const url = typeof req === "string" ? req : req.url;
  const body = await new Promise<string>((resolve, reject) => {
    http
      .get(url, (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve(text));
      })
      .on("error", reject);
  });
  return response({ body, headers: [{ key: "Content-Type", value: "application/json" }] });
}
