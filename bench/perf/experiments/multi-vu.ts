// Feasibility experiment for P1 (issue 17): several VUs per isolate, each VU
// its own context, the script already asynchronous (what a source transform
// would produce: `await http.get(url)` in an async default function), HTTP
// an asynchronous host call served by undici on the host's event loop, and
// each VU's iteration loop inside the isolate. Measured against autocannon on
// p1.ts's raw node:http server in the same run, rounds interleaved.
//
//   npx tsx bench/perf/experiments/multi-vu.ts [seconds] [vus] [rounds] [config…]
//
// A config is mode:http:threads×isolates, e.g. batched:real:1x1 (one isolate
// of 50 contexts in this thread), batched:real:w2x1 (two worker threads, one
// isolate of 25 each), direct:fake:1x1. mode: batched (one crossing per batch
// each way) or direct (an async host call per request); http: real (the
// engine's LoadHttpClient) or fake (an instant answer: the crossing cost
// alone); host:real:1x1 has no isolate at all (50 async loops calling the
// client on the host: the floor); minimal:real:1x1 is batched with the least
// the isolate can do per request (its lower bound). "engine" is today's runLoadTest for reference. With
// NO_AUTOCANNON=1 only the configs run (for a CPU profile of them alone:
// `node --import tsx --cpu-prof … multi-vu.ts 5 50 1 batched:real:1x1`).
import { readdirSync, readFileSync } from "node:fs";
import { Worker } from "node:worker_threads";
import autocannon from "autocannon";
import { build } from "esbuild";
import { runLoadTest } from "../../../server/perf/k6/engine";
import { median, startRaw } from "../p1";
import { IsolatePart, type PartConfig, type PartCounts } from "./multi-vu/part";

interface Config {
  name: string;
  mode: PartConfig["mode"];
  http: PartConfig["http"];
  workers: boolean;
  threads: number;
  isolates: number;
}

function parseConfig(text: string): Config | "engine" {
  if (text === "engine") return "engine";
  const m = /^(batched|direct|host|minimal):(real|lean|fake):(w?)(\d+)x(\d+)$/.exec(text);
  if (!m) throw new Error(`bad config "${text}" (mode:http:[w]threads x isolates, or engine)`);
  return { name: text, mode: m[1] as Config["mode"], http: m[2] as Config["http"], workers: m[3] === "w", threads: Number(m[4]), isolates: Number(m[5]) };
}

const DEFAULT_CONFIGS = ["engine", "batched:real:1x1", "batched:real:1x2", "batched:real:w2x1", "direct:real:1x1", "batched:fake:1x1", "batched:fake:w2x1", "direct:fake:1x1"];

async function bundle(entry: string, format: "iife" | "cjs"): Promise<string> {
  const r = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format,
    platform: format === "iife" ? "neutral" : "node",
    mainFields: ["main"],
    target: format === "iife" ? "es2022" : "node20",
    packages: format === "cjs" ? "external" : undefined,
    logLevel: "silent",
  });
  return r.outputFiles[0].text;
}

/** A part wherever it runs: this thread or a worker of its own. */
interface Runner {
  prepare(): Promise<void>;
  start(): void;
  counts(): Promise<PartCounts>;
  stop(): Promise<void>;
  close(): void;
}

function localRunner(config: PartConfig): Runner {
  const part = new IsolatePart(config);
  return {
    prepare: () => part.prepare(),
    start: () => part.start(),
    counts: async () => ({ ...part.counts }),
    stop: async () => {
      part.stop();
      await part.ended;
    },
    close: () => part.dispose(),
  };
}

function workerRunner(code: string, config: PartConfig): Runner {
  // eval'd from the repository root, so the bundle's require() of packages resolves there.
  const worker = new Worker(code, { eval: true, workerData: { config } });
  const next = (type: string) => new Promise<{ counts?: PartCounts }>((resolve) => {
    const on = (m: { type: string; counts?: PartCounts }) => {
      if (m.type !== type) return;
      worker.off("message", on);
      resolve(m);
    };
    worker.on("message", on);
  });
  return {
    async prepare() {
      const ready = next("prepared");
      worker.postMessage({ type: "prepare" });
      await ready;
    },
    start: () => worker.postMessage({ type: "start" }),
    async counts() {
      const c = next("counts");
      worker.postMessage({ type: "counts" });
      return (await c).counts!;
    },
    async stop() {
      const ended = next("ended");
      worker.postMessage({ type: "stop" });
      await ended;
    },
    close: () => worker.postMessage({ type: "close" }),
  };
}

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

interface Round {
  rps: number;
  cpuUsPerReq: number;
  perPost: number;
  perDelivery: number;
  /** µs of CPU per request by thread name (Linux), where it went. */
  threads?: Record<string, number>;
}

/** CPU (µs) of this process's threads so far, summed by thread name; empty where /proc is missing. */
function threadCpu(): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync("/proc/self/task")) {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
      // Every thread is called "node": the event loop's is the one whose id is the process's.
      const name = Number(tid) === process.pid ? "event loop" : "other threads";
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime and stime, fields 14 and 15 of stat (11 and 12 after the name), in clock ticks of 10 ms.
      const us = (Number(fields[11]) + Number(fields[12])) * 10_000;
      out.set(name, (out.get(name) ?? 0) + us);
    }
  } catch {}
  return out;
}

/** Per request, by thread name; threads that ended meanwhile (workers) are missing. */
function threadsPerRequest(before: Map<string, number>, after: Map<string, number>, requests: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, us] of after) {
    const d = us - (before.get(name) ?? 0);
    if (d > 0) out[name] = d / requests;
  }
  return out;
}

async function runConfig(c: Config, vus: number, seconds: number, url: string, code: { hub: string; vu: string; worker: string }): Promise<Round> {
  const parts = c.threads * c.isolates;
  const runners: Runner[] = [];
  for (let p = 0; p < c.threads; p++) {
    const share = Array.from({ length: c.isolates }, (_, i) => p * c.isolates + i);
    for (const index of share) {
      const n = Math.floor(vus / parts) + (index < vus % parts ? 1 : 0);
      const config: PartConfig = { vus: n, firstVu: 1 + index * Math.ceil(vus / parts), url, mode: c.mode, http: c.http, hubCode: code.hub, vuCode: code.vu };
      // One worker per isolate in worker mode (threads × isolates workers; configs here use one isolate per worker).
      runners.push(c.workers ? workerRunner(code.worker, config) : localRunner(config));
    }
  }
  await Promise.all(runners.map((r) => r.prepare()));
  const threads = threadCpu();
  const cpu = cpuUs();
  const t0 = performance.now();
  for (const r of runners) r.start();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const counts = await Promise.all(runners.map((r) => r.counts()));
  const elapsed = (performance.now() - t0) / 1000;
  const spent = cpuUs() - cpu;
  const threadsAfter = threadCpu();
  await Promise.all(runners.map((r) => r.stop()));
  for (const r of runners) r.close();
  const sum = (k: keyof PartCounts) => counts.reduce((a, x) => a + x[k], 0);
  const requests = sum("requests");
  return { rps: requests / elapsed, cpuUsPerReq: spent / requests, perPost: requests / Math.max(1, sum("posts")), perDelivery: requests / Math.max(1, sum("deliveries")), threads: threadsPerRequest(threads, threadsAfter, requests) };
}

async function runEngine(vus: number, seconds: number, url: string): Promise<Round> {
  const script = `import http from 'k6/http';\nexport default function () { http.get(__ENV.URL); }`;
  const threads = threadCpu();
  const cpu = cpuUs();
  const r = await runLoadTest({ source: script, env: { URL: url }, options: { vus, duration: `${seconds}s` } });
  const n = r.summary.metrics.http_reqs.values.count;
  return { rps: n / (r.durationMs / 1000), cpuUsPerReq: (cpuUs() - cpu) / n, perPost: 1, perDelivery: 1, threads: threadsPerRequest(threads, threadCpu(), n) };
}

async function runAutocannon(vus: number, seconds: number, url: string): Promise<Round> {
  const cpu = cpuUs();
  const a = await autocannon({ url, connections: vus, duration: seconds });
  const total = (a.requests as { total?: number }).total ?? a.requests.average * seconds;
  return { rps: a.requests.average, cpuUsPerReq: (cpuUs() - cpu) / total, perPost: 1, perDelivery: 1 };
}

/** A pause between measurements, so what the last one left behind (sockets closing, isolates and workers going away, garbage) does not land on the next. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1000));
}

async function main() {
  const args = process.argv.slice(2);
  const [seconds, vus, rounds] = [Number(args[0]) || 3, Number(args[1]) || 50, Number(args[2]) || 3];
  const configs = (args.length > 3 ? args.slice(3) : DEFAULT_CONFIGS).map(parseConfig);
  process.env.OUTBOUND_ALLOW_PRIVATE = "1";
  const dir = import.meta.dirname;
  const code = { hub: await bundle(`${dir}/multi-vu/hub.ts`, "iife"), vu: await bundle(`${dir}/multi-vu/vu-runtime.ts`, "iife"), worker: await bundle(`${dir}/multi-vu/worker.ts`, "cjs") };
  const raw = await startRaw();
  const results = new Map<string, Round[]>();
  const note = (name: string, r: Round) => {
    results.set(name, [...(results.get(name) ?? []), r]);
    const threads = Object.entries(r.threads ?? {}).sort((a, b) => b[1] - a[1]).map(([t, us]) => `${t} ${us.toFixed(1)}`).join(", ");
    console.error(`  ${name.padEnd(20)} ${(r.rps / 1000).toFixed(1)}k req/s, ${r.cpuUsPerReq.toFixed(0)} µs CPU/req, ${r.perPost.toFixed(1)} req/post, ${r.perDelivery.toFixed(1)} req/delivery; µs/req by thread: ${threads}`);
  };
  try {
    const withAutocannon = process.env.NO_AUTOCANNON !== "1";
    // Warm-up: the server's JIT, ours.
    if (withAutocannon) await runAutocannon(vus, 2, raw.url);
    for (const c of configs) {
      if (c === "engine") await runEngine(vus, 2, raw.url);
      else await runConfig(c, vus, 2, raw.url, code);
    }
    for (let round = 0; round < rounds; round++) {
      console.error(`round ${round + 1}`);
      if (withAutocannon) {
        await settle();
        note("autocannon", await runAutocannon(vus, seconds, raw.url));
      }
      for (const c of configs) {
        await settle();
        note(c === "engine" ? "engine" : c.name, c === "engine" ? await runEngine(vus, seconds, raw.url) : await runConfig(c, vus, seconds, raw.url, code));
      }
    }
  } finally {
    raw.stop();
  }
  const acRounds = (results.get("autocannon") ?? []).map((r) => r.rps);
  const k = (x: number) => `${(x / 1000).toFixed(1)}k`;
  console.log(`${vus} VUs, ${seconds} s rounds, median of ${rounds} (min–max); ratio: median of each round's ratio to that round's autocannon [the rounds' ratios]`);
  for (const [name, rs] of results) {
    const rps = rs.map((r) => r.rps);
    // Per round: autocannon is the yardstick most disturbed by anything else on the machine, so each round is judged against its own.
    const ratios = acRounds.length === rs.length ? rps.map((x, i) => x / acRounds[i]) : [];
    const ratio = ratios.length ? `${median(ratios).toFixed(2)}× [${ratios.map((x) => x.toFixed(2)).join(" ")}]` : "–";
    console.log(
      `${name.padEnd(20)} ${k(median(rps)).padStart(6)} req/s (${k(Math.min(...rps))}–${k(Math.max(...rps))})  ratio ${ratio}  CPU ${median(rs.map((r) => r.cpuUsPerReq)).toFixed(0)} µs/req  batch ${median(rs.map((r) => r.perPost)).toFixed(1)} up / ${median(rs.map((r) => r.perDelivery)).toFixed(1)} down`,
    );
  }
}

await main();
