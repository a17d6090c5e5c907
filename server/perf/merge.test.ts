import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLoadTest } from "./k6/engine";
import { mergeRunParts, mergeSeries } from "./merge";

let server: http.Server;
let base: string;
let hits = 0;

beforeAll(async () => {
  process.env.OUTBOUND_ALLOW_PRIVATE = "1";
  server = http.createServer((req, res) => {
    hits++;
    req.resume();
    // Every fifth request is answered wrongly, whichever part sent it.
    res.end(hits % 5 === 0 ? "no" : "ok");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const script = `import http from 'k6/http';
import { check, group } from 'k6';
export const options = { scenarios: { s: { executor: 'shared-iterations', vus: 3, iterations: 25 } }, thresholds: { http_req_duration: ['p(95)<5000'], checks: ['rate>0.99'] } };
export default function () {
  group('g', () => {
    const r = http.get(__ENV.BASE + '/ok');
    check(r, { 'said ok': (x) => x.body === 'ok' });
  });
}`;

describe("mergeRunParts", () => {
  it("two segments of one task: every request counted once, thresholds judged on the whole", async () => {
    hits = 0;
    const parts = await Promise.all([0, 1].map((index) => runLoadTest({ source: script, env: { BASE: base }, segment: { index, count: 2 } })));
    const merged = mergeRunParts(parts.map((r) => ({ status: r.status, reason: r.reason, snapshot: { metrics: r.metrics, rootGroup: r.summary.root_group, errors: r.errors, durationMs: r.durationMs }, series: r.series, thresholds: r.thresholds, logs: r.logs })));
    const m = merged.summary.metrics;
    expect(m.http_reqs.values.count).toBe(25);
    expect(hits).toBe(25);
    expect(m.iterations.values.count).toBe(25);
    expect(parts.map((p) => p.summary.metrics.iterations.values.count).sort()).toEqual([12, 13]);
    // Each part may pass its own check threshold by luck of the split; the whole (20 of 25 checks) does not.
    expect(m.checks.values).toMatchObject({ passes: 20, fails: 5 });
    expect(merged.status).toBe("failed");
    expect(merged.thresholds.find((t) => t.key === "checks")).toMatchObject({ ok: false });
    expect(merged.summary.root_group.groups[0].checks[0]).toMatchObject({ name: "said ok", passes: 20, fails: 5 });
    expect(merged.summaryText).toContain("said ok");
  });

  it("a lost part: what it reported counts, the run is failed and says which part", () => {
    const lost = mergeRunParts([
      { status: "passed", series: [], thresholds: [] },
      { status: "lost", reason: "runner r2 stopped sending heartbeats", series: [], thresholds: [] },
    ]);
    expect(lost.status).toBe("failed");
    expect(lost.reason).toContain("part 2 of 2 was lost: runner r2 stopped sending heartbeats");
  });

  it("series of the same second add up", () => {
    const p = { vus: 1, requests: 10, rps: 10, failed: 1, avgMs: 10, p95Ms: 20, iterations: 10, checksFailed: 0, dataReceived: 5, dataSent: 5 };
    const [one] = mergeSeries([[{ ...p, t: 1 }], [{ ...p, t: 1, rps: 30, avgMs: 30, p95Ms: 50 }]]);
    expect(one).toMatchObject({ t: 1, vus: 2, rps: 40, failed: 2, avgMs: 25, p95Ms: 50 });
  });
});
