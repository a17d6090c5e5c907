import { describe, expect, it } from "vitest";
import { type Scenario, scenariosFrom, segmentScenarios, shareOf } from "./scenarios";

const base = { exec: "default", startTimeMs: 0, gracefulStopMs: 30_000, env: {}, tags: {} };

describe("segments: a task split over runners runs exactly the whole", () => {
  it.each([
    [10, 3],
    [7, 2],
    [1, 4],
    [100, 7],
  ])("%i split %i ways adds up", (n, count) => {
    const parts = Array.from({ length: count }, (_, index) => shareOf(n, { index, count }));
    expect(parts.reduce((a, b) => a + b, 0)).toBe(n);
    expect(Math.max(...parts) - Math.min(...parts)).toBeLessThanOrEqual(1);
  });

  it("divides VUs, iterations and rates, and leaves out an empty share", () => {
    const scenarios: Scenario[] = [
      { ...base, name: "a", executor: "constant-vus", vus: 3, durationMs: 1000 },
      { ...base, name: "b", executor: "shared-iterations", vus: 1, iterations: 5, maxDurationMs: 1000 },
      { ...base, name: "c", executor: "constant-arrival-rate", rate: 50, timeUnitMs: 1000, durationMs: 1000, preAllocatedVUs: 4, maxVUs: 8 },
      { ...base, name: "d", executor: "ramping-vus", startVUs: 0, stages: [{ durationMs: 1000, target: 4 }], gracefulRampDownMs: 0 },
    ];
    const parts = [0, 1].map((index) => segmentScenarios(scenarios, { index, count: 2 }));
    const sum = (name: string, pick: (s: Scenario) => number) => parts.flat().filter((s) => s.name === name).reduce((n, s) => n + pick(s), 0);
    expect(sum("a", (s) => (s.executor === "constant-vus" ? s.vus : 0))).toBe(3);
    expect(sum("b", (s) => (s.executor === "shared-iterations" ? s.iterations : 0))).toBe(5);
    expect(sum("c", (s) => (s.executor === "constant-arrival-rate" ? s.rate : 0))).toBe(50);
    expect(sum("d", (s) => (s.executor === "ramping-vus" ? s.stages[0].target : 0))).toBe(4);
    // One VU of scenario "b" cannot be split: the part without it still runs its iterations on a VU of its own.
    expect(parts.every((p) => p.some((s) => s.name === "b"))).toBe(true);
    expect(segmentScenarios(scenarios, { index: 0, count: 1 })).toBe(scenarios);
  });

  it("drops a scenario from a part whose share of it is zero", () => {
    const [s] = scenariosFrom({ vus: 1, duration: "1s" }, ["default"]);
    expect(segmentScenarios([s], { index: 0, count: 2 })).toEqual([]);
    expect(segmentScenarios([s], { index: 1, count: 2 })).toHaveLength(1);
  });
});
