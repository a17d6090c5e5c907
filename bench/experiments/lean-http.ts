// `npx tsx bench/experiments/lean-http.ts [W1,W4,W6,W7] [seconds] [rounds]`:
// how much of a stub request's cost is node:http's own (IncomingMessage,
// ServerResponse, their streams and timers) rather than the serving core's.
// Three servers answer the bench's W1/W4/W6/W7 under wrk, interleaved:
//   node:http  — handleStubRequest in node:http, as the front served stubs
//                before server/transport/lean-stub-wire.ts (STUB_WIRE=node);
//   lean       — the same server with the lean stub layer before it, as the
//                front serves them now;
//   raw        — bench/raw-server.ts (node:http answering fixed bytes), the
//                bench's yardstick.
// Results: lean-http-results.md.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import type net from "node:net";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, ensureTemplate } from "../../server/testing/test-db";

const which = (process.argv[2] ?? "W1,W4,W6,W7").split(",");
const seconds = process.argv[3] ?? "4";
const rounds = Number(process.argv[4] ?? 3);
await ensureTemplate();
const created = await createTestDatabase();
process.env.DATABASE_URL = created.url;
process.env.LOG_LEVEL = "silent";
const { MockInput } = await import("../../server/contracts/mock");
const { saveMock } = await import("../../server/services/mocks");
const { resolveNamespace } = await import("../../server/services/namespace-access");
const { handleStubRequest } = await import("../../server/transport/http-stub");
const { serveStubsLean } = await import("../../server/transport/lean-stub-wire");
const { newRequestId } = await import("../../server/http/request-meta");
const { actorFor, makeNamespace, makeUser } = await import("../../server/testing/fixtures");

const { user } = await makeUser();
await makeNamespace("pf", { [user.id]: "owner" });
const actor = actorFor(user);
const scope = await resolveNamespace(actor, "pf");
const mocks = [
  { http: { route: "/w1/hello", httpMethod: "GET" }, response: { payload: { hello: "world" } } },
  { http: { route: "/w4/items/:id", httpMethod: "GET" }, response: { payload: { id: "$.pathParam.id", uuid: "$.fake.UUID" } } },
  { sse: { eventPath: "/w6/stream", eventName: "tick" }, response: { sseEventChain: { events: [{ data: { n: 1 } }, { data: { n: 2 } }, { data: { n: 3, id: "$.fake.UUID" } }] } } },
  { graphql: { operation: "query", field: "user" }, response: { payload: { id: "$.req.id", name: "Ada" } } },
];
for (const m of mocks) await saveMock(actor, scope, MockInput.parse(m));

// --- the three servers and the loads ---------------------------------------
// Both as the front serves stubs (server/transport/front.ts): node:http alone, and with the lean layer before it.
const shipped = http.createServer((req, res) => void handleStubRequest(req, res, newRequestId()));
shipped.keepAliveTimeout = 65_000;
const lean = http.createServer((req, res) => void handleStubRequest(req, res, newRequestId()));
lean.keepAliveTimeout = 65_000;
serveStubsLean(lean);
const listen = async (s: net.Server) => {
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
};
const shippedBase = await listen(shipped);
const leanBase = await listen(lean);
const rawPort = 20000 + Math.floor(Math.random() * 20000);
const raw = spawn(process.execPath, ["--import", "tsx", "bench/raw-server.ts", String(rawPort)], { stdio: ["ignore", "pipe", "inherit"] });
await new Promise<void>((r) => raw.stdout!.once("data", () => r()));
const rawBase = `http://127.0.0.1:${rawPort}`;

const dir = mkdtempSync(path.join(os.tmpdir(), "polymock-lean-"));
const W7_BODY = JSON.stringify({ query: "query User($id: ID!) { user(id: $id) { id name } }", variables: { id: "7" } });
writeFileSync(path.join(dir, "w7.lua"), `wrk.method = "POST"\nwrk.body = ${JSON.stringify(W7_BODY)}\nwrk.headers["Content-Type"] = "application/json"\n`);
writeFileSync(path.join(dir, "w6.lua"), `wrk.headers["Accept"] = "text/event-stream"\n`);
const work: Record<string, { path: string; lua?: string; init?: RequestInit }> = {
  W1: { path: "/w1/hello" },
  W4: { path: "/w4/items/42" },
  W6: { path: "/w6/stream", lua: "w6.lua", init: { headers: { accept: "text/event-stream" } } },
  W7: { path: "/graphql", lua: "w7.lua", init: { method: "POST", body: W7_BODY, headers: { "content-type": "application/json" } } },
};

function wrk(url: string, lua: string | undefined, secs: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn("wrk", ["-t1", "-c10", `-d${secs}s`, ...(lua ? ["-s", path.join(dir, lua)] : []), url]);
    let text = "";
    child.stdout.on("data", (d) => (text += d));
    child.on("error", reject);
    child.on("close", () => {
      if (/Non-2xx/.test(text)) return reject(new Error(`non-2xx answers from ${url}:\n${text}`));
      resolve(Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1]));
    });
  });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

for (const w of which) {
  const { path: p, lua, init } = work[w];
  // Same bytes from all three: the raw server answers with the shipped server's answer.
  const probe = await fetch(`${shippedBase}/stubs/pf${p}`, init);
  const text = await probe.text();
  const leanProbe = await fetch(`${leanBase}/stubs/pf${p}`, init);
  const leanText = await leanProbe.text();
  if (probe.status !== 200 || leanProbe.status !== 200) throw new Error(`${w}: ${probe.status} ${text} / ${leanProbe.status} ${leanText}`);
  const hdrs: Record<string, string> = {};
  probe.headers.forEach((v, k) => {
    if (!["content-length", "date", "connection", "keep-alive", "transfer-encoding"].includes(k)) hdrs[k] = v;
  });
  await fetch(`${rawBase}/__configure`, { method: "POST", body: JSON.stringify({ status: 200, headers: hdrs, body: text }) });
  const targets = { "node:http": shippedBase + "/stubs/pf" + p, lean: leanBase + "/stubs/pf" + p, raw: rawBase + p };
  const got: Record<string, number[]> = { "node:http": [], lean: [], raw: [] };
  for (const url of Object.values(targets)) await wrk(url, lua, "1");
  for (let i = 0; i < rounds; i++) for (const [name, url] of Object.entries(targets)) got[name].push(await wrk(url, lua, seconds));
  const m = Object.fromEntries(Object.entries(got).map(([k, v]) => [k, median(v)]));
  const f = (k: string) => `${(m[k] / 1000).toFixed(1)}k (${(Math.min(...got[k]) / 1000).toFixed(1)}–${(Math.max(...got[k]) / 1000).toFixed(1)}k)`;
  console.log(`${w}: node:http ${f("node:http")} ${(m["node:http"] / m.raw).toFixed(2)}× raw | lean ${f("lean")} ${(m.lean / m.raw).toFixed(2)}× raw | raw ${f("raw")}`);
}
shipped.close();
lean.close();
raw.kill();
await created.drop();
process.exit(0);
