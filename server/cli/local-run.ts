// `polymock run <file>`: the collection file run in this process with the
// same pure runner, executor and script sandbox the server uses
// (server/tester): no server, no database.
import { readFile } from "node:fs/promises";
import type { RunRequestResult, TestRunDetail } from "@/server/contracts/tester-run";
import { flatten, runCollections, type RunCollection } from "@/server/tester/collection-runner";
import { DataFileError, parseDataFile } from "@/server/tester/data-file";
import { countResults, runStatusFrom } from "@/server/tester/run-counts";
import { emptyScopes } from "@/server/tester/scopes";
import type { RunArgs } from "./args";
import { loadCollectionFile } from "./collection-file";
import { loadEnvironmentFile } from "./environment-file";
import type { ScriptPresence } from "./summary";
import { UsageError } from "./usage-error";

export interface RunReport {
  run: TestRunDetail;
  scripts?: (r: RunRequestResult) => ScriptPresence;
}

export async function readDataFile(file: string): Promise<Record<string, unknown>[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new UsageError(`cannot read data file '${file}': ${(err as Error).message}`);
  }
  try {
    // Newman casts CSV numbers and booleans; collections moved from Postman rely on it.
    return parseDataFile(text, { csvValues: "newman" });
  } catch (err) {
    if (err instanceof DataFileError) throw new UsageError(`data file '${file}': ${err.message}${err.row !== undefined ? ` (row ${err.row})` : ""}`);
    throw err;
  }
}

/** --timeout-request and --insecure apply to every request, over what the collection says. */
function withSettings(collection: RunCollection, args: RunArgs): RunCollection {
  if (args.timeoutRequest === undefined && !args.insecure) return collection;
  return {
    ...collection,
    requests: collection.requests.map((r) => ({
      ...r,
      definition: { ...r.definition, settings: { ...r.definition.settings, ...(args.timeoutRequest !== undefined ? { timeoutMs: Math.min(args.timeoutRequest, 300_000) } : {}), ...(args.insecure ? { verifyTls: false } : {}) } },
    })),
  };
}

function presenceOf(collection: RunCollection): (r: RunRequestResult) => ScriptPresence {
  const has = (s: { preRequest?: string; test?: string } | undefined, k: "preRequest" | "test") => !!s?.[k]?.trim();
  const byId = new Map(
    flatten(collection).map((item) => {
      const chain = [item.scope.collection.scripts, ...item.scope.folders.map((f) => f.scripts), item.request.definition.scripts];
      return [item.request.id, { preRequest: chain.filter((s) => has(s, "preRequest")).length, test: chain.filter((s) => has(s, "test")).length }];
    }),
  );
  return (r) => byId.get(r.requestId ?? "") ?? { preRequest: 0, test: 0 };
}

export async function runLocal(args: RunArgs, onResult: (r: RunRequestResult) => void, onWarning: (w: string) => void, onIteration: (i: number, n: number) => void): Promise<RunReport> {
  const loaded = await loadCollectionFile(args.source);
  loaded.warnings.forEach(onWarning);
  const collection = withSettings(loaded.collection, args);
  const scopes = emptyScopes();
  scopes.globals = { ...args.globalVars };
  scopes.environment = { ...(args.env ? await loadEnvironmentFile(args.env) : {}), ...args.envVars };
  const data = args.data ? await readDataFile(args.data) : undefined;
  const iterations = Math.max(1, args.iterations ?? (data?.length || 1));
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  const startedAt = new Date();
  try {
    const outcome = await runCollections([collection], scopes, { iterations, data, delayMs: args.delayRequest, bail: args.bail, signal: controller.signal }, (e) => {
      if (e.type === "result") onResult(e.result);
      else if (e.type === "iteration") onIteration(e.iteration, e.iterationCount);
    });
    const finishedAt = new Date();
    const counts = countResults(outcome.results);
    const status = runStatusFrom(counts, { cancelled: outcome.cancelled });
    return {
      run: {
        id: "local",
        namespace: "local",
        name: collection.name,
        mode: "functional",
        status,
        referenceId: null,
        collectionIds: [],
        environmentId: null,
        iterations,
        counts,
        statusReason: outcome.cancelled ? "cancelled" : outcome.bailed ? "stopped at the first failure (bail)" : outcome.stopReason,
        createdBy: null,
        startedAt: startedAt.toISOString(),
        finishedAt: finishedAt.toISOString(),
        durationMs: finishedAt.getTime() - startedAt.getTime(),
        createdAt: startedAt.toISOString(),
        source: "run",
        results: outcome.results,
      },
      scripts: presenceOf(collection),
    };
  } finally {
    process.off("SIGINT", stop);
  }
}
