// `npx tsx bench/experiments/lean-http.ts [W1,W4,W6,W7] [seconds] [rounds]`:
// how much of a stub request's cost is node:http's own (IncomingMessage,
// ServerResponse, their streams and timers) rather than the serving core's.
// Three servers answer the bench's W1/W4/W6/W7 under wrk, interleaved:
//   node:http  — the stub path as shipped (handleStubRequest in node:http);
//   lean       — the same serving core (serveStubNow) behind node's own llhttp
//                parser (HTTPParser from _http_common) on a net socket, the
//                answer written as one buffer;
//   raw        — bench/raw-server.ts (node:http answering fixed bytes), the
//                bench's yardstick.
// The lean server is an experiment, not a product path: it handles what wrk
// sends (Content-Length bodies, keep-alive, pipelining in order) and nothing
// else (no upgrades, no Expect, no timeouts). Results: lean-http-results.md.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import net from "node:net";
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
const { serveStubNow } = await import("../../server/transport/stub-core");
const { isRequestId, newRequestId } = await import("../../server/http/request-meta");
const { actorFor, makeNamespace, makeUser } = await import("../../server/testing/fixtures");
type StubOutput = Awaited<ReturnType<typeof serveStubNow>>;

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

// --- the lean server -------------------------------------------------------
const require = createRequire(import.meta.url);
const { HTTPParser, methods } = require("_http_common") as { HTTPParser: any; methods: string[] };
const kOnHeaders = HTTPParser.kOnHeaders as number;
const kOnHeadersComplete = HTTPParser.kOnHeadersComplete as number;
const kOnBody = HTTPParser.kOnBody as number;
const kOnMessageComplete = HTTPParser.kOnMessageComplete as number;

let dateLine = "";
let dateSecond = 0;
function date(): string {
  const s = Math.floor(Date.now() / 1000);
  if (s !== dateSecond) {
    dateSecond = s;
    dateLine = `Date: ${new Date(s * 1000).toUTCString()}\r\n`;
  }
  return dateLine;
}

function head(out: StubOutput, bodyLength: number): string {
  let h = `HTTP/1.1 ${out.status} ${http.STATUS_CODES[out.status] ?? ""}\r\n`;
  for (const name in out.headers) {
    const v = out.headers[name];
    if (typeof v === "string") h += `${name}: ${v}\r\n`;
    else for (const x of v) h += `${name}: ${x}\r\n`;
  }
  return `${h}Content-Length: ${bodyLength}\r\n${date()}Connection: keep-alive\r\nKeep-Alive: timeout=65\r\n\r\n`;
}

function write(socket: net.Socket, out: StubOutput) {
  const body = out.body;
  if (typeof body === "string") {
    const n = Buffer.byteLength(body);
    socket.write(head(out, n) + body);
  } else {
    const h = head(out, body.length);
    const buf = Buffer.allocUnsafe(Buffer.byteLength(h, "latin1") + body.length);
    const at = buf.write(h, 0, "latin1");
    body.copy(buf, at);
    socket.write(buf);
  }
  out.afterSend?.();
}

const lean = net.createServer((socket) => {
  socket.setNoDelay(true);
  const parser = new HTTPParser();
  parser.initialize(HTTPParser.REQUEST, {}, 0, 0);
  let headers: Record<string, string[]> = {};
  let method = "GET";
  let url = "/";
  let body: Buffer[] = [];
  // Answers in request order: a pending one holds those after it.
  const queue: (StubOutput | Promise<StubOutput>)[] = [];
  let draining = false;
  const drain = () => {
    while (queue.length) {
      const first = queue[0];
      if (first instanceof Promise) {
        if (!draining) {
          draining = true;
          void first.then((o) => {
            queue[0] = o;
            draining = false;
            drain();
          });
        }
        return;
      }
      queue.shift();
      write(socket, first);
    }
  };
  const addHeaders = (raw: string[]) => {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const k = raw[i].toLowerCase();
      (headers[k] ??= []).push(raw[i + 1]);
    }
  };
  parser[kOnHeaders] = (raw: string[], u: string) => {
    addHeaders(raw);
    if (u) url += u;
  };
  parser[kOnHeadersComplete] = (_maj: number, _min: number, raw: string[] | undefined, m: number, u: string | undefined) => {
    if (raw) addHeaders(raw);
    method = methods[m];
    if (u) url = u;
  };
  parser[kOnBody] = (b: Buffer) => body.push(Buffer.from(b));
  parser[kOnMessageComplete] = () => {
    const incoming = headers["x-request-id"]?.[0];
    const requestId = incoming !== undefined && isRequestId(incoming) ? incoming : newRequestId();
    headers["x-request-id"] = [requestId];
    const rawBody = body.length === 0 ? EMPTY : body.length === 1 ? body[0] : Buffer.concat(body);
    queue.push(serveStubNow({ method, url, headers, rawBody, requestId }));
    headers = {};
    url = "";
    body = [];
  };
  socket.on("data", (d: Buffer) => {
    const r = parser.execute(d);
    if (r instanceof Error) {
      socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    drain();
  });
  socket.on("error", () => {});
  socket.on("close", () => parser.free?.());
});
const EMPTY = Buffer.alloc(0);

// --- the three servers and the loads ---------------------------------------
const shipped = http.createServer((req, res) => void handleStubRequest(req, res, newRequestId()));
shipped.keepAliveTimeout = 65_000;
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
