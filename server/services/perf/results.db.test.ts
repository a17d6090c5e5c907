// Load runs and their results through the real route handlers, against a
// real HTTP target: perf/run answers 202 and the detail carries k6's metrics
// (p(95)…), checks and thresholds each with ok; a running result is read live
// from its parts; perf/stop ends a run within a second with what it measured
// kept; a running result cannot be deleted (409), an ended one is, with its
// test run; compare takes ids=a,b or id=a&id=b; lists filter; another
// namespace's ids are 404.
import { beforeAll, describe, expect, it } from "vitest";
import * as runRoute from "@/app/api/v1/perf/run/route";
import * as stopRoute from "@/app/api/v1/perf/stop/[taskId]/route";
import * as listRoute from "@/app/api/v1/perf-results/route";
import * as resultRoute from "@/app/api/v1/perf-results/[id]/route";
import * as compareRoute from "@/app/api/v1/perf-results/compare/route";
import * as groupRoute from "@/app/api/v1/perf-results/group/[runGroupId]/route";
import { db } from "@/server/db/client";
import { call, signedInOwner } from "@/server/testing/fixtures";
import { useTarget } from "@/server/testing/load-target";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { until } from "@/server/testing/until";

useTestDatabase();

const NS = "perf-results";
const OTHER = "perf-results-other";
// /slow answers after 250 ms (well above a loaded machine's own latency), /fail with a 500: the two runs compared differ.
const target = useTarget(({ path }) => (path === "/fail" ? { status: 500, body: "no" } : path === "/slow" ? { delayMs: 250 } : undefined));
let cookie: string;
let outsider: string;

beforeAll(async () => {
  ({ cookie } = await signedInOwner(NS));
  ({ cookie: outsider } = await signedInOwner(OTHER));
});

const url = (path: string, ns = NS, extra = "") => `${path}?namespace=${ns}${extra}`;
const start = (body: unknown) => call(runRoute.POST, url("/api/v1/perf/run"), { method: "POST", cookie, body });
const detail = (id: string, as = cookie, ns = NS) => call(resultRoute.GET, url(`/api/v1/perf-results/${id}`, ns), { cookie: as, params: { id } });
const remove = (id: string) => call(resultRoute.DELETE, url(`/api/v1/perf-results/${id}`), { method: "DELETE", cookie, params: { id } });
const compare = (query: string, as = cookie, ns = NS) => call(compareRoute.GET, `/api/v1/perf-results/compare?namespace=${ns}&${query}`, { cookie: as });

const ended = async (id: string) => (await until(() => detail(id), (r) => !["queued", "running"].includes(r.body.status))).body;

const script = (path: string, opts: string) => `import http from 'k6/http';
import { check, group } from 'k6';
export const options = ${opts};
export default function () {
  group('shop', () => { check(http.get(__ENV.BASE + '${path}'), { 'is 200': (r) => r.status === 200 }); });
}`;

let fast: string;
let slow: string;

describe("load results", () => {
  it("perf/run answers 202 and the detail carries k6's metrics, checks and thresholds", async () => {
    target.seen.length = 0;
    const r = await start({ name: "Fast", script: script("/fast", "{ iterations: 10, vus: 2, thresholds: { http_req_duration: ['p(95)<5000'], checks: ['rate>0.99'] } }"), environment: { BASE: target.base } });
    expect(r.status, r.text).toBe(202);
    expect(r.body).toEqual({ id: expect.any(String), status: "queued", taskId: r.body.id });
    fast = r.body.id;
    const d = await ended(fast);
    expect(target.seen.length).toBe(10);
    expect(d).toMatchObject({ name: "Fast", status: "passed", configId: null, runGroupId: fast, envNames: ["BASE"], handleSummary: null });
    expect(d.metrics.http_req_duration).toMatchObject({ type: "trend", contains: "time" });
    expect(Object.keys(d.metrics.http_req_duration.values)).toEqual(expect.arrayContaining(["avg", "min", "med", "max", "p(90)", "p(95)"]));
    expect(d.metrics.http_req_duration.thresholds).toEqual({ "p(95)<5000": { ok: true } });
    expect(d.metrics.http_reqs.values.count).toBe(10);
    expect(d.checks).toEqual([{ name: "is 200", path: "::shop::is 200", passes: 10, fails: 0 }]);
    expect(d.rootGroup.groups[0]).toMatchObject({ name: "shop" });
    expect(d.thresholds).toEqual(
      expect.arrayContaining([
        { key: "http_req_duration", source: "p(95)<5000", ok: true, actual: expect.any(Number) },
        { key: "checks", source: "rate>0.99", ok: true, actual: 1 },
      ]),
    );
    expect(d.summary).toMatchObject({ requests: 10, failedRate: 0, iterations: 10, checksPassed: 10, checksFailed: 0, thresholdsOk: true });
    expect(d.summary.p99Ms).toBeGreaterThanOrEqual(d.summary.p95Ms);
    expect(d.summaryText).toContain("http_req_duration");
    expect(d.parts).toEqual([expect.objectContaining({ index: 0, count: 1, status: "passed", requests: 10 })]);
  });

  it("a running result is read live; it cannot be deleted (409); perf/stop ends it within a second, keeping what it measured", async () => {
    const r = await start({ name: "Long", script: script("/slow", "{ vus: 2, duration: '60s' }"), environment: { BASE: target.base } });
    expect(r.status, r.text).toBe(202);
    const id = r.body.id;
    // Snapshots come every 5 s: wait for the first, then the live detail has numbers.
    const live = await until(
      () => detail(id),
      (d) => d.body.summary !== null,
    );
    expect(live.body.status).toBe("running");
    expect(live.body.summary.requests).toBeGreaterThan(0);
    expect(live.body.series.length).toBeGreaterThanOrEqual(5);
    expect(live.body.metrics.http_reqs.values.count).toBeGreaterThan(0);
    expect(live.body.parts[0].status).toBe("running");
    const running = await call(listRoute.GET, url("/api/v1/perf-results", NS, "&status=running"), { cookie });
    expect(running.body.results.map((x: { id: string }) => x.id)).toEqual([id]);
    expect(running.body.results[0].summary.requests).toBeGreaterThan(0);

    const del = await remove(id);
    expect(del.status).toBe(409);
    expect(del.body.error).toContain("stop it");

    // Another namespace cannot stop it.
    expect((await call(stopRoute.POST, url(`/api/v1/perf/stop/${id}`, OTHER), { method: "POST", cookie: outsider, params: { taskId: id } })).status).toBe(404);
    const asked = Date.now();
    const stop = await call(stopRoute.POST, url(`/api/v1/perf/stop/${r.body.taskId}`), { method: "POST", cookie, params: { taskId: r.body.taskId } });
    expect(stop.status, stop.text).toBe(200);
    expect(stop.body.id).toBe(id);
    const d = await ended(id);
    expect(Date.now() - asked).toBeLessThan(5_000);
    expect(d.status).toBe("stopped");
    expect(d.summary.requests).toBeGreaterThan(live.body.summary.requests - 1);
    expect(d.series.length).toBeGreaterThanOrEqual(live.body.series.length);
    expect((await call(stopRoute.POST, url(`/api/v1/perf/stop/${id}`), { method: "POST", cookie, params: { taskId: id } })).status).toBe(409);
    slow = id;
  });

  it("compares with ids=a,b and with repeated id=a&id=b: values side by side, deltas against the first", async () => {
    const byList = await compare(`ids=${fast},${slow}`);
    expect(byList.status, byList.text).toBe(200);
    const byRepeat = await compare(`id=${fast}&id=${slow}`);
    expect(byRepeat.status).toBe(200);
    expect(byRepeat.body).toEqual(byList.body);
    const c = byList.body;
    expect(c.baselineId).toBe(fast);
    expect(c.results.map((r: { id: string }) => r.id)).toEqual([fast, slow]);
    expect(c.results[0].thresholds.length).toBe(2);
    const p95 = c.metrics.find((m: { metric: string; stat: string }) => m.metric === "http_req_duration" && m.stat === "p(95)");
    expect(p95.better).toBe("lower");
    expect(p95.deltas[0]).toEqual({ absolute: 0, percent: 0 });
    // The slow target answers 250 ms later: the second run is slower.
    expect(p95.values[1]).toBeGreaterThan(p95.values[0]);
    expect(p95.deltas[1].absolute).toBeCloseTo(p95.values[1] - p95.values[0], 6);
    expect(p95.deltas[1].percent).toBeGreaterThan(0);
    const rps = c.summary.find((s: { field: string }) => s.field === "rps");
    expect(rps).toMatchObject({ better: "higher", values: [expect.any(Number), expect.any(Number)] });
    // A metric only one run has: null on the other side, no delta.
    const thresholdsOk = c.summary.find((s: { field: string }) => s.field === "thresholdsOk");
    expect(thresholdsOk.values).toEqual([1, null]);
    expect(thresholdsOk.deltas[1]).toBeNull();

    expect((await compare(`ids=${fast}`)).status).toBe(400);
    expect((await compare(`ids=${fast},${fast}`)).status).toBe(400);
    expect((await compare(`ids=${Array.from({ length: 6 }, () => crypto.randomUUID()).join(",")}`)).status).toBe(400);
    expect((await compare("ids=not-a-uuid,also-not")).status).toBe(400);
    // Any id outside the namespace: 404, whether it exists elsewhere or not at all.
    expect((await compare(`ids=${fast},${crypto.randomUUID()}`)).status).toBe(404);
    expect((await compare(`ids=${fast},${slow}`, outsider, OTHER)).status).toBe(404);
  });

  it("lists with filters and paging, reads a run group, and another namespace sees none of it", async () => {
    const all = await call(listRoute.GET, url("/api/v1/perf-results"), { cookie });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(all.body.results.map((r: { id: string }) => r.id)).toEqual([slow, fast]);
    expect(all.body.results[1]).toMatchObject({ id: fast, name: "Fast", status: "passed", summary: { requests: 10 } });
    const searched = await call(listRoute.GET, url("/api/v1/perf-results", NS, "&search=fas&limit=1"), { cookie });
    expect(searched.body.results.map((r: { id: string }) => r.id)).toEqual([fast]);
    const paged = await call(listRoute.GET, url("/api/v1/perf-results", NS, "&limit=1&offset=1"), { cookie });
    expect(paged.body).toMatchObject({ total: 2, results: [{ id: fast }] });
    expect((await call(listRoute.GET, url("/api/v1/perf-results", NS, "&status=stopped"), { cookie })).body.results.map((r: { id: string }) => r.id)).toEqual([slow]);
    expect((await call(listRoute.GET, url("/api/v1/perf-results", NS, "&status=nope"), { cookie })).status).toBe(400);

    const group = await call(groupRoute.GET, url(`/api/v1/perf-results/group/${fast}`), { cookie, params: { runGroupId: fast } });
    expect(group.status).toBe(200);
    expect(group.body).toMatchObject({ runGroupId: fast, results: [{ id: fast, parts: [{ index: 0, status: "passed", requests: 10 }] }] });

    expect((await detail(fast, outsider, OTHER)).status).toBe(404);
    expect((await call(groupRoute.GET, url(`/api/v1/perf-results/group/${fast}`, OTHER), { cookie: outsider, params: { runGroupId: fast } })).status).toBe(404);
    expect((await call(listRoute.GET, url("/api/v1/perf-results", OTHER), { cookie: outsider })).body.total).toBe(0);
  });

  it("deletes an ended result with its load test run", async () => {
    const failing = await start({ name: "Failing", script: script("/fail", "{ iterations: 3, thresholds: { http_req_failed: ['rate<0.5'] } }"), environment: { BASE: target.base } });
    const d = await ended(failing.body.id);
    expect(d).toMatchObject({ status: "failed", summary: { failedRate: 1, thresholdsOk: false, checksFailed: 3 } });
    expect(d.thresholds).toEqual([{ key: "http_req_failed", source: "rate<0.5", ok: false, actual: 1 }]);
    expect(d.metrics.http_req_failed.thresholds).toEqual({ "rate<0.5": { ok: false } });
    const r = await remove(failing.body.id);
    expect(r.status, r.text).toBe(200);
    expect(await db().testRun.findUnique({ where: { id: failing.body.id } })).toBeNull();
    expect(await db().perfRunPart.count({ where: { resultId: failing.body.id } })).toBe(0);
    expect((await detail(failing.body.id)).status).toBe(404);
    expect((await remove(failing.body.id)).status).toBe(404);
  });
});
