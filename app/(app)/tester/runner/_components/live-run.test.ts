// The live run built from a collection run's events: started → results →
// finished or error, in one batch or many, as the runner page applies them.
import { describe, expect, it } from "vitest";
import type { RunRequestResult, TestRunDetail } from "@/server/contracts/tester-run";
import { applyRunEvents, IDLE, type LiveRun } from "./live-run";
import type { SseEvent } from "./sse-parse";

const ctx = { namespace: "sandbox", collectionId: "c1", environmentId: "e1", now: "2025-01-01T00:00:00.000Z" };

function result(name: string, status: RunRequestResult["status"], tests: ("passed" | "failed" | "skipped")[] = []): RunRequestResult {
  return {
    iteration: 0,
    collectionId: "c1",
    requestId: null,
    name,
    path: [],
    method: "GET",
    url: "http://x",
    status,
    responseCode: 200,
    responseTimeMs: 5,
    responseSize: 10,
    tests: tests.map((s, i) => ({ name: `t${i}`, status: s })) as RunRequestResult["tests"],
    logs: [],
    error: null,
    startedAt: ctx.now,
  };
}

const ev = (event: string, data: unknown): SseEvent => ({ event, data: JSON.stringify(data) });
const started = ev("started", { id: "run1", name: "Shop", iterations: 2, total: 4 });

function apply(batches: SseEvent[][]): LiveRun {
  return batches.reduce((s, b) => applyRunEvents(s, b, ctx), IDLE);
}

describe("applyRunEvents", () => {
  const cases: { name: string; events: SseEvent[]; expect: (s: LiveRun) => void }[] = [
    {
      name: "started makes a running run with the stream's id, name and size",
      events: [started],
      expect: (s) => {
        expect(s.run).toMatchObject({ id: "run1", name: "Shop", status: "running", iterations: 2, namespace: "sandbox", collectionIds: ["c1"], environmentId: "e1", results: [] });
        expect(s.progress).toEqual({ done: 0, total: 4 });
        expect(s.ended).toBe(false);
      },
    },
    {
      name: "results grow the list, the counts and the progress",
      events: [started, ev("result", result("a", "passed", ["passed", "passed"])), ev("result", result("b", "failed", ["passed", "failed", "skipped"])), ev("result", result("c", "error"))],
      expect: (s) => {
        expect(s.run?.results.map((r) => r.name)).toEqual(["a", "b", "c"]);
        expect(s.run?.counts).toEqual({ requests: 3, passedRequests: 1, failedRequests: 2, skippedRequests: 0, tests: 5, passedTests: 3, failedTests: 1, skippedTests: 1 });
        expect(s.progress).toEqual({ done: 3, total: 4 });
      },
    },
    {
      name: "progress names the request being sent",
      events: [started, ev("iteration", { iteration: 1, iterationCount: 2 }), ev("progress", { iteration: 1, index: 0, total: 2, name: "Login" })],
      expect: (s) => expect(s.current).toEqual({ iteration: 1, name: "Login" }),
    },
    {
      name: "finished replaces the run with the server's and ends",
      events: [started, ev("result", result("a", "passed")), ev("finished", { id: "run1", status: "cancelled", statusReason: "cancelled", results: [result("a", "passed")] })],
      expect: (s) => {
        expect(s.run).toMatchObject({ status: "cancelled", statusReason: "cancelled" });
        expect(s.ended).toBe(true);
        expect(s.current).toBeNull();
        expect(s.progress).toEqual({ done: 1, total: 4 });
      },
    },
    {
      name: "error ends the run as error with the message",
      events: [started, ev("error", { error: "the database went away", code: "internal" })],
      expect: (s) => {
        expect(s.error).toEqual({ message: "the database went away", code: "internal" });
        expect(s.run).toMatchObject({ status: "error", statusReason: "the database went away" });
        expect(s.ended).toBe(true);
      },
    },
    {
      name: "an error before started has no run",
      events: [ev("error", { error: "boom" })],
      expect: (s) => {
        expect(s.run).toBeNull();
        expect(s.error).toEqual({ message: "boom", code: "internal" });
      },
    },
    {
      name: "results before started, unknown events and bad JSON are skipped",
      events: [ev("result", result("early", "passed")), { event: "started", data: "{not json" }, ev("mystery", { a: 1 }), started, { event: "result", data: "nope" }],
      expect: (s) => {
        expect(s.run?.results).toEqual([]);
        expect(s.progress).toEqual({ done: 0, total: 4 });
      },
    },
  ];

  it.each(cases)("$name (one batch)", ({ events, expect: check }) => check(apply([events])));
  it.each(cases)("$name (one event per batch)", ({ events, expect: check }) => check(apply(events.map((e) => [e]))));

  it("does not change the state it was given", () => {
    const before = apply([[started]]);
    const frozen = JSON.stringify(before);
    applyRunEvents(before, [ev("result", result("a", "passed")), ev("finished", { status: "passed", results: [] } as Partial<TestRunDetail>)], ctx);
    expect(JSON.stringify(before)).toBe(frozen);
  });
});
