// How many parts a load run is split into, from the online runners'
// capacities: as few as fit. k6's execution segments divide VUs exactly
// (segmentScenarios), so a part's VUs are known before it is queued; a
// runner may run several parts at once when its capacity allows. Pure.
import { maxVusOf, type Scenario, segmentScenarios } from "@/server/perf/k6/scenarios";

/** A run is never split finer than this (each part is a runner's isolates, reports and merge input). */
export const MAX_PARTS = 64;

/** The VUs of each part when the plan is split in `count`. */
export function partVus(scenarios: Scenario[], count: number): number[] {
  return Array.from({ length: count }, (_, index) => segmentScenarios(scenarios, { index, count }).reduce((n, s) => n + maxVusOf(s), 0));
}

/** How many parts of `size` VUs the runners hold at once. */
function slots(capacities: number[], size: number): number {
  return capacities.reduce((n, c) => n + Math.floor(c / Math.max(1, size)), 0);
}

export type SplitPlan = { fits: true; count: number; vus: number[] } | { fits: false; largest: number; total: number };

/**
 * The smallest number of parts that the runners can all hold at once
 * (a part larger than every runner would wait forever), or why even the
 * finest split does not fit.
 */
export function planSplit(scenarios: Scenario[], capacities: number[]): SplitPlan {
  const total = capacities.reduce((a, b) => a + b, 0);
  const maxVus = Math.max(1, scenarios.reduce((n, s) => n + maxVusOf(s), 0));
  const limit = Math.min(MAX_PARTS, maxVus);
  for (let count = 1; count <= limit; count++) {
    const vus = partVus(scenarios, count);
    if (slots(capacities, Math.max(...vus)) >= count) return { fits: true, count, vus };
  }
  return { fits: false, largest: Math.max(0, ...capacities), total };
}
