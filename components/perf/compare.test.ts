// The compare view's verdicts and deltas: lower latency and fewer failures
// are better, more throughput is better, noise is "same", counts get none.
import { describe, expect, it } from "vitest";
import { formatDelta, formatField, formatMetricStat, verdictOf } from "./compare";
import { formatThresholdActual } from "./thresholds-table";

describe("verdictOf", () => {
  it.each([
    [{ absolute: -10, percent: -20 }, "lower", "better"],
    [{ absolute: 10, percent: 20 }, "lower", "worse"],
    [{ absolute: 10, percent: 20 }, "higher", "better"],
    [{ absolute: -10, percent: -20 }, "higher", "worse"],
    [{ absolute: 0.1, percent: 0.5 }, "lower", "same"],
    [{ absolute: 3, percent: null }, "lower", "worse"],
    [{ absolute: 0, percent: null }, "lower", "same"],
    [{ absolute: 500, percent: 50 }, null, "neutral"],
    [null, "lower", "neutral"],
  ] as const)("%j with %s better → %s", (delta, better, verdict) => {
    expect(verdictOf(delta, better)).toBe(verdict);
  });
});

describe("formatting", () => {
  it("writes the delta with its sign and the relative change", () => {
    expect(formatDelta({ absolute: 50, percent: 50 }, (n) => `${n}/s`)).toBe("+50/s (+50%)");
    expect(formatDelta({ absolute: -25, percent: -50 }, (n) => `${n}ms`)).toBe("−25ms (−50%)");
    expect(formatDelta({ absolute: 3, percent: null }, String)).toBe("+3");
    expect(formatDelta(null, String)).toBeNull();
  });
  it("formats headline fields and metric stats as k6 does", () => {
    expect(formatField("p95Ms", 12.5)).toBe("12.5ms");
    expect(formatField("failedRate", 0.0123)).toBe("1.23%");
    expect(formatField("rps", null)).toBe("—");
    expect(formatMetricStat("http_req_duration{expected_response:true}", "p(95)", 1500)).toBe("1.5s");
    expect(formatMetricStat("http_req_failed", "rate", 0.5)).toBe("50%");
    expect(formatMetricStat("http_reqs", "rate", 12.345)).toBe("12.3/s");
    expect(formatMetricStat("data_received", "count", 2_500_000)).toBe("2.5 MB");
  });
});

describe("formatThresholdActual", () => {
  it.each([
    ["http_req_duration", "p(95)<500", 67.84, "67.84ms"],
    ["http_req_failed", "rate<0.01", 0.005, "0.5%"],
    ["http_reqs", "count>10", 43, "43"],
    ["checks", "rate>0.9", 1, "100%"],
    ["http_req_duration", "avg<100", null, "—"],
  ])("%s %s %s → %s", (key, source, actual, text) => expect(formatThresholdActual(key, source, actual)).toBe(text));
});
