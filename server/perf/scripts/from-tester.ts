// API tester collections (or one of their requests) as a k6 script: every
// selected request once per iteration, in run order, folders as group()
// (and each collection as a group when there are several), the tester's
// variables as __ENV names with their values as defaults (secrets beside the
// script as the run's environment), the load shape as `options`.
//
// A run (execute-perf, perf/run-collection) refuses requests that need a
// dedicated load script, as the spec says — request, folder or collection
// scripts, multipart and binary bodies — with one 400 naming each request and
// why, unless told to leave them out (`skipUnsupported`, with a warning each).
// Generating a script to edit (from-request) converts what it can instead:
// scripts become comments, the body is embedded.
import type { PerfLoadOptions } from "@/server/contracts/perf-script-endpoints";
import type { RequestAuth, RequestDefinition, Scripts, Variable } from "@/server/contracts/tester-request";
import { folderChain } from "@/server/tester/folder-chain";
import { safeLabel } from "./js";
import { k6OptionsFor } from "./load-options";
import { ScriptInputError, type ScriptProblem } from "./script-input-error";
import { countRequests, type OAuthToken, type Step, writeScript } from "./script-writer";
import { convertTesterRequest, type ConversionMode } from "./tester-request";
import { EnvTable, type EnvVariable, scopeValues, VariableScope } from "./variables";

export interface TesterFolder {
  id: string;
  parentId: string | null;
  name: string;
  auth?: RequestAuth;
  scripts?: Scripts;
}

export interface TesterCollection {
  id: string;
  name: string;
  auth: RequestAuth;
  scripts: Scripts;
  /** Real values (secrets open). */
  variables: Variable[];
  folders: TesterFolder[];
  /** In run order, each with the names of the folders it is in. */
  requests: { id: string; name: string; folderId: string | null; path: string[]; definition: RequestDefinition }[];
  /** Only these requests (in run order); all when absent. */
  requestIds?: string[];
}

export interface TesterScriptInput {
  collections: TesterCollection[];
  environment?: { name?: string; values: Record<string, string>; secrets: string[] } | null;
  options?: PerfLoadOptions;
  mode: ConversionMode;
  /** Run mode: leave out requests that need a dedicated load script (with a warning each) instead of refusing. */
  skipUnsupported?: boolean;
}

export interface GeneratedScript {
  script: string;
  options: Record<string, unknown>;
  variables: EnvVariable[];
  warnings: { message: string; pointer?: string }[];
  /** __ENV values the script does not carry (secrets): the run's environment. */
  env: Record<string, string>;
}

/** Whether a script fragment holds code (not only blanks and comments). */
export function hasCode(source: string | undefined): boolean {
  if (!source) return false;
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/\/\/[^\n]*/g, "").trim() !== "";
}

function scriptsIn(where: string, scripts: Scripts | undefined): string[] {
  const out: string[] = [];
  if (hasCode(scripts?.preRequest)) out.push(`${where} pre-request script`);
  if (hasCode(scripts?.test)) out.push(`${where} test script`);
  return out;
}

/** Steps under nested groups by path, in the order given (depth-first order keeps each group in one piece). */
function nest(items: { path: string[]; step: Step }[]): Step[] {
  const root: Step[] = [];
  const open: { name: string; steps: Step[] }[] = [];
  for (const { path, step } of items) {
    let keep = 0;
    while (keep < open.length && keep < path.length && open[keep].name === path[keep]) keep++;
    open.length = keep;
    for (let i = keep; i < path.length; i++) {
      const group: Step = { kind: "group", name: path[i], steps: [] };
      (i === 0 ? root : open[i - 1].steps).push(group);
      open.push({ name: path[i], steps: group.steps });
    }
    (path.length ? open[path.length - 1].steps : root).push(step);
  }
  return root;
}

export function scriptFromTester(input: TesterScriptInput): GeneratedScript {
  const table = new EnvTable();
  const tokens = new Map<string, OAuthToken>();
  const warnings: GeneratedScript["warnings"] = [];
  const problems: ScriptProblem[] = [];
  const items: { path: string[]; step: Step }[] = [];
  const env = input.environment;
  const several = input.collections.length > 1;
  let insecure = 0;

  for (const c of input.collections) {
    const collectionVars = Object.fromEntries(c.variables.filter((v) => v.enabled).map((v) => [v.key, v.value]));
    const secrets = [...(env?.secrets ?? []), ...c.variables.filter((v) => v.enabled && v.secret).map((v) => v.key)];
    const scope = new VariableScope(table, scopeValues(collectionVars, env?.values ?? {}, secrets));
    const wanted = c.requestIds ? new Set(c.requestIds) : undefined;
    for (const r of c.requests) {
      if (wanted && !wanted.has(r.id)) continue;
      const where = [...(several ? [c.name] : []), ...r.path, r.name].join(" / ");
      const chain = folderChain(c.folders, r.folderId);
      const inheritedAuth = [...[...chain].reverse().map((f) => f.auth).filter((a): a is RequestAuth => !!a), c.auth];
      const scripts = [...scriptsIn("the collection's", c.scripts), ...chain.flatMap((f) => scriptsIn(`folder "${f.name}"'s`, f.scripts)), ...scriptsIn("its", r.definition.scripts)];
      const converted = convertTesterRequest(r.definition, { label: safeLabel(r.name), scope, inheritedAuth, mode: input.mode, tokens });
      const unsupported = input.mode === "run" ? [...scripts, ...converted.unsupported] : converted.unsupported;
      if (unsupported.length) {
        const message = `needs a dedicated load script: ${unsupported.join(", ")}`;
        if (input.skipUnsupported) warnings.push({ message: `${where}: left out, ${message}` });
        else problems.push({ message: `${where} ${message}`, requestId: r.id, request: where });
        continue;
      }
      if (scripts.length) {
        converted.request.notes = [`Not converted: ${scripts.join(", ")} (pm.* scripts do not run in k6): write what it does here.`];
        warnings.push({ message: `${where}: ${scripts.join(", ")} not converted (k6 does not run pm.* scripts)` });
      }
      for (const w of converted.warnings) warnings.push({ message: `${where}: ${w}` });
      if (converted.insecure) insecure++;
      items.push({ path: several ? [c.name, ...r.path] : r.path, step: { kind: "request", request: converted.request } });
    }
  }

  if (problems.length) {
    const first = problems.slice(0, 3).map((p) => p.message).join("; ");
    throw new ScriptInputError(
      `${problems.length} request${problems.length === 1 ? "" : "s"} cannot be load tested from the collection: ${first}${problems.length > 3 ? "; …" : ""}. Generate a script (POST /api/v1/perf/scripts/from-request), adapt it and run it with POST /api/v1/perf/run, or leave these requests out.`,
      problems,
    );
  }
  if (!items.length) throw new ScriptInputError("no request to load test: the selection is empty", [{ message: "no request to load test", pointer: "/collectionIds" }]);

  const steps = nest(items);
  const options = k6OptionsFor(input.options, countRequests(steps));
  if (insecure) {
    options.insecureSkipTLSVerify = true;
    warnings.push({ message: `${insecure === items.length ? "every request" : `${insecure} of ${items.length} requests`} skip${insecure === 1 && items.length > 1 ? "s" : ""} TLS verification: insecureSkipTLSVerify applies to the whole run` });
  }
  for (const w of table.warnings) warnings.push({ message: w });
  for (const v of table.required()) if (!v.secret) warnings.push({ message: `{{${v.from}}} has no value in the environment or the collection: the run must give __ENV.${v.name}` });

  const names = input.collections.map((c) => `"${c.name}"`).join(", ");
  const script = writeScript({
    header: [
      `k6 load test generated by polymock from ${input.collections.length === 1 ? "collection" : "collections"} ${names}${env?.name ? ` with environment "${env.name}"` : ""}.`,
      "Each iteration sends every request once, in the collection's order.",
    ],
    options,
    env: table,
    steps,
    ...(input.options?.sleep ? { sleepAfterIteration: input.options.sleep } : {}),
    tokens,
  });
  const envValues = Object.fromEntries([...table.variables.values()].filter((v) => v.secret && v.value !== undefined).map((v) => [v.name, v.value!]));
  return { script, options, variables: [...table.variables.values()], warnings, env: envValues };
}
