// The runner's settings as the user types them (text fields stay text until
// Run) and the execute endpoint's body made from them, with a message per
// field the endpoint would refuse. An environment of null is sent as ""
// ("none"): leaving it out would mean "my active one", which the picker has
// already shown as its default.
import type { RunRequest } from "./use-collection-run";

export const MAX_ITERATIONS = 10_000;
export const MAX_DELAY_MS = 60_000;

export interface RunSettings {
  environmentId: string | null;
  /** Blank: one iteration per data row, else one. */
  iterations: string;
  delayMs: string;
  bail: boolean;
  /** Blank: the collection's name. */
  name: string;
}

export const DEFAULT_SETTINGS: RunSettings = { environmentId: null, iterations: "", delayMs: "0", bail: false, name: "" };

export type SettingsProblems = Partial<Record<"iterations" | "delayMs" | "name" | "requests" | "data", string>>;

function wholeNumber(text: string, min: number, max: number): number | string {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return `a whole number from ${min} to ${max}`;
  const n = Number(t);
  return n < min || n > max ? `a whole number from ${min} to ${max}` : n;
}

export interface RunInputs {
  /** The data file's text; undefined without one. */
  data?: string;
  /** False when the data file cannot be used (its message is shown beside it). */
  dataUsable: boolean;
  /** The selected requests in tree order, and how many the collection has. */
  requestIds: string[];
  requestCount: number;
}

export function buildRunRequest(settings: RunSettings, inputs: RunInputs): { ok: true; request: RunRequest } | { ok: false; problems: SettingsProblems } {
  const problems: SettingsProblems = {};
  let iterations: number | undefined;
  if (settings.iterations.trim() !== "") {
    const n = wholeNumber(settings.iterations, 1, MAX_ITERATIONS);
    if (typeof n === "string") problems.iterations = `Iterations: ${n}, or blank`;
    else iterations = n;
  }
  const delay = wholeNumber(settings.delayMs.trim() === "" ? "0" : settings.delayMs, 0, MAX_DELAY_MS);
  if (typeof delay === "string") problems.delayMs = `Delay: ${delay} (milliseconds)`;
  const name = settings.name.trim();
  if (name.length > 200) problems.name = "Run name: at most 200 characters";
  if (inputs.requestCount > 0 && inputs.requestIds.length === 0) problems.requests = "Select at least one request to run";
  if (inputs.data !== undefined && !inputs.dataUsable) problems.data = "Fix or remove the data file";
  if (Object.keys(problems).length) return { ok: false, problems };

  const request: RunRequest = { environmentId: settings.environmentId ?? "", delayMs: typeof delay === "number" ? delay : 0, bail: settings.bail };
  if (iterations !== undefined) request.iterations = iterations;
  if (inputs.data !== undefined) request.data = inputs.data;
  if (name) request.name = name;
  // Every request selected: leave the list out, so the run takes the collection as it is.
  if (inputs.requestIds.length < inputs.requestCount) request.requestIds = inputs.requestIds;
  return { ok: true, request };
}
