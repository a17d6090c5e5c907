// The numbers and the verdict of a test run, derived from its per-request
// results. The executor and the report importer both call these, so a run
// and an imported report can never disagree on what "passed" means, and an
// imported report's own totals are never trusted.
import type { RunCounts, RunRequestResult, RunStatus } from "@/server/contracts/tester-run";
import type { ScriptTest } from "@/server/contracts/tester-execution";

export function countResults(results: readonly RunRequestResult[]): RunCounts {
  const counts: RunCounts = { requests: 0, passedRequests: 0, failedRequests: 0, skippedRequests: 0, tests: 0, passedTests: 0, failedTests: 0, skippedTests: 0 };
  for (const result of results) {
    counts.requests++;
    // An errored request is a failed one to the reader: RunCounts has no fourth bucket.
    if (result.status === "passed") counts.passedRequests++;
    else if (result.status === "skipped") counts.skippedRequests++;
    else counts.failedRequests++;
    for (const test of result.tests) {
      counts.tests++;
      if (test.status === "passed") counts.passedTests++;
      else if (test.status === "failed") counts.failedTests++;
      else counts.skippedTests++;
    }
  }
  return counts;
}

export interface RunEnd {
  /** Stopped by a user before every request ran. */
  cancelled?: boolean;
  /** The run itself could not go on (a message or simply true). */
  error?: boolean | string | null;
}

/** A finished run's status: `passed` only when no request failed or errored and no test failed. */
export function runStatusFrom(counts: RunCounts, end: RunEnd = {}): RunStatus {
  if (end.error) return "error";
  if (end.cancelled) return "cancelled";
  return counts.failedRequests > 0 || counts.failedTests > 0 ? "failed" : "passed";
}

/**
 * A request's status from its tests: errored when it has an error, failed when a test failed,
 * skipped when it has tests and all were skipped, passed otherwise.
 */
export function requestStatusFrom(tests: readonly ScriptTest[], error: string | null | undefined): RunRequestResult["status"] {
  if (error) return "error";
  if (tests.some((t) => t.status === "failed")) return "failed";
  if (tests.length > 0 && tests.every((t) => t.status === "skipped")) return "skipped";
  return "passed";
}
