// k6's execution options → scenarios. The shortcuts (`vus` + `duration`,
// `iterations`, `stages`) become one scenario named "default", as k6 does;
// `scenarios` is taken as written. Every field is checked here, so a typo is
// a 400 naming it before any VU is made.
import { DurationError, parseDuration } from "../duration";

export type Stage = { durationMs: number; target: number };

interface Common {
  name: string;
  exec: string;
  startTimeMs: number;
  gracefulStopMs: number;
  env: Record<string, string>;
  tags: Record<string, string>;
}

export type Scenario = Common &
  (
    | { executor: "constant-vus"; vus: number; durationMs: number }
    | { executor: "ramping-vus"; startVUs: number; stages: Stage[]; gracefulRampDownMs: number }
    | { executor: "constant-arrival-rate"; rate: number; timeUnitMs: number; durationMs: number; preAllocatedVUs: number; maxVUs: number }
    | { executor: "ramping-arrival-rate"; startRate: number; timeUnitMs: number; stages: Stage[]; preAllocatedVUs: number; maxVUs: number }
    | { executor: "shared-iterations"; vus: number; iterations: number; maxDurationMs: number }
    | { executor: "per-vu-iterations"; vus: number; iterations: number; maxDurationMs: number }
  );

export class OptionsError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`options.${field}: ${message}`);
  }
}

/** Limits one run may ask for (a runner splits a larger task). */
export const MAX_VUS = 5000;
export const MAX_DURATION_MS = 24 * 3_600_000;

type Raw = Record<string, unknown>;

function duration(raw: Raw, key: string, field: string, fallback?: number): number {
  const v = raw[key];
  if (v === undefined || v === null) {
    if (fallback === undefined) throw new OptionsError(field, "is required");
    return fallback;
  }
  let ms: number;
  try {
    ms = parseDuration(v as string | number);
  } catch (e) {
    throw new OptionsError(field, (e as DurationError).message);
  }
  if (ms > MAX_DURATION_MS) throw new OptionsError(field, `at most 24h`);
  return ms;
}

function count(raw: Raw, key: string, field: string, opts: { fallback?: number; min?: number; max?: number } = {}): number {
  const v = raw[key];
  if (v === undefined || v === null) {
    if (opts.fallback === undefined) throw new OptionsError(field, "is required");
    return opts.fallback;
  }
  const n = Number(v);
  const min = opts.min ?? 0;
  if (!Number.isInteger(n) || n < min) throw new OptionsError(field, `must be a whole number ≥ ${min}`);
  if (opts.max !== undefined && n > opts.max) throw new OptionsError(field, `at most ${opts.max}`);
  return n;
}

function stages(raw: unknown, field: string): Stage[] {
  if (!Array.isArray(raw) || raw.length === 0) throw new OptionsError(field, "must be a non-empty list of {duration, target}");
  return raw.map((s, i) => {
    if (!s || typeof s !== "object") throw new OptionsError(`${field}[${i}]`, "must be {duration, target}");
    return { durationMs: duration(s as Raw, "duration", `${field}[${i}].duration`), target: count(s as Raw, "target", `${field}[${i}].target`, { max: MAX_VUS * 100 }) };
  });
}

function strings(raw: unknown, field: string): Record<string, string> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw new OptionsError(field, "must be an object of strings");
  return Object.fromEntries(Object.entries(raw as Raw).map(([k, v]) => [k, String(v)]));
}

function scenario(name: string, raw: Raw, exported: string[]): Scenario {
  const f = (k: string) => `scenarios.${name}.${k}`;
  const exec = raw.exec === undefined ? "default" : String(raw.exec);
  if (!exported.includes(exec)) throw new OptionsError(f("exec"), `the script exports no function "${exec}"`);
  const common: Common = {
    name,
    exec,
    startTimeMs: duration(raw, "startTime", f("startTime"), 0),
    gracefulStopMs: duration(raw, "gracefulStop", f("gracefulStop"), 30_000),
    env: strings(raw.env, f("env")),
    tags: strings(raw.tags, f("tags")),
  };
  const executor = String(raw.executor ?? "");
  switch (executor) {
    case "constant-vus":
      return { ...common, executor, vus: count(raw, "vus", f("vus"), { fallback: 1, min: 1, max: MAX_VUS }), durationMs: duration(raw, "duration", f("duration")) };
    case "ramping-vus":
      return { ...common, executor, startVUs: count(raw, "startVUs", f("startVUs"), { fallback: 1, max: MAX_VUS }), stages: stages(raw.stages, f("stages")), gracefulRampDownMs: duration(raw, "gracefulRampDown", f("gracefulRampDown"), 30_000) };
    case "constant-arrival-rate": {
      const pre = count(raw, "preAllocatedVUs", f("preAllocatedVUs"), { min: 1, max: MAX_VUS });
      return { ...common, executor, rate: count(raw, "rate", f("rate"), { min: 1 }), timeUnitMs: duration(raw, "timeUnit", f("timeUnit"), 1000), durationMs: duration(raw, "duration", f("duration")), preAllocatedVUs: pre, maxVUs: Math.max(pre, count(raw, "maxVUs", f("maxVUs"), { fallback: pre, max: MAX_VUS })) };
    }
    case "ramping-arrival-rate": {
      const pre = count(raw, "preAllocatedVUs", f("preAllocatedVUs"), { min: 1, max: MAX_VUS });
      return { ...common, executor, startRate: count(raw, "startRate", f("startRate"), { fallback: 0 }), timeUnitMs: duration(raw, "timeUnit", f("timeUnit"), 1000), stages: stages(raw.stages, f("stages")), preAllocatedVUs: pre, maxVUs: Math.max(pre, count(raw, "maxVUs", f("maxVUs"), { fallback: pre, max: MAX_VUS })) };
    }
    case "shared-iterations":
    case "per-vu-iterations":
      return { ...common, executor, vus: count(raw, "vus", f("vus"), { fallback: 1, min: 1, max: MAX_VUS }), iterations: count(raw, "iterations", f("iterations"), { fallback: 1, min: 1 }), maxDurationMs: duration(raw, "maxDuration", f("maxDuration"), 600_000) };
    default:
      throw new OptionsError(f("executor"), `"${executor}" is not an executor here (constant-vus, ramping-vus, constant-arrival-rate, ramping-arrival-rate, shared-iterations, per-vu-iterations; externally-controlled is not supported)`);
  }
}

/** The run's scenarios from k6 options (the script's, with the caller's overrides already merged in). */
export function scenariosFrom(options: Raw, exported: string[]): Scenario[] {
  if (options.scenarios !== undefined) {
    if (!options.scenarios || typeof options.scenarios !== "object" || Array.isArray(options.scenarios)) throw new OptionsError("scenarios", "must be an object of name → scenario");
    const entries = Object.entries(options.scenarios as Record<string, Raw>);
    if (entries.length === 0) throw new OptionsError("scenarios", "must name at least one scenario");
    return entries.map(([name, raw]) => {
      if (!/^[a-zA-Z0-9_-]{1,64}$/.test(name)) throw new OptionsError(`scenarios.${name}`, "names are letters, digits, _ and -");
      return scenario(name, raw ?? {}, exported);
    });
  }
  try {
    return shortcutScenarios(options, exported);
  } catch (e) {
    // The shortcuts become the "default" scenario; the error names the field the user wrote.
    if (e instanceof OptionsError && e.field.startsWith("scenarios.default.")) {
      const field = e.field.slice("scenarios.default.".length).replace(/^maxDuration/, "duration");
      throw new OptionsError(field, e.message.slice(e.message.indexOf(": ") + 2));
    }
    throw e;
  }
}

function shortcutScenarios(options: Raw, exported: string[]): Scenario[] {
  const given = (k: string) => options[k] !== undefined && options[k] !== null;
  if (given("stages") && given("iterations")) throw new OptionsError("stages", "cannot be combined with iterations");
  if (given("stages")) return [scenario("default", { executor: "ramping-vus", startVUs: options.vus ?? 1, stages: options.stages, gracefulRampDown: "30s" }, exported)];
  if (given("iterations")) return [scenario("default", { executor: "shared-iterations", vus: options.vus ?? 1, iterations: options.iterations, maxDuration: options.duration ?? "10m" }, exported)];
  if (given("duration")) return [scenario("default", { executor: "constant-vus", vus: options.vus ?? 1, duration: options.duration }, exported)];
  return [scenario("default", { executor: "per-vu-iterations", vus: options.vus ?? 1, iterations: 1 }, exported)];
}

/** How many VUs a scenario may hold at once. */
export function maxVusOf(s: Scenario): number {
  switch (s.executor) {
    case "ramping-vus":
      return Math.max(s.startVUs, ...s.stages.map((x) => x.target));
    case "constant-arrival-rate":
    case "ramping-arrival-rate":
      return s.maxVUs;
    default:
      return s.vus;
  }
}

/** How long a scenario runs at most (without its graceful stop). */
export function scenarioLengthMs(s: Scenario): number {
  switch (s.executor) {
    case "ramping-vus":
    case "ramping-arrival-rate":
      return s.stages.reduce((n, x) => n + x.durationMs, 0);
    case "shared-iterations":
    case "per-vu-iterations":
      return s.maxDurationMs;
    default:
      return s.durationMs;
  }
}

/** Value of a piecewise-linear ramp at `t` (VUs of ramping-vus, rate of ramping-arrival-rate). */
export function rampAt(start: number, list: Stage[], t: number): number {
  let from = start;
  let at = 0;
  for (const s of list) {
    if (t < at + s.durationMs) return s.durationMs === 0 ? s.target : from + ((s.target - from) * (t - at)) / s.durationMs;
    at += s.durationMs;
    from = s.target;
  }
  return from;
}

/** Iterations due by `t` at a ramping rate (per timeUnit): the integral of the ramp. */
export function arrivalsUntil(start: number, list: Stage[], timeUnitMs: number, t: number): number {
  let from = start;
  let at = 0;
  let total = 0;
  for (const s of list) {
    const end = at + s.durationMs;
    const upto = Math.min(t, end);
    if (upto > at && s.durationMs > 0) {
      const dt = upto - at;
      const rateEnd = from + ((s.target - from) * dt) / s.durationMs;
      total += ((from + rateEnd) / 2) * (dt / timeUnitMs);
    }
    if (t <= end) return total;
    at = end;
    from = s.target;
  }
  return total;
}

/** One runner's part of a task split over `count` runners (k6's execution segments). */
export interface Segment {
  index: number;
  count: number;
}

/** Part `index` of `n` split `count` ways: the parts are whole numbers that add up to `n` exactly. */
export function shareOf(n: number, { index, count }: Segment): number {
  return Math.floor((n * (index + 1)) / count) - Math.floor((n * index) / count);
}

/**
 * The scenarios one segment runs: VUs and iterations divided so that the
 * segments together run exactly the whole (no VU or iteration twice), rates
 * divided as fractions. A scenario whose share is nothing is left out.
 */
export function segmentScenarios(scenarios: Scenario[], segment: Segment): Scenario[] {
  if (segment.count <= 1) return scenarios;
  const fraction = 1 / segment.count;
  const out: Scenario[] = [];
  for (const s of scenarios) {
    switch (s.executor) {
      case "constant-vus":
      case "per-vu-iterations": {
        const vus = shareOf(s.vus, segment);
        if (vus > 0) out.push({ ...s, vus });
        break;
      }
      case "shared-iterations": {
        const iterations = shareOf(s.iterations, segment);
        if (iterations > 0) out.push({ ...s, iterations, vus: Math.max(1, Math.min(iterations, shareOf(s.vus, segment))) });
        break;
      }
      case "ramping-vus": {
        const stages = s.stages.map((x) => ({ ...x, target: shareOf(x.target, segment) }));
        const startVUs = shareOf(s.startVUs, segment);
        if (startVUs > 0 || stages.some((x) => x.target > 0)) out.push({ ...s, startVUs, stages });
        break;
      }
      case "constant-arrival-rate":
        out.push({ ...s, rate: s.rate * fraction, preAllocatedVUs: Math.max(1, shareOf(s.preAllocatedVUs, segment)), maxVUs: Math.max(1, shareOf(s.maxVUs, segment)) });
        break;
      case "ramping-arrival-rate":
        out.push({ ...s, startRate: s.startRate * fraction, stages: s.stages.map((x) => ({ ...x, target: x.target * fraction })), preAllocatedVUs: Math.max(1, shareOf(s.preAllocatedVUs, segment)), maxVUs: Math.max(1, shareOf(s.maxVUs, segment)) });
        break;
    }
  }
  return out;
}
