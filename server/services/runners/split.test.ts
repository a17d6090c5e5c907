// How a load run is split over runners: as few parts as the runners hold at
// once, each part's VUs exactly its execution segment's, and a clear "does
// not fit" when even the finest split is too large.
import { describe, expect, it } from "vitest";
import { scenariosFrom } from "@/server/perf/k6/scenarios";
import { MAX_PARTS, partVus, planSplit } from "./split";

const plan = (options: Record<string, unknown>) => scenariosFrom(options, ["default"]);

describe("planSplit", () => {
  const table: { name: string; options: Record<string, unknown>; capacities: number[]; expected: ReturnType<typeof planSplit> }[] = [
    { name: "one runner holds it all: one part", options: { vus: 10, duration: "10s" }, capacities: [200, 200], expected: { fits: true, count: 1, vus: [10] } },
    { name: "two runners of 5 share 10 VUs", options: { vus: 10, iterations: 40 }, capacities: [5, 5], expected: { fits: true, count: 2, vus: [5, 5] } },
    { name: "uneven VUs split exactly", options: { vus: 7, duration: "5s" }, capacities: [4, 4], expected: { fits: true, count: 2, vus: [3, 4] } },
    { name: "one large runner takes two parts", options: { vus: 120, duration: "5s" }, capacities: [100, 50], expected: { fits: true, count: 3, vus: [40, 40, 40] } },
    { name: "ramping stages count their peak", options: { stages: [{ duration: "5s", target: 30 }, { duration: "5s", target: 0 }] }, capacities: [20, 20], expected: { fits: true, count: 2, vus: [15, 15] } },
    { name: "too large for every runner together", options: { vus: 50, duration: "5s" }, capacities: [10, 10], expected: { fits: false, largest: 10, total: 20 } },
  ];
  for (const t of table) it(t.name, () => expect(planSplit(plan(t.options), t.capacities)).toEqual(t.expected));

  it("parts add up to the whole, scenario by scenario (while each part has a VU of each)", () => {
    const scenarios = plan({ scenarios: { a: { executor: "constant-vus", vus: 9, duration: "5s" }, b: { executor: "shared-iterations", vus: 5, iterations: 11 } } });
    for (let count = 1; count <= 5; count++) expect(partVus(scenarios, count).reduce((a, b) => a + b, 0)).toBe(14);
    // Finer, a part with iterations still needs one VU to run them.
    expect(partVus(scenarios, 6)).toEqual([2, 3, 2, 3, 2, 3]);
  });

  it("never splits finer than MAX_PARTS", () => {
    const r = planSplit(plan({ vus: 5000, duration: "5s" }), Array.from({ length: 100 }, () => 10));
    expect(r).toEqual({ fits: false, largest: 10, total: 1000 });
    expect(MAX_PARTS).toBeLessThan(100);
  });
});
