// The runner's view of a collection run while its events stream in: a
// TestRunDetail built from `started` and grown by each `result` (counts kept
// as the server counts them), the request being sent from `progress`, and the
// server's own run once `finished` arrives. Events are applied in batches, so
// a run of thousands of requests copies its result list once per screen
// update, not once per result. Pure: the clock comes in as an argument.
import type { RunRequestResult, TestRunDetail } from "@/server/contracts/tester-run";
import { countResults } from "@/server/tester/run-counts";
import type { SseEvent } from "./sse-parse";

export interface LiveRun {
  run: TestRunDetail | null;
  /** Requests done of the run's total (iterations × selected requests). */
  progress: { done: number; total: number } | null;
  /** The request being sent now. */
  current: { iteration: number; name: string } | null;
  /** The stream's `error` event: the run stopped on the server. */
  error: { message: string; code: string } | null;
  /** `finished` (or `error`) arrived: nothing more will come. */
  ended: boolean;
}

export const IDLE: LiveRun = { run: null, progress: null, current: null, error: null, ended: false };

/** What the page knows of the run it asked for; `started` names only the id, name and size. */
export interface RunContext {
  namespace: string;
  collectionId: string;
  environmentId: string | null;
  now: string;
}

function parse(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

function addCounts(run: TestRunDetail, results: RunRequestResult[]): TestRunDetail["counts"] {
  const more = countResults(results);
  const c = run.counts;
  return {
    requests: c.requests + more.requests,
    passedRequests: c.passedRequests + more.passedRequests,
    failedRequests: c.failedRequests + more.failedRequests,
    skippedRequests: c.skippedRequests + more.skippedRequests,
    tests: c.tests + more.tests,
    passedTests: c.passedTests + more.passedTests,
    failedTests: c.failedTests + more.failedTests,
    skippedTests: c.skippedTests + more.skippedTests,
  };
}

/** The state after `events`, in order. Unknown events and unreadable data are skipped. */
export function applyRunEvents(state: LiveRun, events: readonly SseEvent[], ctx: RunContext): LiveRun {
  let next = state;
  let batch: RunRequestResult[] = [];
  const flushResults = () => {
    if (!batch.length || !next.run) return;
    const run = next.run;
    next = {
      ...next,
      run: { ...run, results: [...run.results, ...batch], counts: addCounts(run, batch) },
      progress: next.progress ? { ...next.progress, done: next.progress.done + batch.length } : null,
    };
    batch = [];
  };
  for (const e of events) {
    const data = parse(e.data) as Record<string, unknown> | null;
    if (!data || typeof data !== "object") continue;
    if (e.event === "result") {
      if (next.run) batch.push(data as unknown as RunRequestResult);
      continue;
    }
    flushResults();
    if (e.event === "started") {
      const iterations = Number(data.iterations) || 1;
      next = {
        ...next,
        run: {
          id: String(data.id),
          namespace: ctx.namespace,
          name: String(data.name ?? "Collection run"),
          mode: "functional",
          status: "running",
          referenceId: null,
          collectionIds: [ctx.collectionId],
          environmentId: ctx.environmentId,
          iterations,
          counts: countResults([]),
          statusReason: null,
          createdBy: null,
          startedAt: ctx.now,
          finishedAt: null,
          durationMs: null,
          createdAt: ctx.now,
          source: "run",
          results: [],
        },
        progress: { done: 0, total: Number(data.total) || 0 },
      };
    } else if (e.event === "progress") {
      next = { ...next, current: { iteration: Number(data.iteration) || 0, name: String(data.name ?? "") } };
    } else if (e.event === "finished") {
      const run = data as unknown as TestRunDetail;
      // The stored run is the truth; the progress bar ends where the results did.
      next = { ...next, run, current: null, ended: true, progress: next.progress ? { done: run.results.length, total: Math.max(next.progress.total, run.results.length) } : null };
    } else if (e.event === "error") {
      const message = String(data.error ?? "The run failed");
      next = {
        ...next,
        error: { message, code: String(data.code ?? "internal") },
        current: null,
        ended: true,
        run: next.run ? { ...next.run, status: "error", statusReason: next.run.statusReason ?? message } : null,
      };
    }
  }
  flushResults();
  return next;
}
