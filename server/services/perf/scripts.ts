// Generated k6 scripts: from a load configuration, from a HAR, from a saved
// API tester request (through the collection-access rules: a cross-Space
// shared collection is 403, an unreachable one 404), and from collections
// for the runs that load test them (perf/run-collection, execute-perf:
// `collectionsToLoadScript`). Every script is compiled and its options
// planned by the load engine before it is answered, so what comes back runs.
import type { Actor } from "@/server/auth/actor";
import { MAX_SCRIPT_BYTES } from "@/server/contracts/perf";
import type { PerfLoadOptions, PerfScriptFromConfigInput, PerfScriptFromHarInput, PerfScriptFromRequestInput, PerfScriptResult } from "@/server/contracts/perf-script-endpoints";
import { AppError, errors } from "@/server/errors";
import { parseDocumentText } from "@/server/generators/document-text";
import { GeneratorInputError } from "@/server/generators/input-error";
import { scriptFromConfig } from "@/server/perf/scripts/from-config";
import { scriptFromHar } from "@/server/perf/scripts/from-har";
import { type GeneratedScript, scriptFromTester, type TesterCollection } from "@/server/perf/scripts/from-tester";
import { ScriptInputError } from "@/server/perf/scripts/script-input-error";
import { SNIPPETS } from "@/server/perf/scripts/snippets";
import type { NamespaceScope } from "../namespace-access";
import { assertCollectionUsable, assertRequestUsable } from "../tester/collection-access";
import { loadCollectionForRun, type CollectionForRun } from "../tester/collection-tree";
import { loadActiveEnvironmentForRun, loadEnvironmentForRun } from "../tester/environments";
import { planOrProblem } from "./runs";

/** A pointer ("/requests/0/url") as the error envelope's field ("requests.0.url"). */
const fieldOf = (pointer: string | undefined, fallback: string) => (pointer ? pointer.replace(/^\//, "").replace(/\//g, ".") || fallback : fallback);

function refused(e: ScriptInputError, field: string): AppError {
  return errors.validation(
    e.message,
    e.problems.map((p) => ({ location: "body", field: fieldOf(p.pointer, field), message: p.message, ...(p.requestId ? { requestId: p.requestId, request: p.request } : {}) })),
  );
}

/** Generates, then lets the engine compile and plan the script: a threshold it cannot read is a 400 here, not a failed run later. */
async function checked(field: string, generate: () => GeneratedScript): Promise<GeneratedScript> {
  let g: GeneratedScript;
  try {
    g = generate();
  } catch (e) {
    if (e instanceof ScriptInputError) throw refused(e, field);
    if (e instanceof GeneratorInputError) throw errors.validation(e.message, [{ location: "body", field, message: e.message, ...e.location }]);
    throw e;
  }
  if (Buffer.byteLength(g.script) > MAX_SCRIPT_BYTES) throw errors.validation(`The generated script is larger than ${MAX_SCRIPT_BYTES / 1024 / 1024} MiB (the most a run takes): select fewer requests or smaller bodies`);
  await planOrProblem({ script: g.script, environment: g.env });
  return g;
}

function view(g: GeneratedScript): PerfScriptResult {
  return {
    script: g.script,
    options: g.options,
    variables: g.variables.map((v) => ({ name: v.name, from: v.from, default: v.default ?? null, secret: v.secret })),
    warnings: g.warnings,
  };
}

export async function generateScriptFromConfig(input: PerfScriptFromConfigInput): Promise<PerfScriptResult> {
  return view(await checked("requests", () => scriptFromConfig(input)));
}

export async function generateScriptFromHar(input: PerfScriptFromHarInput): Promise<PerfScriptResult> {
  return view(
    await checked("har", () => {
      const har = typeof input.har === "string" ? parseDocumentText(input.har) : input.har;
      return scriptFromHar({ har, options: input.options, includeStatic: input.includeStatic, thinkTime: input.thinkTime });
    }),
  );
}

export function listPerfSnippets() {
  return { snippets: [...SNIPPETS] };
}

export interface EnvironmentChoice {
  /** Absent: the caller's active environment; null: none; an id: that one (404 when not in the namespace). */
  environmentId?: string | null;
  /** A non-empty object replaces the environment's values (an explicit environmentId must still exist). */
  environmentVariables?: Record<string, string>;
}

interface ChosenEnvironment {
  id: string | null;
  name?: string;
  values: Record<string, string>;
  secrets: string[];
}

async function chosenEnvironment(actor: Actor, scope: NamespaceScope, choice: EnvironmentChoice): Promise<ChosenEnvironment> {
  const env = choice.environmentId === undefined ? await loadActiveEnvironmentForRun(actor, scope) : choice.environmentId ? await loadEnvironmentForRun(scope, choice.environmentId) : null;
  const overridden = !!choice.environmentVariables && Object.keys(choice.environmentVariables).length > 0;
  return {
    id: env?.id ?? null,
    ...(env?.name ? { name: env.name } : {}),
    values: overridden ? { ...choice.environmentVariables } : { ...(env?.values ?? {}) },
    // A name the environment keeps secret stays secret when the caller gives its value.
    secrets: env?.secrets ?? [],
  };
}

const forScript = (c: CollectionForRun, requestIds?: string[]): TesterCollection => ({ ...c, ...(requestIds ? { requestIds } : {}) });

export async function generateScriptFromRequest(actor: Actor, scope: NamespaceScope, input: PerfScriptFromRequestInput): Promise<PerfScriptResult> {
  // 404 when the request cannot be reached, 403 when its collection is shared from another Space: before anything is read.
  const access = await assertRequestUsable(actor, scope, input.requestId, "execute");
  const collection = await loadCollectionForRun(scope, access.collection.id);
  const environment = await chosenEnvironment(actor, scope, input);
  return view(await checked("requestId", () => scriptFromTester({ collections: [forScript(collection, [input.requestId])], environment, options: input.perfOptions, mode: "edit" })));
}

export type CollectionSelection = string | { collectionId: string; requestIds?: string[] };

export interface CollectionsLoadInput extends EnvironmentChoice {
  /** Ids, or {collectionId, requestIds} selections (execute-perf's `collectionIds`); run in this order. */
  collectionIds?: CollectionSelection[];
  selections?: { collectionId: string; requestIds?: string[] }[];
  perfOptions?: PerfLoadOptions;
  /** Leave out the requests that need a dedicated load script (a warning each) instead of answering 400. */
  skipUnsupported?: boolean;
}

export interface CollectionsLoadScript {
  script: string;
  /** The k6 options written into the script. */
  options: Record<string, unknown>;
  /** __ENV values the script does not carry (secrets): the run's `environment`. */
  env: Record<string, string>;
  warnings: { message: string; pointer?: string }[];
  variables: PerfScriptResult["variables"];
  collectionIds: string[];
  environmentId: string | null;
}

/**
 * The k6 script that load tests the selected requests of the collections
 * (all of each when no requestIds), for perf/run-collection and
 * execute-perf. 404 for a collection or environment the caller cannot reach,
 * 403 for a collection shared from another Space, 409 for one in the trash,
 * 400 naming every request that needs a dedicated load script (scripts,
 * multipart or binary bodies) unless `skipUnsupported`.
 */
export async function collectionsToLoadScript(actor: Actor, scope: NamespaceScope, input: CollectionsLoadInput): Promise<CollectionsLoadScript> {
  const selections = [...(input.collectionIds ?? []), ...(input.selections ?? [])].map((s) => (typeof s === "string" ? { collectionId: s } : s));
  if (!selections.length) throw errors.validation("Name at least one collection to load test", [{ location: "body", field: "collectionIds", message: "at least one collection" }]);
  const collections: TesterCollection[] = [];
  for (const [i, s] of selections.entries()) {
    await assertCollectionUsable(actor, scope, s.collectionId, "execute");
    const c = await loadCollectionForRun(scope, s.collectionId);
    const known = new Set(c.requests.map((r) => r.id));
    const unknown = s.requestIds?.find((id) => !known.has(id));
    if (unknown) throw errors.validation(`Request '${unknown}' is not in collection '${c.name}'`, [{ location: "body", field: `collectionIds.${i}.requestIds`, message: `${unknown} is not in ${c.id}` }]);
    collections.push(forScript(c, s.requestIds));
  }
  const environment = await chosenEnvironment(actor, scope, input);
  const g = await checked("collectionIds", () => scriptFromTester({ collections, environment, options: input.perfOptions, mode: "run", skipUnsupported: input.skipUnsupported }));
  return { ...view(g), env: g.env, collectionIds: collections.map((c) => c.id), environmentId: environment.id };
}
