import { describe, expect, it } from "vitest";
import { useTarget } from "@/server/testing/load-target";
import { LoadInputError, runLoadTest } from "./engine";

const target = useTarget((s) => (s.path.startsWith("/slow") ? { body: "slow", delayMs: 300 } : s.path.startsWith("/error") ? { status: 500, body: "boom" } : undefined));

describe("runLoadTest", () => {
  it("constant VUs for a duration: k6's metrics, checks, thresholds and summary", async () => {
    const before = target.seen.length;
    const result = await runLoadTest({
      source: `import http from 'k6/http';
import { check, sleep } from 'k6';
export const options = { vus: 3, duration: '2s', thresholds: { http_req_failed: ['rate<0.01'], http_req_duration: ['p(95)<250'], checks: ['rate==1'] } };
export default function () {
  const r = http.get(__ENV.BASE + '/ok');
  check(r, { 'status 200': (x) => x.status === 200 });
  sleep(0.05);
}`,
      env: { BASE: target.base },
    });
    expect(result.status).toBe("passed");
    const m = result.summary.metrics;
    const reqs = m.http_reqs.values.count;
    expect(reqs).toBe(target.seen.length - before);
    // 3 VUs × ~2 s / ~50 ms per iteration.
    expect(reqs).toBeGreaterThan(30);
    expect(m.iterations.values.count).toBe(reqs);
    expect(m.http_req_failed.values.rate).toBe(0);
    expect(m.checks.values).toMatchObject({ rate: 1, passes: reqs, fails: 0 });
    expect(m.http_req_duration.thresholds).toEqual({ "p(95)<250": { ok: true } });
    expect(Object.keys(m.http_req_duration.values)).toEqual(["avg", "min", "med", "max", "p(90)", "p(95)"]);
    expect(m.data_received.values.count).toBeGreaterThan(0);
    expect(m.vus_max.values.value).toBe(3);
    expect(result.summary.root_group.checks[0]).toMatchObject({ name: "status 200", passes: reqs, fails: 0 });
    expect(result.summaryText).toMatch(/✓ status 200/);
    expect(result.summaryText).toMatch(/✓ http_req_duration\.+: avg=/);
    expect(result.series.length).toBeGreaterThanOrEqual(2);
    expect(result.series.reduce((n, p) => n + p.rps, 0)).toBe(reqs);
  });

  it("a crossed threshold fails the run; abortOnFail stops it early", async () => {
    const failed = await runLoadTest({
      source: `import http from 'k6/http';
export const options = { iterations: 5, thresholds: { http_req_failed: ['rate<0.5'] } };
export default function () { http.get(__ENV.BASE + '/error'); }`,
      env: { BASE: target.base },
    });
    expect(failed.status).toBe("failed");
    expect(failed.thresholds).toEqual([{ key: "http_req_failed", source: "rate<0.5", ok: false, actual: 1 }]);
    expect(failed.summaryText).toMatch(/✗ http_req_failed\.+: 100\.00%/);

    const t0 = Date.now();
    const aborted = await runLoadTest({
      source: `import http from 'k6/http';
export const options = { vus: 2, duration: '20s', thresholds: { http_req_failed: [{ threshold: 'rate<0.5', abortOnFail: true }] } };
export default function () { http.get(__ENV.BASE + '/error'); }`,
      env: { BASE: target.base },
    });
    expect(aborted.status).toBe("aborted");
    expect(aborted.reason).toMatch(/abortOnFail/);
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it("an unhandled exception marks the run failed and lists the error", async () => {
    const r = await runLoadTest({ source: `export const options = { iterations: 3 };\nexport default function () { throw new Error('bad data'); }` });
    expect(r.status).toBe("failed");
    expect(r.errors[0]).toMatchObject({ count: 3, message: expect.stringMatching(/bad data/) });
  });

  it("setup data and teardown; a failing setup stops the run before any iteration", async () => {
    const ok = await runLoadTest({
      source: `import http from 'k6/http';
export const options = { vus: 2, iterations: 4 };
export function setup() { return { path: '/ok' }; }
export default function (data) { http.get(__ENV.BASE + data.path); }
export function teardown(data) { console.log('teardown', data.path); }`,
      env: { BASE: target.base },
    });
    expect(ok.status).toBe("passed");
    expect(ok.summary.metrics.http_reqs.values.count).toBe(4);
    expect(ok.logs).toEqual(["info [VU 0] teardown /ok"]);

    const bad = await runLoadTest({ source: `export function setup() { throw new Error('no token'); }\nexport default function () {}` });
    expect(bad.status).toBe("failed");
    expect(bad.reason).toMatch(/setup\(\) failed: .*no token/);
    expect(bad.summary.metrics.iterations).toBeUndefined();
  });

  it("a constant arrival rate holds its target within 5 %", async () => {
    const r = await runLoadTest({
      source: `import http from 'k6/http';
export const options = { scenarios: { steady: { executor: 'constant-arrival-rate', rate: 50, timeUnit: '1s', duration: '3s', preAllocatedVUs: 5, maxVUs: 20 } } };
export default function () { http.get(__ENV.BASE + '/ok'); }`,
      env: { BASE: target.base },
    });
    expect(r.status).toBe("passed");
    const n = r.summary.metrics.iterations.values.count;
    expect(Math.abs(n - 150) / 150).toBeLessThanOrEqual(0.05);
    expect(r.summary.metrics.dropped_iterations).toBeUndefined();
  });

  it("ramping VUs follow the stages; scenarios tag their metrics", async () => {
    const peaks: number[] = [];
    const r = await runLoadTest({
      source: `import http from 'k6/http'; import { sleep } from 'k6';
export const options = {
  scenarios: {
    ramp: { executor: 'ramping-vus', startVUs: 0, stages: [{ duration: '1s', target: 4 }, { duration: '1s', target: 0 }], gracefulRampDown: '1s', tags: { kind: 'ramp' } },
  },
  thresholds: { 'http_reqs{kind:ramp}': ['count>5'] },
};
export default function () { http.get(__ENV.BASE + '/ok'); sleep(0.05); }`,
      env: { BASE: target.base },
      onProgress: (p) => peaks.push(p.vus),
    });
    expect(r.status).toBe("passed");
    expect(r.thresholds[0]).toMatchObject({ key: "http_reqs{kind:ramp}", ok: true });
    expect(Math.max(...peaks)).toBeGreaterThanOrEqual(2);
    expect(r.summary.metrics.vus_max.values.value).toBe(4);
  });

  it("a stop keeps what was measured", async () => {
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 800);
    const r = await runLoadTest({ source: `import http from 'k6/http';\nexport const options = { vus: 2, duration: '30s' };\nexport default function () { http.get(__ENV.BASE + '/slow'); }`, env: { BASE: target.base }, signal: ctl.signal });
    expect(r.status).toBe("stopped");
    expect(r.durationMs).toBeLessThan(3000);
    expect(r.summary.metrics.http_reqs.values.count).toBeGreaterThan(0);
  });

  it("a runaway iteration is stopped by its CPU limit", async () => {
    const r = await runLoadTest({ source: `export const options = { iterations: 1 };\nexport default function () { for (;;) {} }`, limits: { iterationCpuMs: 300 } });
    expect(r.status).toBe("failed");
    expect(r.errors[0].message).toMatch(/CPU limit/);
  });

  it("bad input is refused before any VU runs, naming the place", async () => {
    await expect(runLoadTest({ source: `export default function () {\n  let = ;\n}` })).rejects.toMatchObject({ location: { field: "script", line: 2 } });
    await expect(runLoadTest({ source: `import grpc from 'k6/net/grpc';\nexport default function () {}` })).rejects.toMatchObject({ location: { module: "k6/net/grpc" } });
    await expect(runLoadTest({ source: `export const options = { thresholds: { http_req_duration: ['p95<1'] } };\nexport default function () {}` })).rejects.toThrow(/p95<1/);
    await expect(runLoadTest({ source: `export const options = { vus: 2, duration: 'soon' };\nexport default function () {}` })).rejects.toThrow(LoadInputError);
    await expect(runLoadTest({ source: `export const options = { scenarios: { a: { executor: 'externally-controlled' } } };\nexport default function () {}` })).rejects.toThrow(/externally-controlled is not supported/);
  });
});
