import { describe, expect, it } from "vitest";
import { MetricRegistry } from "./metrics";
import { buildSummary, GroupTree, summaryText } from "./summary";
import { parseThresholds } from "./thresholds";

function sampleRun() {
  const registry = new MetricRegistry();
  const thresholds = parseThresholds({ http_req_duration: ["p(95)<200"], "http_req_duration{status:200}": ["avg<50"], http_req_failed: ["rate<0.01"] }, registry.typeOf);
  for (const t of thresholds) if (Object.keys(t.tags).length) registry.get(t.metric)!.watch(t.key, t.tags);
  for (let i = 0; i < 9; i++) {
    registry.add("http_req_duration", 20, { status: "200" });
    registry.add("http_req_failed", 0, {});
  }
  registry.add("http_req_duration", 400, { status: "500" });
  registry.add("http_req_failed", 1, {});
  registry.add("http_reqs", 10, {});
  registry.add("data_received", 12_345, {});
  registry.add("vus", 2, {});
  registry.add("iterations", 10, {});
  const groups = new GroupTree();
  groups.check([], "status is 200", 9, 1);
  groups.enter(["Main page"]);
  groups.check(["Main page"], "has title", 10, 0);
  return { registry, groups, thresholds };
}

describe("end-of-test summary", () => {
  it("has k6's handleSummary shape, with each threshold's ok", () => {
    const data = buildSummary({ ...sampleRun(), durationMs: 5000 });
    expect(data.state.testRunDurationMs).toBe(5000);
    expect(data.metrics.http_reqs).toEqual({ type: "counter", contains: "default", values: { count: 10, rate: 2 } });
    expect(data.metrics.http_req_failed).toMatchObject({ type: "rate", values: { rate: 0.1, passes: 1, fails: 9 }, thresholds: { "rate<0.01": { ok: false } } });
    expect(data.metrics.http_req_duration.contains).toBe("time");
    expect(Object.keys(data.metrics.http_req_duration.values)).toEqual(["avg", "min", "med", "max", "p(90)", "p(95)"]);
    expect(data.metrics.http_req_duration.thresholds).toEqual({ "p(95)<200": { ok: false } });
    expect(data.metrics["http_req_duration{status:200}"]).toMatchObject({ values: { avg: 20 }, thresholds: { "avg<50": { ok: true } } });
    expect(data.metrics.http_req_blocked).toBeUndefined(); // no samples, no threshold: not reported
    expect(data.root_group.checks[0]).toEqual({ name: "status is 200", path: "::status is 200", passes: 9, fails: 1 });
    expect(data.root_group.groups[0]).toMatchObject({ name: "Main page", path: "::Main page", checks: [{ path: "::Main page::has title", passes: 10 }] });
  });

  it("prints k6's text layout", () => {
    const text = summaryText(buildSummary({ ...sampleRun(), durationMs: 5000 }));
    expect(text).toContain("     ✗ status is 200\n      ↳  90% — ✓ 9 / ✗ 1");
    expect(text).toContain("     █ Main page");
    expect(text).toMatch(/ {7}✓ has title/);
    expect(text).toMatch(/ {3}✗ http_req_duration\.+: avg=58ms +min=20ms +med=20ms +max=400ms +p\(90\)=20ms +p\(95\)=400ms/);
    expect(text).toMatch(/ {3}✓ {3}\{ status:200 \}\.+: avg=20ms/);
    expect(text).toMatch(/ {3}✗ http_req_failed\.+: 10\.00% +✓ 1 +✗ 9/);
    expect(text).toMatch(/ {5}data_received\.+: 12\.3 kB +2\.5 kB\/s/);
    expect(text).toMatch(/ {5}http_reqs\.+: 10 +2\/s/);
    expect(text).toMatch(/ {5}vus\.+: 2 +min=2 +max=2/);
  });

  it("merges two runners' group trees", () => {
    const a = new GroupTree();
    a.check(["g"], "ok", 3, 0);
    const b = new GroupTree();
    b.check(["g"], "ok", 2, 1);
    b.check([], "top", 1, 0);
    a.merge(JSON.parse(JSON.stringify(b.root)));
    expect(a.root.groups[0].checks[0]).toMatchObject({ passes: 5, fails: 1 });
    expect(a.root.checks[0]).toMatchObject({ name: "top", passes: 1 });
  });
});
