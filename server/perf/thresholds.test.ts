import { describe, expect, it } from "vitest";
import { formatDuration, parseDuration } from "./duration";
import { type MetricType, parseThresholdKey, parseThresholds, ThresholdError, thresholdHolds } from "./thresholds";

const BUILT_IN: Record<string, MetricType> = { http_req_duration: "trend", http_req_failed: "rate", http_reqs: "counter", checks: "rate", vus: "gauge", my_trend: "trend" };
const typeOf = (m: string) => BUILT_IN[m];

describe("k6 durations", () => {
  it.each([
    ["30s", 30_000],
    ["1m30s", 90_000],
    ["250ms", 250],
    ["1.5h", 5_400_000],
    ["2", 2],
    [500, 500],
    ["100us", 0.1],
  ] as const)("%s is %d ms", (input, ms) => expect(parseDuration(input)).toBe(ms));

  it.each(["", "10 parsecs", "s", "10x", -1])("refuses %j", (input) => expect(() => parseDuration(input)).toThrow(/invalid duration/));

  it("prints like k6", () => {
    expect(formatDuration(0.5)).toBe("500µs");
    expect(formatDuration(12.345)).toBe("12.35ms");
    expect(formatDuration(1500)).toBe("1.5s");
    expect(formatDuration(90_000)).toBe("1m30s");
  });
});

describe("k6 thresholds", () => {
  it("parses the forms of k6's documentation", () => {
    const t = parseThresholds(
      {
        http_req_failed: ["rate<0.01"],
        http_req_duration: ["p(95)<200", "p(99.9) < 500", "avg<100", "med<=80", "max<1000"],
        "http_req_duration{status:200}": [{ threshold: "p(90)<300", abortOnFail: true, delayAbortEval: "10s" }],
        "http_req_duration{group:::Main page,method:GET}": "min>=0",
        http_reqs: ["count>10", "rate>1"],
        checks: ["rate>0.9"],
        vus: ["value==10"],
      },
      typeOf,
    );
    expect(t).toHaveLength(12);
    expect(t[1]).toMatchObject({ metric: "http_req_duration", aggregation: { kind: "p", p: 95 }, op: "<", value: 200, abortOnFail: false });
    expect(t[2]).toMatchObject({ aggregation: { kind: "p", p: 99.9 }, value: 500 });
    expect(t[6]).toMatchObject({ tags: { status: "200" }, abortOnFail: true, delayAbortEvalMs: 10_000 });
    expect(t[7].tags).toEqual({ group: "::Main page", method: "GET" });
  });

  it.each([
    [{ http_req_duration: ["p95<200"] }, /"p95<200": expected .*percentiles are written p\(95\)/],
    [{ http_req_duration: ["p(95)<"] }, /"p\(95\)<": expected/],
    [{ http_req_duration: ["p(101)<3"] }, /percentile 101/],
    [{ http_req_durations: ["p(95)<200"] }, /no metric named "http_req_durations"/],
    [{ http_req_failed: ["p(95)<1"] }, /a rate metric has rate, not p\(N\)/],
    [{ vus: ["avg<3"] }, /a gauge metric has value, not avg/],
    [{ "http_req_duration{status}": ["avg<3"] }, /must be name:value/],
    [{ http_req_duration: [{ threshold: "avg<3", delayAbortEval: "soon" }] }, /delayAbortEval: invalid duration/],
    [{ http_req_duration: [42] }, /each threshold is a string/],
  ])("refuses %j naming it", (input, message) => {
    expect(() => parseThresholds(input, typeOf)).toThrow(ThresholdError);
    expect(() => parseThresholds(input, typeOf)).toThrow(message);
  });

  it("reads tag filters with colons in the value", () => {
    expect(parseThresholdKey("http_req_duration{url:http://x/y}")).toEqual({ metric: "http_req_duration", tags: { url: "http://x/y" } });
  });

  it("evaluates against a metric's figures", () => {
    const [p95, rate, count] = parseThresholds({ http_req_duration: ["p(95)<200"], http_req_failed: ["rate<0.01"], http_reqs: ["count>=3"] }, typeOf);
    expect(thresholdHolds(p95, { percentile: (p) => (p === 95 ? 199 : 0) })).toBe(true);
    expect(thresholdHolds(p95, { percentile: () => 200 })).toBe(false);
    expect(thresholdHolds(rate, { rate: 0.02 })).toBe(false);
    expect(thresholdHolds(count, { count: 3 })).toBe(true);
    // No samples yet: holds, as in k6.
    expect(thresholdHolds(rate, {})).toBe(true);
  });
});
