// `npx tsx bench/tester/sandbox-overhead.ts [runs]`: what the script sandbox
// costs. Prints the one-time costs (first sandbox in a process, which builds
// the runtime bundle; a later sandbox, which reuses it and V8's code cache)
// and p50/p95 per script on one reused ScriptSandbox, for a typical test
// script, a pre-request script and an empty one.
import type { ExecutedResponse } from "../../server/contracts/tester-execution";
import { ScriptSandbox, type ScriptInput } from "../../server/tester/sandbox";
import { emptyScopes } from "../../server/tester/scopes";

const runs = Number(process.argv[2] ?? 2000);
const WARMUP = 200;

const response: ExecutedResponse = {
  status: 200,
  statusText: "OK",
  headers: [
    { key: "Content-Type", value: "application/json; charset=utf-8" },
    { key: "Content-Length", value: "61" },
  ],
  body: JSON.stringify({ id: 1, name: "Ada Lovelace", email: "ada@example.com", roles: ["admin"] }),
  bodyEncoding: "utf8",
  bodyTruncated: false,
  size: { headers: 80, body: 61 },
  cookies: [],
  timings: { dnsMs: 0, connectMs: 0, tlsMs: 0, firstByteMs: 3, downloadMs: 1, totalMs: 4 },
  url: "http://localhost:5770/users/1",
  redirects: [],
  httpVersion: "1.1",
};

const scopes = emptyScopes();
scopes.environment = { baseUrl: "http://localhost:5770", token: "abc" };
scopes.collection = { userId: "1" };

const base: Omit<ScriptInput, "script" | "scriptType"> = {
  scopes,
  request: { method: "GET", url: "{{baseUrl}}/users/{{userId}}", headers: [{ key: "Accept", value: "application/json" }], body: { mode: "none" } },
  response,
  info: { eventName: "test", iteration: 0, iterationCount: 1, requestName: "Get user", requestId: "r1" },
};

const CASES: [string, ScriptInput][] = [
  ["typical test script", { ...base, scriptType: "test", script: `pm.test("status", () => pm.response.to.have.status(200)); pm.expect(pm.response.json().id).to.eql(1)` }],
  ["pre-request script", { ...base, response: undefined, scriptType: "preRequest", info: { ...base.info, eventName: "prerequest" }, script: `pm.request.headers.upsert({ key: "Authorization", value: "Bearer " + pm.environment.get("token") }); pm.variables.set("ts", Date.now())` }],
  ["empty script", { ...base, scriptType: "test", script: "" }],
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const fmt = (ms: number) => `${ms.toFixed(3)} ms`;

let t = performance.now();
const first = await ScriptSandbox.create();
console.log(`first sandbox in the process (bundle build + isolate + context): ${fmt(performance.now() - t)}`);
t = performance.now();
const second = await ScriptSandbox.create();
console.log(`later sandbox (isolate + context, runtime from V8's code cache):   ${fmt(performance.now() - t)}`);
second.dispose();

for (const [label, input] of CASES) {
  for (let i = 0; i < WARMUP; i++) await first.run(input);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = performance.now();
    const out = await first.run(input);
    times.push(performance.now() - s);
    if (out.status !== "passed") throw new Error(`${label}: ${JSON.stringify(out.error ?? out.tests)}`);
  }
  times.sort((a, b) => a - b);
  console.log(`${label.padEnd(20)} p50 ${fmt(percentile(times, 50))}  p95 ${fmt(percentile(times, 95))}  p99 ${fmt(percentile(times, 99))}  (${runs} runs)`);
}
first.dispose();
