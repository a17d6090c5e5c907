// Scripts from a load configuration, run on the real load engine against a
// real HTTP server: what arrives is what was configured, hostile text stays
// data, {{variables}} read __ENV with the configured defaults, and each load
// shape becomes the k6 options (and scenario) the engine plans as asked.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PerfScriptFromConfigInput } from "@/server/contracts/perf-script-endpoints";
import { runLoadTest } from "@/server/perf/k6/engine";
import { inspectLoadScript } from "@/server/perf/k6/plan";
import { scriptFromConfig } from "./from-config";
import { ScriptInputError } from "./script-input-error";
import { runOnce, startTarget, type Target } from "./test-helpers";

let target: Target;
beforeAll(async () => {
  target = await startTarget((s) => (s.path.startsWith("/created") ? { status: 201, body: '{"id":7,"ok":true}' } : undefined));
});
afterAll(() => target.close());

const generate = (input: unknown) => scriptFromConfig(PerfScriptFromConfigInput.parse(input));
const HOSTILE = 'a "q" `b` ${globalThis.boom = 1} \\ \n end';

describe("scriptFromConfig", () => {
  it("sends each configured request as written, hostile text included, and checks it", async () => {
    target.seen.length = 0;
    const g = generate({
      name: `Shop ${HOSTILE}`,
      variables: { base: target.base, "api-key": "k-1" },
      requests: [
        { name: `List ${HOSTILE}`, url: "{{base}}/items?q=x&tag={{api-key}}", headers: { "X-Api-Key": "{{api-key}}", "X-Note": HOSTILE.replace("\n", " ") } },
        { method: "post", url: "{{base}}/created", body: { name: HOSTILE, id: "{{$guid}}", n: [1, true, null] }, checks: { status: 201, bodyIncludes: '"id":7', maxDurationMs: 5000 } },
        { method: "PUT", url: "{{base}}/raw", headers: { "Content-Type": "text/plain" }, body: HOSTILE },
        { method: "DELETE", url: "{{base}}/items/1" },
      ],
    });
    const result = await runOnce(g.script);
    expect(target.seen.map((s) => `${s.method} ${s.path}`)).toEqual(["GET /items?q=x&tag=k-1", "POST /created", "PUT /raw", "DELETE /items/1"]);
    const [get, post, put] = target.seen;
    expect(get.headers["x-api-key"]).toBe("k-1");
    expect(get.headers["x-note"]).toBe(HOSTILE.replace("\n", " "));
    expect(post.headers["content-type"]).toBe("application/json");
    const sent = JSON.parse(post.body.toString());
    expect(sent).toMatchObject({ name: HOSTILE, n: [1, true, null] });
    expect(sent.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(put.body.toString()).toBe(HOSTILE);
    expect(result.summary.metrics.checks.values).toMatchObject({ fails: 0 });
    expect(result.summary.metrics.checks.values.passes).toBe(6);
    // The named request is tagged with its name, so its metrics are its own.
    expect(g.script).toContain(`tags: { name: ${JSON.stringify(`List ${HOSTILE}`)} }`);
    expect(g.variables.map((v) => [v.name, v.from, v.default])).toEqual([
      ["base", "base", target.base],
      ["api_key", "api-key", "k-1"],
    ]);
  });

  it("__ENV given to the run replaces a default; a name without a value is a warning", async () => {
    target.seen.length = 0;
    const g = generate({ variables: { base: "http://127.0.0.1:9" }, requests: [{ url: "{{base}}/x?who={{user}}" }] });
    expect(g.warnings).toEqual([{ message: "{{user}} has no value in variables: the run must give __ENV.user" }]);
    await runOnce(g.script, { env: { base: target.base, user: "ann" } });
    expect(target.seen.map((s) => s.path)).toEqual(["/x?who=ann"]);
  });

  it("refuses a URL that is not http(s), naming the request", () => {
    expect(() => generate({ requests: [{ url: "https://ok.example/" }, { url: "ftp://files.example/x" }] })).toThrow(ScriptInputError);
    try {
      generate({ requests: [{ url: "https://ok.example/" }, { url: "ftp://files.example/x" }] });
    } catch (e) {
      expect((e as ScriptInputError).problems).toEqual([{ message: "not an http(s) URL", pointer: "/requests/1/url" }]);
    }
  });

  it.each([
    ["no shape: 10 VUs for 30 s", undefined, { vus: 10, duration: "30s" }, { executor: "constant-vus", vus: 10, durationMs: 30_000 }],
    ["vus and duration", { vus: 3, duration: "1m" }, { vus: 3, duration: "1m" }, { executor: "constant-vus", vus: 3, durationMs: 60_000 }],
    ["iterations", { vus: 4, iterations: 40 }, { vus: 4, iterations: 40 }, { executor: "shared-iterations", vus: 4, iterations: 40 }],
    ["stages", { stages: [{ duration: "10s", target: 5 }, { duration: "5s", target: 0 }] }, { stages: [{ duration: "10s", target: 5 }, { duration: "5s", target: 0 }] }, { executor: "ramping-vus", stages: [{ durationMs: 10_000, target: 5 }, { durationMs: 5000, target: 0 }] }],
    [
      "rps over two requests an iteration",
      { vus: 6, duration: "20s", rps: 40 },
      { scenarios: { default: { executor: "constant-arrival-rate", rate: 40, timeUnit: "2s", duration: "20s", preAllocatedVUs: 6, maxVUs: 6 } } },
      { executor: "constant-arrival-rate", rate: 40, timeUnitMs: 2000, durationMs: 20_000, preAllocatedVUs: 6, maxVUs: 6 },
    ],
  ])("load shape: %s", async (_name, options, k6, scenario) => {
    const g = generate({ options, requests: [{ url: "http://127.0.0.1:9/a" }, { url: "http://127.0.0.1:9/b" }] });
    expect(g.options).toEqual(k6);
    const plan = await inspectLoadScript({ source: g.script });
    expect(plan.scenarios).toHaveLength(1);
    expect(plan.scenarios[0]).toMatchObject(scenario);
  });

  it("a target rate is held by the engine; thresholds are the run's", async () => {
    target.seen.length = 0;
    const g = generate({
      options: { vus: 5, duration: "2s", rps: 20, thresholds: { http_req_failed: ["rate<0.01"], "http_req_duration{name:one}": ["p(95)<2000"] }, sleep: 0 },
      requests: [{ name: "one", url: `${target.base}/rate` }],
    });
    expect(g.script).not.toContain("sleep(");
    const result = await runLoadTest({ source: g.script });
    expect(result.status).toBe("passed");
    // 20 a second for 2 s: loosely, as timers on a shared machine are not exact.
    expect(target.seen.length).toBeGreaterThanOrEqual(30);
    expect(target.seen.length).toBeLessThanOrEqual(45);
    expect(result.thresholds.map((t) => [t.key, t.ok])).toEqual([
      ["http_req_failed", true],
      ["http_req_duration{name:one}", true],
    ]);
  });

  it("the contract refuses shapes that contradict each other", () => {
    const bad = (options: unknown) => PerfScriptFromConfigInput.safeParse({ options, requests: [{ url: "http://x.example/" }] }).success;
    expect(bad({ stages: [{ duration: "1s", target: 1 }], duration: "1m" })).toBe(false);
    expect(bad({ stages: [{ duration: "1s", target: 1 }], rps: 5 })).toBe(false);
    expect(bad({ iterations: 5, rps: 5 })).toBe(false);
    expect(bad({ duration: "30 seconds" })).toBe(false);
    expect(bad({ vus: 1, duration: "1m30s", rps: 0 })).toBe(true);
  });
});
