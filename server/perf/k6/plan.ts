// A k6 script's run plan, read before anything is sent: its options merged
// with the caller's overrides and checked (hosts, redirects, scenarios,
// thresholds), so a bad field is a 400 naming it. The engine runs the same
// checks; `inspectLoadScript` lets the API answer them before it answers 202.
import type { PrivatePolicy } from "@/server/lib/ssrf";
import { MetricRegistry } from "../metrics";
import { parseThresholds, type Threshold } from "../thresholds";
import { maxVusOf, type Scenario, scenarioLengthMs, scenariosFrom } from "./scenarios";
import { checkScript, K6Vu, ScriptError, type ScriptInfo, type VuHost } from "./vu";

/** Input the run cannot start with: a 400 naming what is wrong. */
export class LoadInputError extends Error {
  constructor(
    message: string,
    readonly location: { field: string; line?: number; column?: number; module?: string },
  ) {
    super(message);
  }
}

export function mergeOptions(script: Record<string, unknown>, overrides: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!overrides) return script;
  const merged = { ...script, ...overrides };
  // A shortcut given by the caller replaces the script's execution plan, as k6's CLI flags do.
  if (["vus", "duration", "iterations", "stages"].some((k) => overrides[k] !== undefined) && overrides.scenarios === undefined) delete merged.scenarios;
  return merged;
}

export interface RunPlan {
  options: Record<string, unknown>;
  scenarios: Scenario[];
  thresholds: Threshold[];
  /** The VUs the plan may hold at once (all scenarios together). */
  maxVus: number;
  /** How long the plan runs at most, graceful stops included. */
  maxDurationMs: number;
}

/** Checks the merged options; the registry learns the script's custom metrics first, so thresholds on them parse. */
export function planFrom(info: ScriptInfo, overrides: Record<string, unknown> | undefined, registry: MetricRegistry): RunPlan {
  for (const [name, m] of Object.entries(info.metrics)) registry.define(name, m.type, m.isTime);
  const options = mergeOptions(info.options, overrides);
  if (options.hosts !== undefined && (typeof options.hosts !== "object" || options.hosts === null || Array.isArray(options.hosts) || Object.values(options.hosts).some((v) => typeof v !== "string"))) {
    throw new LoadInputError("options.hosts: must be an object of hostname → address", { field: "options.hosts" });
  }
  if (options.maxRedirects !== undefined && !(Number.isInteger(options.maxRedirects) && (options.maxRedirects as number) >= 0)) {
    throw new LoadInputError("options.maxRedirects: must be a whole number ≥ 0", { field: "options.maxRedirects" });
  }
  let scenarios: Scenario[];
  try {
    scenarios = scenariosFrom(options, info.functions);
  } catch (e) {
    throw new LoadInputError((e as Error).message, { field: `options.${(e as { field?: string }).field ?? ""}` });
  }
  let thresholds: Threshold[];
  try {
    thresholds = parseThresholds(options.thresholds, registry.typeOf);
  } catch (e) {
    throw new LoadInputError((e as Error).message, { field: "options.thresholds" });
  }
  return {
    options,
    scenarios,
    thresholds,
    maxVus: scenarios.reduce((n, s) => n + maxVusOf(s), 0),
    maxDurationMs: Math.max(0, ...scenarios.map((s) => s.startTimeMs + scenarioLengthMs(s) + s.gracefulStopMs)),
  };
}

const inertHost: VuHost = {
  http: () => Promise.reject(new Error("no requests while inspecting")),
  sleep: () => Promise.resolve(),
  shared: () => undefined,
  open: () => "",
  log: () => {},
  abort: () => {},
};

/**
 * Compiles the script and runs its init code once (as k6 does before a run)
 * to read its options. Throws LoadInputError for anything the run would
 * refuse. `files` make open() in the init code work as in the run.
 */
export async function inspectLoadScript(input: { source: string; options?: Record<string, unknown>; env?: Record<string, string>; files?: Record<string, string>; privatePolicy?: PrivatePolicy }): Promise<RunPlan> {
  const problem = await checkScript(input.source);
  if (problem) throw new LoadInputError(problem.message, { field: "script", line: problem.line, column: problem.column, module: problem.module });
  const files = input.files ?? {};
  const shared = new Map<string, string>();
  let vu: K6Vu;
  try {
    vu = await K6Vu.create({
      id: 0,
      source: input.source,
      env: input.env ?? {},
      host: {
        ...inertHost,
        shared: (name, json) => {
          if (json !== undefined) shared.set(name, json);
          return shared.get(name);
        },
        open: (p) => {
          // As the engine does: k6 scripts name their files relative to themselves ("./data.csv").
          const key = p.replace(/^\.\//, "");
          if (!(key in files)) throw new Error(`open(${JSON.stringify(p)}): no such file was uploaded with the script`);
          return files[key];
        },
      },
    });
  } catch (e) {
    if (e instanceof ScriptError) throw new LoadInputError(e.message, { field: "script", line: e.problem.line, column: e.problem.column, module: e.problem.module });
    throw e;
  }
  try {
    return planFrom(await vu.info(), input.options, new MetricRegistry());
  } finally {
    vu.dispose();
  }
}
