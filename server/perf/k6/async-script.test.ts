// The async rewrite of k6 scripts: k6's own examples and the editor's
// snippets are rewritten, and each rewritten script, run with an
// asynchronous http/sleep/group, does exactly what the original does run
// synchronously (same requests, checks, groups, sleeps, logs, in the same
// order, with the same values); scripts the rewrite cannot prove faithful
// are refused with the reason.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { parse } from "acorn";
import { transformSync } from "esbuild";
import { describe, expect, it } from "vitest";
import { SNIPPETS } from "../scripts/snippets";
import { toAsyncScript } from "./async-script";

const FIXTURES = path.join(import.meta.dirname, "__fixtures__/k6-examples");
const EXAMPLES = readdirSync(FIXTURES).filter((f) => f.endsWith(".js"));

function rewritten(source: string): string {
  const r = toAsyncScript(source);
  if (!r.ok) throw new Error(`refused: ${r.reason} (line ${r.line})`);
  return r.source;
}

function refusal(source: string) {
  const r = toAsyncScript(source);
  if (r.ok) throw new Error(`rewritten, expected a refusal:\n${r.source}`);
  return r;
}

/**
 * Runs a script's default function (setup first, teardown after, as k6 does)
 * with k6 modules that log every call. `async` gives the modules the rewritten
 * script expects: http and sleep answer on a later turn of the event loop,
 * group awaits a function that returns a promise.
 */
async function trace(source: string, mode: "sync" | "async", iterations = 2): Promise<string[]> {
  const log: string[] = [];
  const later = <T>(v: T) => new Promise<T>((resolve) => setImmediate(() => resolve(v)));
  let n = 0;
  const response = (method: string, url: unknown, body: unknown, params: unknown) => {
    const id = ++n;
    const u = typeof url === "object" && url ? (url as { url: string }).url : String(url);
    log.push(`http ${method} ${u} ${JSON.stringify(body ?? null)} ${JSON.stringify(params ?? null)}`);
    const payload = { args: { verb: method.toLowerCase() }, form: { verb: method.toLowerCase() }, json: { verb: method.toLowerCase(), key: "value" }, authenticated: true, user: "user", id, token: "t" };
    return { status: 200, url: u, body: JSON.stringify(payload), timings: { duration: 1, connecting: 0, tls_handshaking: 0 }, headers: {}, json: () => payload };
  };
  const answer = <T>(v: T) => (mode === "async" ? later(v) : v);
  const http: Record<string, unknown> = {
    url: (strings: TemplateStringsArray, ...values: unknown[]) => ({ url: strings.reduce((a, s, i) => a + s + (i < values.length ? String(values[i]) : ""), "") }),
    expectedStatuses: () => ({}),
    setResponseCallback: () => {},
    batch: (list: unknown[]) => answer(list.map((x) => (Array.isArray(x) ? response(String(x[0]), x[1], x[2], x[3]) : response("GET", x, null, null)))),
  };
  for (const m of ["get", "head", "del"]) http[m] = (url: unknown, params: unknown) => answer(response(m.toUpperCase(), url, null, params));
  for (const m of ["post", "put", "patch", "options"]) http[m] = (url: unknown, body: unknown, params: unknown) => answer(response(m.toUpperCase(), url, body, params));
  http.request = (method: string, url: unknown, body: unknown, params: unknown) => answer(response(method, url, body, params));
  const check = (value: unknown, sets: Record<string, unknown>) => {
    let all = true;
    for (const [name, cond] of Object.entries(sets)) {
      const ok = !!(typeof cond === "function" ? cond(value) : cond);
      log.push(`check ${name} ${ok}`);
      all &&= ok;
    }
    return all;
  };
  const group = (name: string, fn: () => unknown) => {
    log.push(`group> ${name}`);
    const out = fn();
    // The script's promises are of its own realm (the vm context), so not instanceof this one's Promise.
    if (mode === "async" && typeof (out as Promise<unknown> | undefined)?.then === "function") return (out as Promise<unknown>).finally(() => log.push(`group< ${name}`));
    log.push(`group< ${name}`);
    return out;
  };
  const sleep = (s: number) => {
    log.push(`sleep ${s}`);
    return mode === "async" ? later(undefined) : undefined;
  };
  const metric = (kind: string) =>
    class {
      constructor(readonly name: string) {}
      add(v: unknown, tags?: unknown) {
        log.push(`${kind} ${this.name} ${JSON.stringify(v)} ${JSON.stringify(tags ?? null)}`);
      }
    };
  const b64 = (s: string) => Buffer.from(s).toString("base64");
  const modules: Record<string, unknown> = {
    // Flat: esbuild's CommonJS interop hands a whole module to a default import.
    "k6/http": http,
    k6: { check, group, sleep, fail: (m: string) => { throw new Error(m); } },
    "k6/metrics": { Counter: metric("counter"), Gauge: metric("gauge"), Rate: metric("rate"), Trend: metric("trend") },
    "k6/encoding": { b64encode: b64, b64decode: (s: string) => Buffer.from(s, "base64").toString() },
    "k6/data": { SharedArray: class { constructor(_: string, fn: () => unknown[]) { return fn(); } } },
    "k6/execution": { vu: { idInTest: 1 }, scenario: { iterationInTest: 0 } },
  };
  const cjs = transformSync(source, { format: "cjs", loader: "js", target: "es2022" }).code;
  const mod = { exports: {} as Record<string, (data?: unknown) => unknown> };
  const text = (xs: unknown[]) => xs.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join(" ");
  const console = { log: (...a: unknown[]) => log.push(`log ${text(a)}`), info: (...a: unknown[]) => log.push(`info ${text(a)}`), debug: (...a: unknown[]) => log.push(`debug ${text(a)}`), warn: (...a: unknown[]) => log.push(`warn ${text(a)}`), error: (...a: unknown[]) => log.push(`error ${text(a)}`) };
  const context = vm.createContext({ module: mod, exports: mod.exports, require: (name: string) => modules[name], console, __ENV: { BASE_URL: "http://api.test", USERNAME: "u", PASSWORD: "p" }, __VU: 1, __ITER: 0, open: () => "[]" });
  // The same "random" numbers in both runs.
  vm.runInContext("Math.random = (() => { let s = 7; return () => (s = (s * 16807) % 2147483647) / 2147483647; })();", context);
  vm.runInContext(cjs, context);
  const exports = mod.exports;
  const data = exports.setup ? await exports.setup() : undefined;
  for (let i = 0; i < iterations; i++) {
    log.push(`iteration ${i}`);
    try {
      await exports.default(data);
    } catch (e) {
      log.push(`threw ${(e as Error).message}`);
    }
  }
  if (exports.teardown) await exports.teardown(data);
  return log;
}

async function expectSameBehaviour(source: string) {
  const out = rewritten(source);
  const before = await trace(source, "sync");
  const after = await trace(out, "async");
  expect(after).toEqual(before);
  return { out, before };
}

describe("k6's example scripts", () => {
  it.each(EXAMPLES)("%s is rewritten and behaves as written", async (file) => {
    const source = readFileSync(path.join(FIXTURES, file), "utf8");
    const { out } = await expectSameBehaviour(source);
    // Insertions only, on the lines they belong to.
    expect(out.split("\n")).toHaveLength(source.split("\n").length);
    expect(() => parse(out, { ecmaVersion: "latest", sourceType: "module" })).not.toThrow();
  });

  it("awaits each request and group in http_verbs.js and makes their functions async", () => {
    const out = rewritten(readFileSync(path.join(FIXTURES, "http_verbs.js"), "utf8"));
    expect(out).toContain("export default async function() {");
    expect(out).toContain('await group("GET", async function() {');
    expect(out).toContain('let res = await http.get("http://httpbin.org/get?verb=get");');
    expect(out).toContain('let res = await http.del("http://httpbin.org/delete?verb=delete");');
  });

  it("leaves a script that never waits as it is", () => {
    const source = readFileSync(path.join(FIXTURES, "base64.js"), "utf8");
    expect(rewritten(source)).toBe(source);
  });
});

describe("the editor's snippets", () => {
  it.each(SNIPPETS.map((s) => [s.id, s.code]))("%s is rewritten and behaves as written", async (_id, code) => {
    await expectSameBehaviour(code);
  });
});

describe("rewrites", () => {
  it("follows the script's own functions that wait, through calls and group()", async () => {
    const source = `import http from "k6/http";
import { check, group, sleep } from "k6";
const BASE = __ENV.BASE_URL;
function login(user) {
  const res = http.post(\`\${BASE}/login\`, JSON.stringify({ user }));
  return res.json().token;
}
const list = (token) => http.get(BASE + "/items", { headers: { Authorization: token } }).json().id;
function browse(token) {
  for (let i = 0; i < 2; i++) {
    const id = list(token);
    if (id % 2) sleep(0.1);
    else check(id, { even: (x) => x % 2 === 0 });
  }
  return "done";
}
export function setup() { return { token: login("admin") }; }
export default function (data) {
  group("browse", () => {
    const t = data.token || login("x");
    console.log(browse(t), list(t) + list(t));
  });
  group("pure", function () { console.log("no requests here"); });
}
export function teardown(data) { http.del(BASE + "/session/" + data.token); }
`;
    const { out } = await expectSameBehaviour(source);
    expect(out).toContain("async function login(user)");
    expect(out).toContain("const list = async (token) => (await http.get(");
    expect(out).toContain("const id = await list(token);");
    expect(out).toContain("if (id % 2) await sleep(0.1);");
    expect(out).toContain("console.log(await browse(t), await list(t) + await list(t));");
    // A group whose function never waits stays synchronous.
    expect(out).toContain('group("pure", function () {');
    expect(out).toContain("await group(\"browse\", async () => {");
  });

  it("keeps evaluation order and short-circuits", async () => {
    const source = `import http from "k6/http";
export default function () {
  const a = http.get("http://x/1").status === 200 && http.get("http://x/2").status;
  const b = false ? http.get("http://x/3") : http.get("http://x/4").json().id;
  const c = [http.get("http://x/5").status, ...[http.get("http://x/6").status]];
  const d = \`\${http.get("http://x/7").url}-\${http.get("http://x/8").url}\`;
  console.log(a, b, c, d, http.get("http://x/9").status ** 2);
  try { http.get("http://x/10"); throw new Error("boom"); } catch (e) { console.log(e.message); } finally { http.get("http://x/11"); }
  switch (http.get("http://x/12").status) { case 200: http.get("http://x/13"); break; }
}
`;
    await expectSameBehaviour(source);
  });

  it("does not let a parenthesis continue an unterminated line", async () => {
    const source = `import http from "k6/http";
export default function () {
  let x = 1
  http.get("http://x/a").json()
  const o = {}
  http.get("http://x/b").status
  if (x) http.get("http://x/c").json()
  console.log(x, o)
}
`;
    const { out } = await expectSameBehaviour(source);
    expect(out).toContain('  ;(await http.get("http://x/a")).json()');
    expect(out).toContain('  if (x) (await http.get("http://x/c")).json()');
  });

  it("handles named and namespace imports of k6/http and k6", async () => {
    const source = `import { get, post as send } from "k6/http";
import * as k6 from "k6";
export default function () {
  k6.group("g", function () { get("http://x/1"); k6.sleep(1); });
  send("http://x/2", "body");
}
`;
    const { out } = await expectSameBehaviour(source);
    expect(out).toContain('await k6.group("g", async function () { await get("http://x/1"); await k6.sleep(1); });');
  });

  it("keeps errors on their lines", () => {
    const source = `import http from "k6/http";\nexport default function () {\n  http.get("http://x/").json().missing.field;\n}\n`;
    const out = rewritten(source);
    expect(out.split("\n")[2]).toBe('  (await http.get("http://x/")).json().missing.field;');
  });
});

describe("refusals (the script runs unchanged on the isolate-per-VU engine)", () => {
  const script = (body: string, extra = "") => `import http from "k6/http";\nimport { group, sleep, check } from "k6";\n${extra}\nexport default function () {\n${body}\n}\n`;

  it.each([
    ["a request in a forEach callback", script(`["a", "b"].forEach((u) => http.get(u));`), /callback passed to \.forEach\(\)/],
    ["a request in a map callback through a helper", script(`["a"].map(fetchIt);`, `function fetchIt(u) { return http.get(u); }`), /function "fetchIt" makes requests and is used as a value/],
    ["a request in an object's method", script(`api.load();`, `const api = { load() { return http.get("http://x/"); } };`), /an object's method makes requests/],
    ["a request in a getter", script(`api.res;`, `const api = { get res() { return http.get("http://x/"); } };`), /getter or setter/],
    ["a request in a class method", script(`new Client().load();`, `class Client { load() { return http.get("http://x/"); } }`), /class method/],
    ["a request in a constructor", script(`new Client();`, `class Client { constructor() { this.r = http.get("http://x/"); } }`), /constructor/],
    ["a request in a class field", script(`new C();`, `class C { r = http.get("http://x/"); }`), /class field/],
    ["a function that waits called with new", script(`new load();`, `function load() { http.get("http://x/"); }`), /used as a value/],
    ["a request in a default parameter", script(`f();`, `function f(r = http.get("http://x/")) { return r; }`), /parameter's default value/],
    ["a request in the init code", `import http from "k6/http";\nconst r = http.get("http://x/");\nexport default function () {}\n`, /init code/],
    ["a generator", script(`for (const r of gen()) console.log(r);`, `function* gen() { yield http.get("http://x/"); }`), /generators/],
    ["an async function of its own", script(`go();`, `async function go() { await Promise.resolve(); }`), /async functions/],
    ["http passed around", script(`use(http);`, `function use(h) { return h; }`), /"http" is used other than as http\.<function>/],
    ["http.get taken as a value", script(`const g = http.get; g("http://x/");`), /http\.get is used other than by calling it/],
    ["http indexed by a computed name", script(`http["get"]("http://x/");`), /"http" is used other than/],
    ["sleep passed as a value", script(`[1].forEach(sleep);`), /"sleep" is used other than by calling it/],
    ["a function that waits, reassigned", script(`load(); load = null;`, `let load = () => http.get("http://x/");`), /"load" is assigned to/],
    ["a name declared twice", script(`load(); function inner(load) { return load; } inner(1);`, `function load() { http.get("http://x/"); }`), /"load" is declared more than once/],
    ["http shadowed by a parameter", script(`f({ get: () => 1 });`, `function f(http) { return http.get(); }`), /"http" is declared more than once/],
    ["a then property", script(`const r = { then: 1 }; http.get("http://x/");`), /then/],
    ["eval", script(`eval("1"); http.get("http://x/");`), /eval/],
    ["an optional call that waits", script(`maybe?.();`, `const maybe = () => http.get("http://x/");`), /optional call/],
  ])("%s", (_name, source, reason) => {
    const r = refusal(source);
    expect(r.reason).toMatch(reason);
    expect(r.line).toBeGreaterThan(0);
  });

  it("refuses a script that does not parse, leaving the error to the engine", () => {
    expect(refusal("export default function ( {").reason).toMatch(/does not parse/);
  });

  it("accepts the same patterns when nothing in them waits", () => {
    const source = script(`["a"].forEach((u) => console.log(u)); check(1, { ok: (x) => x === 1 }); new C().m(); http.get("http://x/");`, `class C { m() { return 1; } }`);
    expect(toAsyncScript(source).ok).toBe(true);
  });
});
