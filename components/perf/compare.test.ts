// The compare view's verdicts: lower latency and fewer failures are better,
// more throughput is better, noise is "same", counts get no verdict.
import { describe, expect, it } from "vitest";
import type { PerfHeadline } from "@/server/contracts/perf";
import { compareHeadlines } from "./compare";

const base: PerfHeadline = { requests: 1000, rps: 100, failedRate: 0.01, avgMs: 20, p95Ms: 50, p99Ms: 80, iterations: 1000, vusMax: 10, checksPassed: 1000, checksFailed: 0, thresholdsOk: true, durationMs: 10_000 };
const row = (a: PerfHeadline | null, b: PerfHeadline | null, key: keyof PerfHeadline) => compareHeadlines(a, b).find((r) => r.key === key)!;

describe("compareHeadlines", () => {
  it.each([
    ["p95Ms", 40, "better"],
    ["p95Ms", 60, "worse"],
    ["p95Ms", 50.2, "same"],
    ["rps", 120, "better"],
    ["rps", 80, "worse"],
    ["failedRate", 0, "better"],
    ["failedRate", 0.2, "worse"],
    ["requests", 2000, "neutral"],
  ] as const)("%s %s → %s", (key, value, verdict) => {
    expect(row(base, { ...base, [key]: value }, key).verdict).toBe(verdict);
  });

  it("writes the delta with its sign and the relative change", () => {
    const r = row(base, { ...base, rps: 150 }, "rps");
    expect(r).toMatchObject({ a: "100/s", b: "150/s", delta: "+50/s", change: "+50%" });
    expect(row(base, { ...base, p95Ms: 25 }, "p95Ms")).toMatchObject({ delta: "−25ms", change: "−50%" });
  });

  it("has no delta when a side has no number", () => {
    expect(row(base, { ...base, p99Ms: null }, "p99Ms")).toMatchObject({ delta: null, verdict: "neutral", b: "—" });
    expect(row(null, base, "rps")).toMatchObject({ delta: null, a: "—" });
  });

  it("judges a change from zero by its direction", () => {
    expect(row({ ...base, checksFailed: 0 }, { ...base, checksFailed: 3 }, "checksFailed")).toMatchObject({ verdict: "worse", change: null, delta: "+3" });
  });
});
