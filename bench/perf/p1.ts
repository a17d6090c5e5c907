// P1 load generator: requests/s the k6 engine (runLoadTest, this process and
// its threads) drives against a raw node:http server with a trivial script
// (`http.get(url)` in each iteration), as a ratio to autocannon driving the
// same server with as many connections as VUs in the same run. Interleaved
// rounds; medians with min–max, and the CPU this process spent per request
// (steadier than req/s on a shared machine). The target is 0.5× autocannon.
// `npx tsx bench/perf/p1.ts [seconds] [vus] [rounds]`, and the P1 line of
// `npm run bench` (BENCH_ONLY=P1 runs it alone).
// The engine's default runs the VUs in shared isolates; `LOAD_VU_MODE=isolate`
// measures the isolate-per-VU fallback (a script the async rewrite refuses).
import { spawn } from "node:child_process";
import autocannon from "autocannon";
import { runLoadTest } from "../../server/perf/k6/engine";

export const P1_TARGET = 0.5;

export interface P1Result {
  ours: number[];
  autocannon: number[];
  /** Microseconds of this process's CPU per request, per round. */
  oursCpuUs: number[];
  autocannonCpuUs: number[];
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The yardstick server in a process of its own, so it does not share an event loop with the load generator. */
export async function startRaw(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ["-e", `require("http").createServer((q,s)=>{q.resume();s.writeHead(200,{"content-type":"application/json","content-length":11});s.end('{"ok":true}')}).listen(0,"127.0.0.1",function(){process.stdout.write(String(this.address().port)+"\\n")})`], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve) => child.stdout.once("data", (d) => resolve(String(d).trim())));
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill() };
}

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

export async function measureP1(seconds = 5, vus = 50, rounds = 3): Promise<P1Result> {
  process.env.OUTBOUND_ALLOW_PRIVATE = "1";
  const raw = await startRaw();
  const out: P1Result = { ours: [], autocannon: [], oursCpuUs: [], autocannonCpuUs: [] };
  const script = `import http from 'k6/http';\nexport default function () { http.get(__ENV.URL); }`;
  try {
    // Warm both on the server once (the engine's isolate runtime bundle, the server's JIT).
    await runLoadTest({ source: script, env: { URL: raw.url }, options: { vus, duration: "2s" } });
    await autocannon({ url: raw.url, connections: vus, duration: 2 });
    for (let i = 0; i < rounds; i++) {
      let cpu = cpuUs();
      const r = await runLoadTest({ source: script, env: { URL: raw.url }, options: { vus, duration: `${seconds}s` } });
      const n = r.summary.metrics.http_reqs.values.count;
      out.oursCpuUs.push((cpuUs() - cpu) / n);
      out.ours.push(n / (r.durationMs / 1000));
      cpu = cpuUs();
      const a = await autocannon({ url: raw.url, connections: vus, duration: seconds });
      // bench/autocannon.d.ts types only the average; autocannon reports the count as requests.total.
      const total = (a.requests as { total?: number }).total ?? a.requests.average * seconds;
      out.autocannonCpuUs.push((cpuUs() - cpu) / total);
      out.autocannon.push(a.requests.average);
    }
  } finally {
    raw.stop();
  }
  return out;
}

/** The P1 line of the benchmark table. */
export async function benchP1(seconds: number, rounds: number, vus = 50): Promise<string> {
  const r = await measureP1(seconds, vus, rounds);
  const f = (xs: number[]) => `${(median(xs) / 1000).toFixed(1)}k req/s (${(Math.min(...xs) / 1000).toFixed(1)}–${(Math.max(...xs) / 1000).toFixed(1)}k)`;
  const ratio = median(r.ours) / median(r.autocannon);
  return `${`P1 k6 load, ${vus} VUs`.padEnd(22)} ${f(r.ours)} | autocannon ${f(r.autocannon)} | ratio ${ratio.toFixed(2)}× (target ${P1_TARGET}×) | CPU/req ${median(r.oursCpuUs).toFixed(0)} µs vs autocannon ${median(r.autocannonCpuUs).toFixed(0)} µs (${seconds} s rounds)`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [seconds, vus, rounds] = process.argv.slice(2).map(Number);
  console.log(await benchP1(seconds || 5, rounds || 3, vus || 50));
}
