// P1 load generator: requests/s the k6 engine (runLoadTest, one process)
// drives against a raw node:http server with a trivial script, as a ratio to
// autocannon driving the same server in the same run. Interleaved rounds;
// medians with min–max. `npx tsx bench/perf/p1.ts [seconds] [vus] [rounds]`,
// and the P1 line of `npm run bench`.
import { spawn } from "node:child_process";
import autocannon from "autocannon";
import { runLoadTest } from "../../server/perf/k6/engine";

export interface P1Result {
  ours: number[];
  autocannon: number[];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** The yardstick server in a process of its own, so it does not share an event loop with the load generator. */
async function startRaw(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ["-e", `require("http").createServer((q,s)=>{q.resume();s.writeHead(200,{"content-type":"application/json","content-length":11});s.end('{"ok":true}')}).listen(0,"127.0.0.1",function(){process.stdout.write(String(this.address().port)+"\\n")})`], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve) => child.stdout.once("data", (d) => resolve(String(d).trim())));
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill() };
}

export async function measureP1(seconds = 5, vus = 50, rounds = 3): Promise<P1Result> {
  process.env.OUTBOUND_ALLOW_PRIVATE = "1";
  const raw = await startRaw();
  const out: P1Result = { ours: [], autocannon: [] };
  const script = `import http from 'k6/http';\nexport default function () { http.get(__ENV.URL); }`;
  // Warm both on the server once.
  await runLoadTest({ source: script, env: { URL: raw.url }, options: { vus, duration: "1s" } });
  await autocannon({ url: raw.url, connections: vus, duration: 1 });
  for (let i = 0; i < rounds; i++) {
    const r = await runLoadTest({ source: script, env: { URL: raw.url }, options: { vus, duration: `${seconds}s` } });
    out.ours.push(r.summary.metrics.http_reqs.values.count / (r.durationMs / 1000));
    const a = await autocannon({ url: raw.url, connections: vus, duration: seconds });
    out.autocannon.push(a.requests.average);
  }
  raw.stop();
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [seconds, vus, rounds] = process.argv.slice(2).map(Number);
  const r = await measureP1(seconds || 5, vus || 50, rounds || 3);
  const f = (xs: number[]) => `${(median(xs) / 1000).toFixed(1)}k (${(Math.min(...xs) / 1000).toFixed(1)}–${(Math.max(...xs) / 1000).toFixed(1)}k)`;
  console.log(`P1 load generator: ours ${f(r.ours)} req/s, autocannon ${f(r.autocannon)} req/s, ratio ${(median(r.ours) / median(r.autocannon)).toFixed(2)}×`);
  process.exit(0);
}
