// `npm run bench`: the stub hot path against a raw node:http server returning
// identical bytes (and with --peers WireMock and Mockoon), on the workloads of
// the engine issue (W1–W7), with wrk or autocannon, and the protocol-runner's
// gRPC unary against a plain grpc-js server (G1), and its RabbitMQ
// request→reply against a plain amqplib echo consumer (Q1), and its Kafka
// produce→reply against a plain kafkajs echo consumer on kcat's mock cluster (Q2),
// and the API tester's collection runner against the W1 stub (T1), and the k6
// load engine against autocannon on a raw node:http server (P1). Prints req/s as the median
// (min–max) of interleaved rounds, p50/p99 latency, the ratio to raw, peak RSS
// of the server, and the time to batch-create 10,000 mocks. Not a test: no assertions.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { migrate } from "../server/db/migrate";
import { bundleServer, entryCommand } from "../server/runtime/server-bundle";
import { buildIsStale } from "../server/runtime/build-check";
import * as grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";
import { G1_METHOD, G1_PROTO, G1_REPLY } from "./grpc/proto";
import { h2load, hasH2load, type GrpcLoadResult } from "./grpc/h2load";
import { benchQ1 } from "./rabbitmq";
import { installPeers, startMockoon, startWireMock, type Peer } from "./peers";
import { benchQ2, benchQ2Alone } from "./kafka";
import { benchT1 } from "./tester/t1";
import { benchP1 } from "./perf/p1";
import { CONNECTIONS, cpuSeconds, DURATION, freePort, median, ROUNDS_USED, rpsText, startRunner, summarise, troubleText, waitForLine, type Api, type Measured, type Summary } from "./common";

const root = process.cwd();
const PEERS = process.argv.includes("--peers");
const ADMIN_PASSWORD = "bench-admin-password";
// BENCH_TRANSIENT=1 marks the mocks transient (no request log, counters, live events): the engine alone.
const TRANSIENT = process.env.BENCH_TRANSIENT === "1";
const t = <T extends object>(mock: T) => (TRANSIENT ? { ...mock, transient: true } : mock);

async function waitReady(url: string) {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready`);
}

function rssMb(pid: number, field: "VmHWM" | "VmRSS" = "VmHWM"): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
const peakRssMb = (pid: number) => rssMb(pid);
/** The Next.js process server.ts starts (it serves the UI and the API, not stubs). */
function nextPid(serverPid: number): number | undefined {
  const kids = readFileSync(`/proc/${serverPid}/task/${serverPid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
  return kids.length ? Number(kids[0]) : undefined;
}

interface Workload {
  name: string;
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  setup: (api: Api) => Promise<void>;
}

function requestHeaders(w: Workload): Record<string, string> {
  return { ...(w.body ? { "content-type": "application/json" } : {}), ...w.headers };
}


const WRK = process.env.BENCH_TOOL !== "autocannon" && spawnSync("wrk", ["--version"]).error === undefined;

/** wrk (C, one thread) leaves more of the two cores to the servers than autocannon does; used when installed. */
async function wrkLoad(url: string, w: Workload, seconds: number) {
  const lua = path.join(os.tmpdir(), `polymock-bench-${process.pid}.lua`);
  const lines = [`wrk.method = ${JSON.stringify(w.method)}`];
  if (w.body) lines.push(`wrk.body = ${JSON.stringify(w.body)}`);
  for (const [name, value] of Object.entries(requestHeaders(w))) lines.push(`wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`);
  writeFileSync(lua, lines.join("\n") + "\n");
  // Not spawnSync: this process's event loop must keep running (its HTTP client closes idle connections on time).
  const child = spawn("wrk", ["-t1", `-c${CONNECTIONS}`, `-d${seconds}s`, "--latency", "-s", lua, url + w.path], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout.on("data", (c) => (out += c));
  await new Promise((r) => child.once("close", r));
  const ms = (label: string) => {
    const m = new RegExp(`^\\s*${label}%\\s+([\\d.]+)(us|ms|s)`, "m").exec(out);
    if (!m) return NaN;
    const v = Number(m[1]);
    return m[2] === "us" ? v / 1000 : m[2] === "s" ? v * 1000 : v;
  };
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0);
  const errors = /Socket errors: (.*)/.exec(out)?.[1];
  return { rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN), p50: ms("50"), p99: ms("99"), non2xx, errors: errors ? 1 : 0 };
}


async function warmUp(url: string, w: Workload) {
  if (WRK) await wrkLoad(url, w, 2);
  else await autocannon({ url: url + w.path, method: w.method as "GET", connections: CONNECTIONS, duration: 2, body: w.body, headers: requestHeaders(w) });
}

async function measure(url: string, w: Workload, pid: number) {
  const cpu0 = cpuSeconds(pid);
  let r: { rps: number; p50: number; p99: number; non2xx: number; errors: number };
  if (WRK) r = await wrkLoad(url, w, DURATION);
  else {
    const a = await autocannon({ url: url + w.path, method: w.method as "GET", connections: CONNECTIONS, duration: DURATION, body: w.body, headers: requestHeaders(w) });
    r = { rps: a.requests.average, p50: a.latency.p50, p99: a.latency.p99, non2xx: a.non2xx, errors: a.errors };
  }
  return { ...r, cpuUs: ((cpuSeconds(pid) - cpu0) / (r.rps * DURATION)) * 1e6 };
}



/** One server on one workload, as measured in a set of interleaved rounds. */
interface Target {
  url: string;
  /** A function: Mockoon is restarted (new pid) when a workload's mocks are added. */
  pid: () => number;
  workload: Workload;
  /** Warm-up runs of 2 s before measuring (a JVM's JIT needs more than node's). */
  warmUps: number;
}




/**
 * Every target warmed on its workload, then ROUNDS_USED rounds in each of
 * which every target runs once, in turn. On a shared VM a run can lose a
 * third of its speed to a neighbour; interleaving spreads such a disturbance
 * over all targets, and the median of the rounds (with min–max shown)
 * neither hides it nor lets one lucky run decide.
 */
async function interleaved(targets: Target[]): Promise<Summary[]> {
  for (const t of targets) for (let i = 0; i < t.warmUps; i++) await warmUp(t.url, t.workload);
  const runs: Measured[][] = targets.map(() => []);
  for (let round = 0; round < ROUNDS_USED; round++) {
    for (let k = 0; k < targets.length; k++) runs[k].push(await measure(targets[k].url, targets[k].workload, targets[k].pid()));
  }
  return runs.map(summarise);
}


/**
 * How soon a mock saved through the API is served by the runner (the issue's
 * 100 ms): the time from the API's answer to the first call the new mock
 * answers, polling every 2 ms, five times; reported, not asserted.
 */
async function runnerPickUp(api: Api, address: string): Promise<string> {
  const Request = protobuf.parse(G1_PROTO).root.lookupType("bench.HelloRequest");
  const client = new grpc.Client(address, grpc.credentials.createInsecure());
  const pass = (b: Buffer) => b;
  const callWith = (n: number) =>
    new Promise<boolean>((resolve) => client.makeUnaryRequest(G1_METHOD, pass, pass, Buffer.from(Request.encode({ name: "late", n }).finish()), new grpc.Metadata(), (err) => resolve(!err)));
  const times: number[] = [];
  for (let i = 1; i <= 5; i++) {
    const n = 1000 + i;
    await api("POST", "/api/v1/mocks?namespace=sandbox", { id: `g1-late-${i}`, priority: 10, grpc: { service: "bench.Greeter", method: "SayHello", conditions: [{ path: "$.n", assertAction: "equals", value: n }] }, response: { payload: { message: "late", id: n } } });
    const t0 = performance.now();
    while (!(await callWith(n))) {
      if (performance.now() - t0 > 10_000) throw new Error("the runner did not pick up a new mock within 10 s");
      await new Promise((r) => setTimeout(r, 2));
    }
    times.push(performance.now() - t0);
  }
  client.close();
  return `runner pick-up of a mock saved through the API: median ${median(times).toFixed(0)} ms (${Math.min(...times).toFixed(0)}–${Math.max(...times).toFixed(0)} ms, 5 mocks)`;
}

/** G1: one run of bench/grpc/load.ts (its own process, the grpc-js client) against a gRPC server. */
async function grpcJsLoad(address: string, seconds: number): Promise<GrpcLoadResult> {
  const child = spawn(process.execPath, ["--import", "tsx", "bench/grpc/load.ts", address, String(seconds), String(CONNECTIONS)], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  const code = await new Promise((r) => child.once("close", r));
  if (code !== 0) throw new Error(`grpc load exited ${code}: ${out}`);
  return JSON.parse(out);
}

/** G1's measured load: h2load when installed (BENCH_GRPC_CLIENT=grpc-js forces the JS client). */
const G1_CLIENT = process.env.BENCH_GRPC_CLIENT === "grpc-js" || !hasH2load() ? "grpc-js" : "h2load";
const grpcLoad = (address: string, seconds: number) => (G1_CLIENT === "h2load" ? h2load(address, seconds, CONNECTIONS) : grpcJsLoad(address, seconds));

async function measureGrpc(address: string, pid: number): Promise<Measured> {
  const cpu0 = cpuSeconds(pid);
  const r = await grpcLoad(address, DURATION);
  if (r.errors) console.log(`  ${address}: ${r.errors} failed calls (${r.firstError})`);
  return { rps: r.rps, p50: r.p50, p99: r.p99, non2xx: 0, errors: r.errors, cpuUs: ((cpuSeconds(pid) - cpu0) / (r.rps * DURATION)) * 1e6 };
}

/**
 * G1 gRPC unary: the protocol-runner (as `npm start` runs it) serving a mock
 * against a plain grpc-js server answering the same message, both loaded by
 * the same client process with CONNECTIONS calls in flight, interleaved.
 */
async function benchG1(api: Api, env: NodeJS.ProcessEnv, nodeFlags: string[]): Promise<{ row: string; pickUp: string }> {
  await api("POST", "/api/v1/api-tester/import/grpc?namespace=sandbox", { name: "bench/greeter.proto", content: G1_PROTO });
  await api("POST", "/api/v1/mocks?namespace=sandbox", t({ id: "g1", grpc: { service: "bench.Greeter", method: "SayHello" }, response: { payload: G1_REPLY } }));
  const grpcPort = await freePort();
  const runner = await startRunner(root, env, nodeFlags, { GRPC_PORT: String(grpcPort) });
  const plainPort = await freePort();
  const plain = spawn(process.execPath, ["--import", "tsx", "bench/grpc/plain-server.ts", String(plainPort)], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    await waitForLine(plain, "ready");
    const ours = `127.0.0.1:${grpcPort}`;
    const theirs = `127.0.0.1:${plainPort}`;
    // The runner loads the .proto and the mock after it starts: wait for a clean one-second run.
    for (let i = 0; ; i++) {
      const probe = await grpcJsLoad(ours, 1).catch((err: Error) => ({ errors: 1, firstError: err.message }));
      if (!probe.errors) break;
      if (i > 60) throw new Error(`G1: the runner does not answer: ${probe.firstError}`);
      await new Promise((r) => setTimeout(r, 500));
    }
    await grpcLoad(ours, 2);
    await grpcLoad(theirs, 2);
    const runs: [Measured[], Measured[]] = [[], []];
    for (let round = 0; round < ROUNDS_USED; round++) {
      runs[0].push(await measureGrpc(ours, runner.pid!));
      runs[1].push(await measureGrpc(theirs, plain.pid!));
    }
    const [o, p] = runs.map(summarise);
    const pickUp = await runnerPickUp(api, ours);
    return { pickUp, row: `${"G1 gRPC unary".padEnd(22)} ${rpsText(o)}  p50 ${String(o.p50).padStart(4)} ms  p99 ${String(o.p99).padStart(4)} ms | plain grpc-js ${rpsText(p)}  p99 ${String(p.p99).padStart(4)} ms | ratio ${(o.rps / p.rps).toFixed(2)} | CPU/call ${o.cpuUs.toFixed(0)} µs vs plain ${p.cpuUs.toFixed(0)} µs | load: ${G1_CLIENT}${troubleText(o)}` };
  } finally {
    runner.kill("SIGTERM");
    plain.kill("SIGTERM");
  }
}

async function main() {
  // BENCH_ONLY=Q2 needs neither the build nor the web process.
  if (process.env.BENCH_ONLY === "Q2") {
    console.log(await benchQ2Alone({ serverUrl: process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres", seconds: DURATION, rounds: ROUNDS_USED }));
    process.exit(0);
  }
  // Nor does P1 (the load engine against a raw server of its own).
  if (process.env.BENCH_ONLY === "P1") {
    console.log(await benchP1(DURATION, ROUNDS_USED));
    return;
  }
  if (buildIsStale(root)) {
    console.log("building (next build)…");
    if (spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], { stdio: "inherit" }).status !== 0) throw new Error("build failed");
  }
  const serverUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
  const dbName = `polymock_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const u = new URL(serverUrl);
  u.pathname = `/${dbName}`;
  const databaseUrl = u.toString();
  await migrate(databaseUrl);

  const port = await freePort();
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), APP_SECRET: "bench", NODE_ENV: "production", LOG_LEVEL: "warn", RATE_LIMIT_DISABLED: "1", ADMIN_PASSWORD };
  // Bootstrap the admin user through the launcher's own code path.
  spawnSync(process.execPath, ["--import", "tsx", "-e", `import("./server/services/bootstrap.ts").then(m => m.bootstrap({adminPassword: "${ADMIN_PASSWORD}"})).then(() => process.exit(0))`], { env, stdio: "inherit" });
  // BENCH_PROFILE=1 writes V8 CPU profiles of the web process (and of the runner, for G1) to bench/profiles/ (open in Chrome DevTools).
  const profile = process.env.BENCH_PROFILE === "1" ? ["--cpu-prof", `--cpu-prof-dir=${path.join(root, "bench/profiles")}`] : [];
  // The web process as `npm start` runs it: bundled.
  await bundleServer(root);
  const web = entryCommand(root, "server.ts", true);
  // BENCH_NODE_FLAGS="--trace-gc …" passes V8/Node flags to the web process only (experiments).
  const extraFlags = process.env.BENCH_NODE_FLAGS?.split(" ").filter(Boolean) ?? [];
  const server = spawn(process.execPath, [...profile, ...extraFlags, ...web.nodeArgs, web.file], { env, stdio: ["ignore", process.env.BENCH_NODE_FLAGS ? "inherit" : "pipe", "inherit"] });
  const base = `http://127.0.0.1:${port}`;
  await waitReady(`${base}/health/ready`);
  const idleRss = rssMb(server.pid!, "VmRSS");
  const uiPid = nextPid(server.pid!);

  const rawPort = await freePort();
  const raw = spawn(process.execPath, ["--import", "tsx", "bench/raw-server.ts", String(rawPort)], { stdio: ["ignore", "pipe", "inherit"] });
  await waitForLine(raw, "ready");
  const rawBase = `http://127.0.0.1:${rawPort}`;
  const peers: Peer[] = [];
  if (PEERS) {
    const dir = installPeers(root);
    peers.push(await startWireMock(dir, await freePort()), await startMockoon(dir, await freePort()));
  }

  const login = await fetch(`${base}/api/v1/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ username: "admin", password: ADMIN_PASSWORD }) });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
  const api: Api = async (method, p, body) => {
    const res = await fetch(`${base}${p}`, { method, headers: { cookie, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
    return res.json();
  };

  let batchMs = 0;
  const workloads: Workload[] = [
    { name: "W1 one GET mock", method: "GET", path: "/stubs/sandbox/w1/hello", setup: (a) => a("POST", "/api/v1/mocks", t({ http: { route: "/w1/hello", httpMethod: "GET" }, response: { payload: { hello: "world" } } })).then(() => {}) },
    {
      name: "W2 100 routes",
      method: "GET",
      path: "/stubs/sandbox/api/r77/items/5",
      setup: (a) => a("POST", "/api/v1/mocks/batch", Array.from({ length: 100 }, (_, i) => t({ http: { route: `/api/r${i}/items/:id`, httpMethod: "GET" }, response: { payload: { route: i } } }))).then(() => {}),
    },
    {
      name: "W3 100 conditions",
      method: "POST",
      path: "/stubs/sandbox/api/orders",
      body: JSON.stringify({ type: "t77", qty: 1 }),
      setup: (a) =>
        a("POST", "/api/v1/mocks/batch", Array.from({ length: 100 }, (_, i) => t({ http: { route: "/api/orders", httpMethod: "POST", conditions: [{ path: "$.type", assertAction: "equals", value: `t${i}` }] }, response: { payload: { type: `t${i}` } } }))).then(() => {}),
    },
    { name: "W4 templated", method: "GET", path: "/stubs/sandbox/w4/items/42", setup: (a) => a("POST", "/api/v1/mocks", t({ http: { route: "/w4/items/:id", httpMethod: "GET" }, response: { payload: { id: "$.pathParam.id", uuid: "$.fake.UUID" } } })).then(() => {}) },
    {
      name: "W6 SSE, 3 events",
      method: "GET",
      path: "/stubs/sandbox/w6/stream",
      headers: { accept: "text/event-stream" },
      setup: (a) =>
        a("POST", "/api/v1/mocks", t({ sse: { eventPath: "/w6/stream", eventName: "tick" }, response: { sseEventChain: { events: [{ data: { n: 1 } }, { data: { n: 2 } }, { data: { n: 3, id: "$.fake.UUID" } }] } } })).then(() => {}),
    },
    {
      name: "W7 GraphQL query",
      method: "POST",
      path: "/stubs/sandbox/graphql",
      body: JSON.stringify({ query: "query User($id: ID!) { user(id: $id) { id name } }", variables: { id: "7" } }),
      setup: (a) => a("POST", "/api/v1/mocks", t({ graphql: { operation: "query", field: "user" }, response: { payload: { id: "$.req.id", name: "Ada" } } })).then(() => {}),
    },
    {
      // W1's mock among 10,000 others, in a namespace of its own, so W1 and W5 can be measured alternately.
      name: "W5 W1 + 10,000 mocks",
      method: "GET",
      path: "/stubs/w5/w1/hello",
      setup: async (a) => {
        await a("POST", "/api/v1/namespaces", { name: "w5" });
        await a("POST", "/api/v1/mocks?namespace=w5", t({ http: { route: "/w1/hello", httpMethod: "GET" }, response: { payload: { hello: "world" } } }));
        const t0 = performance.now();
        await a("POST", "/api/v1/mocks/batch?namespace=w5", Array.from({ length: 10_000 }, (_, i) => ({ http: { route: `/other/r${i}/x`, httpMethod: "GET" }, response: { payload: { i } } })));
        batchMs = performance.now() - t0;
      },
    },
  ];

  const rows: string[] = [];
  const results: Record<string, number> = {};
  const toRaw: Record<string, number> = {};
  // BENCH_ONLY=W1,W3 runs only those workloads (the setups of the others still run, so W5 keeps its 10,000 mocks).
  const only = process.env.BENCH_ONLY?.split(",");
  const peerRows: string[] = [];
  let w5AgainstW1 = "";
  for (const w of workloads) {
    await w.setup(api);
    const peersReady = [];
    for (const peer of peers) if (await peer.prepare(w.name.slice(0, 2))) peersReady.push(peer);
    if (only && !only.some((o) => w.name.startsWith(o))) continue;
    // Index rebuild after NOTIFY; BENCH_IDLE=40 also leaves the server idle that many seconds first, as servers mostly are.
    await new Promise((r) => setTimeout(r, 500 + Number(process.env.BENCH_IDLE ?? 0) * 1000));
    const probe = await fetch(base + w.path, { method: w.method, body: w.body, headers: requestHeaders(w) });
    const probeBody = await probe.text();
    if (probe.status >= 400) throw new Error(`${w.name}: stub answered ${probe.status} ${probeBody}`);
    const headers: Record<string, string> = {};
    probe.headers.forEach((v, k) => {
      if (!["content-length", "date", "connection", "keep-alive", "transfer-encoding"].includes(k)) headers[k] = v;
    });
    await fetch(`${rawBase}/__configure`, { method: "POST", body: JSON.stringify({ status: probe.status, headers, body: probeBody }) });
    const peerWorkload = { ...w, path: w.path.replace(/^\/stubs\/[^/]+/, "") };
    const targets: Target[] = [
      { url: base, pid: () => server.pid!, workload: w, warmUps: 1 },
      { url: rawBase, pid: () => raw.pid!, workload: w, warmUps: 1 },
      ...peersReady.map((peer) => ({ url: peer.url, pid: () => peer.pid, workload: peerWorkload, warmUps: 3 })),
    ];
    const [ours, theirs, ...peerResults] = await interleaved(targets);
    results[w.name] = ours.rps;
    toRaw[w.name] = ours.rps / theirs.rps;
    rows.push(
      `${w.name.padEnd(22)} ${rpsText(ours)}  p50 ${String(ours.p50).padStart(4)} ms  p99 ${String(ours.p99).padStart(4)} ms | raw ${rpsText(theirs)}  p99 ${String(theirs.p99).padStart(4)} ms | ratio ${(ours.rps / theirs.rps).toFixed(2)} | CPU/req ${ours.cpuUs.toFixed(0)} µs vs raw ${theirs.cpuUs.toFixed(0)} µs (${(theirs.cpuUs / ours.cpuUs).toFixed(2)})${troubleText(ours)}`,
    );
    console.log(rows[rows.length - 1]);
    peersReady.forEach((peer, i) => {
      const their = peerResults[i];
      peerRows.push(`${w.name.padEnd(22)} ${peer.name.padEnd(8)} ${rpsText(their)}  p99 ${String(their.p99).padStart(5)} ms | ours ${(ours.rps / their.rps).toFixed(2)}× ${peer.name}${troubleText(their)}`);
      console.log(peerRows[peerRows.length - 1]);
    });
    if (w.name.startsWith("W5")) {
      // W5 against W1 itself, interleaved in the same minutes: the machine's drift cancels out.
      const w1 = workloads[0];
      const [among, alone] = await interleaved([
        { url: base, pid: () => server.pid!, workload: w, warmUps: 0 },
        { url: base, pid: () => server.pid!, workload: w1, warmUps: 1 },
      ]);
      w5AgainstW1 = `W5/W1 ratio, interleaved runs: ${(among.rps / alone.rps).toFixed(2)} (${rpsText(among)} vs ${rpsText(alone)}; CPU/req ${among.cpuUs.toFixed(0)} vs ${alone.cpuUs.toFixed(0)} µs)`;
      console.log(w5AgainstW1);
    }
  }
  let pickUp = "";
  if (!only || only.includes("G1")) {
    const g1 = await benchG1(api, env, profile);
    rows.push(g1.row);
    console.log(g1.row);
    pickUp = g1.pickUp;
  }
  if (!only || only.includes("Q1")) {
    const q1 = await benchQ1(api, root, env, profile);
    rows.push(q1);
    console.log(q1);
  }
  if (!only || only.includes("Q2")) {
    const q2 = await benchQ2({ databaseUrl, seconds: DURATION, rounds: ROUNDS_USED, env });
    rows.push(q2);
    console.log(q2);
  }
  if (!only || only.includes("T1")) {
    // The API tester's runner in this process, against the W1 stub.
    const t1 = await benchT1(base + workloads[0].path, ROUNDS_USED);
    rows.push(t1);
    console.log(t1);
  }
  if (!only || only.includes("P1")) {
    // The k6 engine in this process (and its threads) against autocannon, both on a raw server of P1's own.
    const p1 = await benchP1(DURATION, ROUNDS_USED);
    rows.push(p1);
    console.log(p1);
  }
  console.log("\nworkload               ours                                  | raw node (G1: plain grpc-js; Q1: plain amqplib; Q2: plain kafkajs; P1: autocannon) | ours/raw");
  for (const r of rows) console.log(r);
  if (peerRows.length) {
    console.log("\nworkload               peer        req/s   p99       | ours / peer");
    for (const r of peerRows) console.log(r);
  }
  const w5 = "W5 W1 + 10,000 mocks";
  const w1 = "W1 one GET mock";
  // W5 runs minutes after W1; on a shared VM the machine's speed drifts in between, so the ratio of their ratios to raw
  // (each measured alongside its raw run) is printed too, and W5 against W1 in alternating runs.
  if (results[w5] !== undefined && results[w1] !== undefined) console.log(`W5/W1 ratio: ${(results[w5] / results[w1]).toFixed(2)} by req/s; ${(toRaw[w5] / toRaw[w1]).toFixed(2)} by ratio to raw`);
  if (w5AgainstW1) console.log(w5AgainstW1);
  if (pickUp) console.log(pickUp);
  console.log(`batch create of 10,000 mocks: ${(batchMs / 1000).toFixed(2)} s`);
  console.log(`RSS of the stub server (server.ts): ${idleRss} MB when ready (no mocks), ${rssMb(server.pid!, "VmRSS")} MB at the end (10,000+ mocks), ${peakRssMb(server.pid!)} MB peak`);
  if (uiPid) console.log(`RSS of the Next.js process (UI and API, no stub traffic): ${rssMb(uiPid, "VmRSS")} MB at the end, ${peakRssMb(uiPid)} MB peak`);
  console.log(`(${CONNECTIONS} connections; median (min–max) of ${ROUNDS_USED} interleaved rounds of ${DURATION} s per server, each server warmed on each workload first (2 s; peers 3 × 2 s); ${WRK ? "wrk -t1" : "autocannon in this process"}, ${new Date().toISOString()})`);

  server.kill("SIGTERM");
  raw.kill("SIGTERM");
  for (const peer of peers) peer.stop();
  await new Promise((r) => server.once("exit", r));
  await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await admin.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
