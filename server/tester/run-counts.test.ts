// Counting results and the run verdict every producer of a run shares.
import { describe, expect, it } from "vitest";
import type { RunCounts, RunRequestResult } from "@/server/contracts/tester-run";
import type { ScriptTest } from "@/server/contracts/tester-execution";
import { countResults, requestStatusFrom, runStatusFrom } from "./run-counts";

function result(status: RunRequestResult["status"], tests: ScriptTest["status"][] = []): RunRequestResult {
  return {
    iteration: 0, collectionId: null, requestId: null, name: "r", path: [], method: "GET", url: "http://x", status,
    responseCode: 200, responseTimeMs: 1, responseSize: 0, tests: tests.map((s, i) => ({ name: `t${i}`, status: s })), logs: [], error: null, startedAt: "2024-01-01T00:00:00.000Z",
  };
}

const zero: RunCounts = { requests: 0, passedRequests: 0, failedRequests: 0, skippedRequests: 0, tests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 };

describe("countResults", () => {
  it("is all zeros for no results", () => {
    expect(countResults([])).toEqual(zero);
  });

  it("counts an errored request as failed and every test by its status", () => {
    const counts = countResults([result("passed", ["passed", "passed"]), result("failed", ["passed", "failed"]), result("error"), result("skipped", ["skipped"])]);
    expect(counts).toEqual({ requests: 4, passedRequests: 1, failedRequests: 2, skippedRequests: 1, tests: 5, passedTests: 3, failedTests: 1, skippedTests: 1 });
  });
});

describe("runStatusFrom", () => {
  it.each<[string, Partial<RunCounts>, Parameters<typeof runStatusFrom>[1], string]>([
    ["nothing ran", {}, {}, "passed"],
    ["all passed", { requests: 2, passedRequests: 2, tests: 3, passedTests: 3 }, {}, "passed"],
    ["skipped tests only", { requests: 1, passedRequests: 1, tests: 1, skippedTests: 1 }, {}, "passed"],
    ["a failed test", { requests: 1, passedRequests: 1, tests: 1, failedTests: 1 }, {}, "failed"],
    ["a failed request without tests", { requests: 1, failedRequests: 1 }, {}, "failed"],
    ["cancelled wins over failures", { requests: 1, failedRequests: 1 }, { cancelled: true }, "cancelled"],
    ["a run error wins over all", { requests: 1, passedRequests: 1 }, { cancelled: true, error: "restart" }, "error"],
    ["error: true", {}, { error: true }, "error"],
    ["error: null is no error", {}, { error: null }, "passed"],
  ])("%s → %s", (_name, counts, end, expected) => {
    expect(runStatusFrom({ ...zero, ...counts }, end)).toBe(expected);
  });
});

describe("requestStatusFrom", () => {
  it.each<[ScriptTest["status"][], string | null, string]>([
    [[], null, "passed"],
    [["passed", "skipped"], null, "passed"],
    [["skipped", "skipped"], null, "skipped"],
    [["passed", "failed"], null, "failed"],
    [["passed"], "connect ECONNREFUSED", "error"],
    [[], "script timed out", "error"],
  ])("%j with error %j → %s", (tests, error, expected) => {
    expect(requestStatusFrom(tests.map((status) => ({ name: "t", status })), error)).toBe(expected);
  });
});
