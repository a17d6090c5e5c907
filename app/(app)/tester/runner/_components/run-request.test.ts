// The runner's settings turned into the execute endpoint's body: defaults,
// what is left out, and a message for each field the endpoint would refuse.
import { describe, expect, it } from "vitest";
import { buildRunRequest, DEFAULT_SETTINGS, type RunInputs, type RunSettings } from "./run-request";

const all: RunInputs = { dataUsable: true, requestIds: ["r1", "r2"], requestCount: 2 };

describe("buildRunRequest", () => {
  const ok: { name: string; settings?: Partial<RunSettings>; inputs?: Partial<RunInputs>; request: unknown }[] = [
    { name: "defaults: no environment, no delay, every request", request: { environmentId: "", delayMs: 0, bail: false } },
    { name: "an environment", settings: { environmentId: "e1" }, request: { environmentId: "e1", delayMs: 0, bail: false } },
    { name: "iterations, delay, bail and a trimmed name", settings: { iterations: " 3 ", delayMs: "250", bail: true, name: "  nightly " }, request: { environmentId: "", iterations: 3, delayMs: 250, bail: true, name: "nightly" } },
    { name: "a blank delay is 0", settings: { delayMs: " " }, request: { environmentId: "", delayMs: 0, bail: false } },
    { name: "the limits themselves", settings: { iterations: "10000", delayMs: "60000" }, request: { environmentId: "", iterations: 10000, delayMs: 60000, bail: false } },
    { name: "a data file's text", inputs: { data: "a\n1\n" }, request: { environmentId: "", delayMs: 0, bail: false, data: "a\n1\n" } },
    { name: "some requests", inputs: { requestIds: ["r2"] }, request: { environmentId: "", delayMs: 0, bail: false, requestIds: ["r2"] } },
    { name: "a collection without requests", inputs: { requestIds: [], requestCount: 0 }, request: { environmentId: "", delayMs: 0, bail: false } },
  ];
  it.each(ok)("$name", ({ settings, inputs, request }) => {
    expect(buildRunRequest({ ...DEFAULT_SETTINGS, ...settings }, { ...all, ...inputs })).toEqual({ ok: true, request });
  });

  const refused: { name: string; settings?: Partial<RunSettings>; inputs?: Partial<RunInputs>; problems: Record<string, string> }[] = [
    { name: "zero iterations", settings: { iterations: "0" }, problems: { iterations: "Iterations: a whole number from 1 to 10000, or blank" } },
    { name: "too many iterations", settings: { iterations: "10001" }, problems: { iterations: "Iterations: a whole number from 1 to 10000, or blank" } },
    { name: "fractional iterations", settings: { iterations: "1.5" }, problems: { iterations: "Iterations: a whole number from 1 to 10000, or blank" } },
    { name: "a negative delay", settings: { delayMs: "-1" }, problems: { delayMs: "Delay: a whole number from 0 to 60000 (milliseconds)" } },
    { name: "a delay over a minute", settings: { delayMs: "60001" }, problems: { delayMs: "Delay: a whole number from 0 to 60000 (milliseconds)" } },
    { name: "a long name", settings: { name: "x".repeat(201) }, problems: { name: "Run name: at most 200 characters" } },
    { name: "no request selected", inputs: { requestIds: [] }, problems: { requests: "Select at least one request to run" } },
    { name: "an unusable data file", inputs: { data: "a,a\n", dataUsable: false }, problems: { data: "Fix or remove the data file" } },
    { name: "several at once", settings: { iterations: "x", delayMs: "y" }, problems: { iterations: "Iterations: a whole number from 1 to 10000, or blank", delayMs: "Delay: a whole number from 0 to 60000 (milliseconds)" } },
  ];
  it.each(refused)("refuses $name", ({ settings, inputs, problems }) => {
    expect(buildRunRequest({ ...DEFAULT_SETTINGS, ...settings }, { ...all, ...inputs })).toEqual({ ok: false, problems });
  });
});
