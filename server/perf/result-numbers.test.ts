import { describe, expect, it } from "vitest";
import { MetricRegistry } from "./metrics";
import { betterOf, compareHeadlines, compareMetrics, deltaOf, headlineOf } from "./result-numbers";
import { buildSummary, GroupTree } from "./summary";

function measured(durations: number[], failed: number) {
  const registry = new MetricRegistry();
  for (const d of durations) registry.add("http_req_duration", d, {});
  registry.add("http_reqs", durations.length, {});
  durations.forEach((_, i) => registry.add("http_req_failed", i < failed ? 1 : 0, {}));
  registry.add("iterations", durations.length, {});
  registry.add("vus_max", 4, {});
  registry.add("checks", 1, {});
  registry.add("checks", 0, {});
  const summary = buildSummary({ registry, groups: new GroupTree(), thresholds: [], durationMs: 2000 });
  // Through JSON, as the result is stored.
  return JSON.parse(JSON.stringify({ summary, metrics: registry.snapshot() }));
}

describe("a result's headline", () => {
  it("reads k6's summary and takes p99 from the histogram", () => {
    const durations = Array.from({ length: 1000 }, (_, i) => i + 1); // 1 … 1000 ms
    const { summary, metrics } = measured(durations, 10);
    const h = headlineOf(summary, metrics, [{ ok: true }, { ok: false }])!;
    expect(h).toMatchObject({ requests: 1000, rps: 500, failedRate: 0.01, iterations: 1000, vusMax: 4, checksPassed: 1, checksFailed: 1, thresholdsOk: false, durationMs: 2000 });
    expect(h.avgMs).toBeCloseTo(500.5, 6);
    expect(h.p95Ms).toBeGreaterThan(949);
    expect(h.p95Ms).toBeLessThan(951);
    expect(h.p99Ms!).toBeGreaterThan(989);
    expect(h.p99Ms!).toBeLessThan(991);
  });

  it("is null without numbers; thresholdsOk is null without thresholds; p99 null without a histogram", () => {
    expect(headlineOf(null, null, [])).toBeNull();
    expect(headlineOf({ metrics: {} } as never, null, [])).toBeNull();
    const { summary } = measured([5], 0);
    expect(headlineOf(summary, null, [])).toMatchObject({ thresholdsOk: null, p99Ms: null, requests: 1 });
  });
});

describe("comparison", () => {
  it.each([
    ["http_req_duration", "trend", "time", "p(95)", "lower"],
    ["my_trend", "trend", "default", "avg", null],
    ["http_req_failed", "rate", "default", "rate", "lower"],
    ["http_req_failed", "rate", "default", "passes", "lower"],
    ["checks", "rate", "default", "rate", "higher"],
    ["checks", "rate", "default", "fails", "lower"],
    ["http_reqs", "counter", "default", "rate", "higher"],
    ["http_req_duration{status:200}", "trend", "time", "avg", "lower"],
    ["dropped_iterations", "counter", "default", "count", "lower"],
    ["data_sent", "counter", "data", "count", null],
    ["vus", "gauge", "default", "value", null],
  ] as const)("%s %s: %s is better %s", (metric, type, contains, stat, better) => {
    expect(betterOf(metric, { type, contains }, stat)).toBe(better);
  });

  it("deltas are absolute and in percent of the baseline; null when a side is missing or the baseline is 0", () => {
    expect(deltaOf(200, 150)).toEqual({ absolute: -50, percent: -25 });
    expect(deltaOf(0, 3)).toEqual({ absolute: 3, percent: null });
    expect(deltaOf(null, 3)).toBeNull();
    expect(deltaOf(3, null)).toBeNull();
  });

  it("puts every metric and stat of any result side by side, in k6's order", () => {
    const a = measured([10, 10], 0);
    const b = measured([20, 20, 20, 20], 2);
    const rows = compareMetrics([
      { headline: null, metrics: a.summary.metrics },
      { headline: null, metrics: { ...b.summary.metrics, custom: { type: "counter", contains: "default", values: { count: 7, rate: 1 } } } },
    ]);
    const names = [...new Set(rows.map((r) => r.metric))];
    expect(names).toEqual([...names].sort((x, y) => x.localeCompare(y)));
    expect(rows.find((r) => r.metric === "http_req_duration" && r.stat === "avg")).toMatchObject({ values: [10, 20], deltas: [{ absolute: 0, percent: 0 }, { absolute: 10, percent: 100 }], better: "lower" });
    expect(rows.find((r) => r.metric === "custom" && r.stat === "count")).toMatchObject({ values: [null, 7], deltas: [null, null] });
    const head = compareHeadlines([{ headline: headlineOf(a.summary, a.metrics, [{ ok: true }]), metrics: {} }, { headline: headlineOf(b.summary, b.metrics, [{ ok: false }]), metrics: {} }]);
    expect(head.find((r) => r.field === "requests")).toMatchObject({ values: [2, 4], better: "higher", deltas: [{ absolute: 0 }, { absolute: 2, percent: 100 }] });
    expect(head.find((r) => r.field === "thresholdsOk")).toMatchObject({ values: [1, 0] });
  });
});
