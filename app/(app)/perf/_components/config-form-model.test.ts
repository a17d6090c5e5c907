// The editor's form ↔ a config's k6 options: the load shape and thresholds
// round-trip, other options survive an edit, bad rows are named.
import { describe, expect, it } from "vitest";
import { ConfigFormSchema, emptyForm, formFromConfig, optionsFromForm, rampPoints } from "./config-form-model";

const config = (options: Record<string, unknown>) => ({ name: "n", description: "", script: "export default function () {}", options, environment: { BASE_URL: "http://x" }, environmentId: null });

describe("formFromConfig / optionsFromForm", () => {
  it.each([
    [{ vus: 5, duration: "10s" }],
    [{ stages: [{ duration: "5s", target: 10 }, { duration: "5s", target: 0 }] }],
    [{ vus: 2, duration: "5s", thresholds: { http_req_duration: ["p(95)<200", "avg<100"], "http_req_failed{status:500}": ["rate<0.1"] } }],
    [{ thresholds: { checks: [{ threshold: "rate>0.9", abortOnFail: true, delayAbortEval: "10s" }] } }],
    [{ scenarios: { a: { executor: "shared-iterations", iterations: 3 } }, summaryTrendStats: ["avg", "p(99)"] }],
  ])("round-trips %j", (options) => {
    expect(optionsFromForm(formFromConfig(config(options)), options)).toEqual(options);
  });

  it("reads the load shape", () => {
    expect(formFromConfig(config({ stages: [] })).load).toBe("ramp");
    expect(formFromConfig(config({ vus: 3 })).load).toBe("fixed");
    expect(formFromConfig(config({})).load).toBe("script");
  });

  it("switching to the script's options drops vus, duration and stages but keeps the rest", () => {
    const before = { vus: 5, duration: "10s", iterations: 20, thresholds: { checks: ["rate>0.9"] } };
    const form = { ...formFromConfig(config(before)), load: "script" as const };
    expect(optionsFromForm(form, before)).toEqual({ iterations: 20, thresholds: { checks: ["rate>0.9"] } });
  });

  it("keeps the __ENV rows", () => {
    expect(formFromConfig(config({})).environment).toEqual([{ name: "BASE_URL", value: "http://x" }]);
  });
});

describe("ConfigFormSchema", () => {
  const errorsOf = (patch: Partial<ReturnType<typeof emptyForm>>) => {
    const r = ConfigFormSchema.safeParse({ ...emptyForm(), name: "x", ...patch });
    return r.success ? [] : r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };
  it("accepts the starting form", () => expect(errorsOf({})).toEqual([]));
  it.each([
    [{ vus: "0" }, "vus"],
    [{ duration: "ten seconds" }, "duration"],
    [{ load: "ramp" as const, stages: [] }, "stages"],
    [{ load: "ramp" as const, stages: [{ duration: "5x", target: "1" }] }, "stages.0.duration"],
    [{ thresholds: [{ metric: "http_req_duration", expression: "p95 < 1", abortOnFail: false }] }, "thresholds.0.expression"],
    [{ thresholds: [{ metric: "bad name", expression: "avg<1", abortOnFail: false }] }, "thresholds.0.metric"],
    [{ environment: [{ name: "1X", value: "" }] }, "environment.0.name"],
    [{ environment: [{ name: "A", value: "" }, { name: "A", value: "" }] }, "environment.1.name"],
  ])("refuses %j at %s", (patch, path) => {
    expect(errorsOf(patch).some((e) => e.startsWith(`${path}:`))).toBe(true);
  });
  it("does not check the fixed fields in ramp mode", () => expect(errorsOf({ load: "ramp", vus: "" })).toEqual([]));
});

describe("rampPoints", () => {
  it("accumulates the stages from the start VUs and skips unreadable ones", () => {
    expect(rampPoints([{ duration: "10s", target: "20" }, { duration: "bad", target: "5" }, { duration: "1m", target: "0" }])).toEqual([
      { t: 0, vus: 1 },
      { t: 10, vus: 20 },
      { t: 70, vus: 0 },
    ]);
  });
});
