import { describe, expect, it } from "vitest";
import { build, encodeIntoCompressedBase64, type JsHistogram } from "hdr-histogram-js";
import { MetricRegistry, newAggregate, recordWhole } from "./metrics";
import { parseThresholds, thresholdHolds } from "./thresholds";

describe("k6 metric aggregates", () => {
  it("trend percentiles come from the histogram within its precision, extremes exact", () => {
    const t = newAggregate("trend");
    for (let i = 1; i <= 10_000; i++) t.add(i / 10); // 0.1 … 1000 ms
    const v = t.values(0);
    expect(v.count).toBe(10_000);
    expect(v.min).toBe(0.1);
    expect(v.max).toBe(1000);
    expect(v.avg).toBeCloseTo(500.05, 6);
    expect(v.med!).toBeGreaterThan(499.5);
    expect(v.med!).toBeLessThan(500.6);
    expect(v.percentile!(95)).toBeGreaterThan(949.5);
    expect(v.percentile!(95)).toBeLessThan(950.6);
    expect(v.percentile!(100)).toBe(1000);
  });

  it("counter rate is per second of the run; rate counts non-zero values", () => {
    const c = newAggregate("counter");
    c.add(1);
    c.add(4);
    expect(c.values(2000)).toEqual({ count: 5, rate: 2.5 });
    const r = newAggregate("rate");
    for (const v of [1, 0, 1, 1]) r.add(v);
    expect(r.values(0).rate).toBe(0.75);
  });

  it("merges snapshots of two runners exactly", () => {
    const a = new MetricRegistry();
    const b = new MetricRegistry();
    for (let i = 0; i < 1000; i++) a.add("http_req_duration", 10, { status: "200" });
    for (let i = 0; i < 1000; i++) b.add("http_req_duration", 30, { status: "500" });
    a.add("http_reqs", 1000, {});
    b.add("http_reqs", 1000, {});
    const merged = new MetricRegistry();
    merged.merge(a.snapshot());
    merged.merge(JSON.parse(JSON.stringify(b.snapshot())));
    const d = merged.get("http_req_duration")!.all.values(0);
    expect(d.count).toBe(2000);
    expect(d.avg).toBe(20);
    expect(d.percentile!(25)).toBeCloseTo(10, 1);
    expect(d.percentile!(75)).toBeCloseTo(30, 1);
    expect(merged.get("http_reqs")!.all.values(1000).count).toBe(2000);
  });

  it("submetrics feed tag-filtered thresholds", () => {
    const reg = new MetricRegistry();
    const [ok, all] = parseThresholds({ "http_req_duration{status:200}": ["p(95)<50"], http_req_duration: ["p(95)<50"] }, reg.typeOf);
    reg.get("http_req_duration")!.watch(ok.key, ok.tags);
    for (let i = 0; i < 100; i++) reg.add("http_req_duration", 20, { status: "200", method: "GET" });
    for (let i = 0; i < 100; i++) reg.add("http_req_duration", 900, { status: "503", method: "GET" });
    const metric = reg.get("http_req_duration")!;
    expect(thresholdHolds(ok, metric.submetrics.get(ok.key)!.aggregate.values(0))).toBe(true);
    expect(thresholdHolds(all, metric.all.values(0))).toBe(false);
  });

  it("custom metrics keep their type", () => {
    const reg = new MetricRegistry();
    reg.define("my_trend", "trend", true);
    expect(reg.define("my_trend", "trend").definition.isTime).toBe(true);
    expect(() => reg.define("my_trend", "counter")).toThrow(/already a trend/);
    expect(() => reg.define("bad name", "counter")).toThrow(/invalid metric name/);
  });

  it("records a value in the bucket the histogram's own arithmetic picks, for every magnitude", () => {
    // The same counts, extremes and percentiles as recordValue: powers of two and their neighbours, beyond 2^31, and random values of every size.
    const fast = build({ bitBucketSize: 32, autoResize: true, lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3, useWebAssembly: false }) as JsHistogram;
    const slow = build({ bitBucketSize: 32, autoResize: true, lowestDiscernibleValue: 1, highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: 3, useWebAssembly: false }) as JsHistogram;
    const values = [0, 1, 2, 3, 1023, 1024, 2047, 2048, 2049, 4095, 4096, 123_456, 0x7fffffff, 0x80000000, 3_500_000_000];
    for (let k = 0; k < 31; k++) values.push(2 ** k - 1, 2 ** k, 2 ** k + 1);
    for (let i = 0; i < 20_000; i++) values.push(Math.floor(Math.random() ** 4 * 2 ** 31));
    for (const v of values) {
      recordWhole(fast, v);
      slow.recordValue(v);
    }
    expect(fast.totalCount).toBe(slow.totalCount);
    expect([fast.minNonZeroValue, fast.maxValue]).toEqual([slow.minNonZeroValue, slow.maxValue]);
    for (const p of [1, 25, 50, 90, 95, 99, 99.9, 100]) expect(fast.getValueAtPercentile(p)).toBe(slow.getValueAtPercentile(p));
    expect(encodeIntoCompressedBase64(fast)).toBe(encodeIntoCompressedBase64(slow));
  });
});
