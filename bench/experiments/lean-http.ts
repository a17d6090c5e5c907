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
import http from "node:http";
import type net from "node:net";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { STUB_WORKLOADS, stubWorkloadDatabase } from "../stub-workloads";

const which = (process.argv[2] ?? "W1,W4,W6,W7").split(",");
const seconds = process.argv[3] ?? "4";
const rounds = Number(process.argv[4] ?? 3);
const { dir, drop } = await stubWorkloadDatabase();
const { handleStubRequest } = await import("../../server/transport/http-stub");
const { serveStubsLean } = await import("../../server/transport/lean-stub-wire");
const { newRequestId } = await import("../../server/http/request-meta");

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
  const { path: p, lua, init } = STUB_WORKLOADS[w];
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
await drop();
process.exit(0);
