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
// alone). "engine" is today's runLoadTest for reference. With
// NO_AUTOCANNON=1 only the configs run (for a CPU profile of them alone:
// `node --import tsx --cpu-prof … multi-vu.ts 5 50 1 batched:real:1x1`).
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
  const m = /^(batched|direct):(real|fake):(w?)(\d+)x(\d+)$/.exec(text);
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
  const cpu = cpuUs();
  const t0 = performance.now();
  for (const r of runners) r.start();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const counts = await Promise.all(runners.map((r) => r.counts()));
  const elapsed = (performance.now() - t0) / 1000;
  const spent = cpuUs() - cpu;
  await Promise.all(runners.map((r) => r.stop()));
  for (const r of runners) r.close();
  const sum = (k: keyof PartCounts) => counts.reduce((a, x) => a + x[k], 0);
  const requests = sum("requests");
  return { rps: requests / elapsed, cpuUsPerReq: spent / requests, perPost: requests / Math.max(1, sum("posts")), perDelivery: requests / Math.max(1, sum("deliveries")) };
}

async function runEngine(vus: number, seconds: number, url: string): Promise<Round> {
  const script = `import http from 'k6/http';\nexport default function () { http.get(__ENV.URL); }`;
  const cpu = cpuUs();
  const r = await runLoadTest({ source: script, env: { URL: url }, options: { vus, duration: `${seconds}s` } });
  const n = r.summary.metrics.http_reqs.values.count;
  return { rps: n / (r.durationMs / 1000), cpuUsPerReq: (cpuUs() - cpu) / n, perPost: 1, perDelivery: 1 };
}

async function runAutocannon(vus: number, seconds: number, url: string): Promise<Round> {
  const cpu = cpuUs();
  const a = await autocannon({ url, connections: vus, duration: seconds });
  const total = (a.requests as { total?: number }).total ?? a.requests.average * seconds;
  return { rps: a.requests.average, cpuUsPerReq: (cpuUs() - cpu) / total, perPost: 1, perDelivery: 1 };
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
    console.error(`  ${name.padEnd(20)} ${(r.rps / 1000).toFixed(1)}k req/s, ${r.cpuUsPerReq.toFixed(0)} µs CPU/req, ${r.perPost.toFixed(1)} req/post, ${r.perDelivery.toFixed(1)} req/delivery`);
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
      if (withAutocannon) note("autocannon", await runAutocannon(vus, seconds, raw.url));
      for (const c of configs) note(c === "engine" ? "engine" : c.name, c === "engine" ? await runEngine(vus, seconds, raw.url) : await runConfig(c, vus, seconds, raw.url, code));
    }
  } finally {
    raw.stop();
  }
  const ac = median((results.get("autocannon") ?? []).map((r) => r.rps)) ?? NaN;
  const k = (x: number) => `${(x / 1000).toFixed(1)}k`;
  console.log(`${vus} VUs, ${seconds} s rounds, median of ${rounds} (min–max); ratio = median / autocannon's median`);
  for (const [name, rs] of results) {
    const rps = rs.map((r) => r.rps);
    console.log(
      `${name.padEnd(20)} ${k(median(rps)).padStart(6)} req/s (${k(Math.min(...rps))}–${k(Math.max(...rps))})  ratio ${(median(rps) / ac).toFixed(2)}×  CPU ${median(rs.map((r) => r.cpuUsPerReq)).toFixed(0)} µs/req  batch ${median(rs.map((r) => r.perPost)).toFixed(1)} up / ${median(rs.map((r) => r.perDelivery)).toFixed(1)} down`,
    );
  }
}

await main();
