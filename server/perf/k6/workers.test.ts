import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLoadTest } from "./engine";

let server: http.Server;
let base: string;
let hits = 0;
const vusSeen = new Set<string>();

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_PRIVATE = "1";
  server = http.createServer((req, res) => {
    hits++;
    req.resume();
    const url = new URL(req.url ?? "/", "http://x");
    if (url.searchParams.has("vu")) vusSeen.add(url.searchParams.get("vu")!);
    if (url.pathname === "/error") {
      res.writeHead(500);
      return res.end("boom");
    }
    if (url.pathname === "/slow") return void setTimeout(() => res.end("slow"), 200);
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"ok":true}');
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => server.close());

describe("runLoadTest over worker threads", () => {
  it("counts every request once, numbers VUs uniquely and gives each the setup data and SharedArrays; thresholds read the whole", async () => {
    hits = 0;
    vusSeen.clear();
    const progress: number[] = [];
    const r = await runLoadTest({
      source: `import http from 'k6/http';
import { check, group } from 'k6';
import { Counter } from 'k6/metrics';
import { SharedArray } from 'k6/data';
const words = new SharedArray('words', () => ['alpha', 'beta']);
const calls = new Counter('calls');
export const options = {
  scenarios: { a: { executor: 'constant-vus', vus: 16, duration: '1500ms', tags: { kind: 'steady' } } },
  thresholds: { http_req_failed: ['rate<0.01'], 'http_req_duration{kind:steady}': ['p(95)<5000'], checks: ['rate==1'], calls: ['count>0'] },
};
export function setup() { return { token: 'abc' }; }
export default function (data) {
  group('api', () => {
    const res = http.get(__ENV.BASE + '/ok?vu=' + __VU);
    check(res, { 'ok': (x) => x.status === 200, 'setup data': () => data.token === 'abc', 'shared array': () => words[1] === 'beta' });
    calls.add(1, { word: words[__VU % 2] });
  });
}`,
      env: { BASE: base },
      workers: 2,
      onProgress: (p) => progress.push(p.rps),
    });
    expect(r.status).toBe("passed");
    const m = r.summary.metrics;
    const reqs = m.http_reqs.values.count;
    expect(reqs).toBeGreaterThan(16);
    expect(reqs).toBe(hits);
    expect(m.iterations.values.count).toBe(reqs);
    expect(m.calls.values.count).toBe(reqs);
    expect(m.checks.values).toMatchObject({ rate: 1, passes: reqs * 3, fails: 0 });
    expect(r.summary.root_group.groups[0].checks.map((c) => c.passes)).toEqual([reqs, reqs, reqs]);
    expect([...vusSeen].map(Number).sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, i) => i + 1));
    expect(m.vus_max.values.value).toBe(16);
    expect(r.thresholds.every((t) => t.ok)).toBe(true);
    expect(r.thresholds.find((t) => t.key === "http_req_duration{kind:steady}")?.actual).not.toBeNull();
    expect(r.series.reduce((n, p) => n + p.rps, 0)).toBe(reqs);
    expect(progress.reduce((n, x) => n + x, 0)).toBe(reqs);
  });

  it.each([1, 2])("runs exactly the iterations of shared-iterations and per-vu-iterations (%i thread(s))", async (workers) => {
    hits = 0;
    const r = await runLoadTest({
      source: `import http from 'k6/http';
export const options = { scenarios: {
  shared: { executor: 'shared-iterations', vus: 16, iterations: 101, exec: 'one' },
  each: { executor: 'per-vu-iterations', vus: 16, iterations: 3, exec: 'one' },
} };
export function one() { http.get(__ENV.BASE + '/ok'); }`,
      env: { BASE: base },
      workers,
    });
    expect(r.status).toBe("passed");
    expect(r.summary.metrics.iterations.values.count).toBe(101 + 48);
    expect(hits).toBe(101 + 48);
  });

  it("a threshold with abortOnFail stops every worker; so does the caller's stop, keeping what was measured", async () => {
    const aborted = await runLoadTest({
      source: `import http from 'k6/http';
export const options = { vus: 16, duration: '30s', thresholds: { http_req_failed: [{ threshold: 'rate<0.5', abortOnFail: true }] } };
export default function () { http.get(__ENV.BASE + '/error'); }`,
      env: { BASE: base },
      workers: 2,
    });
    expect(aborted.status).toBe("aborted");
    expect(aborted.reason).toMatch(/abortOnFail/);
    expect(aborted.durationMs).toBeLessThan(20_000);

    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 1200);
    const stopped = await runLoadTest({
      source: `import http from 'k6/http';\nexport const options = { vus: 16, duration: '30s' };\nexport default function () { http.get(__ENV.BASE + '/slow'); }`,
      env: { BASE: base },
      workers: 2,
      signal: ctl.signal,
    });
    expect(stopped.status).toBe("stopped");
    expect(stopped.durationMs).toBeLessThan(20_000);
    expect(stopped.summary.metrics.http_reqs.values.count).toBeGreaterThan(0);
  });

  it.each([1, 2])("test.abort() in one VU aborts the run (%i thread(s))", async (workers) => {
    const r = await runLoadTest({
      source: `import exec from 'k6/execution'; import { sleep } from 'k6';
export const options = { vus: 16, duration: '30s' };
export default function () { if (__VU === 16) exec.test.abort('enough'); sleep(0.05); }`,
      workers,
    });
    expect(r.status).toBe("aborted");
    expect(r.reason).toBe("test.abort(): enough");
  });
});
