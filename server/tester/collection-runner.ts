// A collection run, as Newman does it: for each iteration (one per data row,
// or the number asked), every request of every selected collection in tree
// order, honouring pm.execution.setNextRequest, a delay between requests,
// bail on the first failure and cancellation. Pure: the caller gives the
// trees, the variable scopes and where results go; the service layer stores
// them and streams progress.
import type { RunRequestResult } from "@/server/contracts/tester-run";
import type { RequestAuth, Scripts } from "@/server/contracts/tester-request";
import { executeItem, type ItemScope, type RunnableRequest } from "./execute-item";
import { folderChain } from "./folder-chain";
import { openRunDeps } from "./run-deps";
import { cloneScopes, type VariableScopes } from "./scopes";
import { secretMasker, type Masker } from "./mask-secrets";

/** A collection as the run sees it: folders and requests in run order (the service loads it). */
export interface RunCollection {
  id: string | null;
  name: string;
  auth?: RequestAuth;
  scripts?: Scripts;
  /** Collection variables (real values). */
  variables: Record<string, unknown>;
  folders: { id: string; parentId: string | null; name: string; auth?: RequestAuth; scripts?: Scripts }[];
  requests: { id: string; name: string; folderId: string | null; definition: RunnableRequest["definition"] }[];
  /** When given, only these requests run (in run order). */
  requestIds?: string[];
}

export interface RunOptions {
  iterations?: number;
  data?: Record<string, unknown>[];
  delayMs?: number;
  bail?: boolean;
  signal?: AbortSignal;
  /** Secret values to mask in results. */
  secrets?: Iterable<unknown>;
  privatePolicy?: "env" | "strict";
  /** Guard against a setNextRequest loop: at most this many requests in one run. */
  maxRequests?: number;
  preScriptEnabled?: boolean;
  testScriptEnabled?: boolean;
}

export type RunEvent =
  | { type: "iteration"; iteration: number; iterationCount: number }
  | { type: "request"; iteration: number; index: number; total: number; name: string }
  | { type: "result"; result: RunRequestResult };

export interface RunOutcome {
  results: RunRequestResult[];
  cancelled: boolean;
  bailed: boolean;
  /** Set when the run stopped for a reason of its own (the request cap). */
  stopReason: string | null;
  scopes: VariableScopes;
}

interface FlatItem {
  collection: RunCollection;
  scope: ItemScope;
  path: string[];
  request: RunnableRequest;
}

/** Each request with its folder chain (outermost first), in the collection's run order. */
export function flatten(collection: RunCollection): FlatItem[] {
  const only = collection.requestIds ? new Set(collection.requestIds) : null;
  const collectionScope = { id: collection.id, name: collection.name, auth: collection.auth, scripts: collection.scripts };
  return collection.requests
    .filter((r) => !only || only.has(r.id))
    .map((r) => {
      const folders = folderChain(collection.folders, r.folderId);
      return { collection, scope: { collection: collectionScope, folders }, path: folders.map((f) => f.name), request: { id: r.id, name: r.name, definition: r.definition } };
    });
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const onAbort = () => (clearTimeout(t), resolve());
    const t = setTimeout(() => (signal?.removeEventListener("abort", onAbort), resolve()), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

function toResult(item: FlatItem, iteration: number, startedAt: Date, r: Awaited<ReturnType<typeof executeItem>>, mask: Masker): RunRequestResult {
  const maskTests = r.tests.map((t) => (t.error ? { ...t, name: mask(t.name), error: mask(t.error) } : { ...t, name: mask(t.name) }));
  return {
    iteration,
    collectionId: item.collection.id,
    requestId: item.request.id,
    name: item.request.name,
    path: item.path,
    method: r.sent?.method ?? item.request.definition.method,
    url: mask(r.sent?.url ?? item.request.definition.url),
    status: r.status,
    responseCode: r.response?.status ?? null,
    responseTimeMs: r.response ? Math.round(r.response.timings.totalMs * 100) / 100 : null,
    responseSize: r.response ? r.response.size.body : null,
    tests: maskTests,
    logs: r.logs.map((l) => ({ ...l, message: mask(l.message) })),
    error: r.error === null ? null : mask(r.error),
    ...(r.scriptError ? { scriptError: { ...r.scriptError, message: mask(r.scriptError.message) } } : {}),
    startedAt: startedAt.toISOString(),
  };
}

/**
 * Runs the collections in order. `scopes` gives globals and environment (the
 * collection scope is filled per collection from its variables); the scopes
 * as the scripts left them come back in the outcome.
 */
export async function runCollections(collections: RunCollection[], scopesIn: VariableScopes, opts: RunOptions, onEvent: (e: RunEvent) => void): Promise<RunOutcome> {
  const scopes = cloneScopes(scopesIn);
  const iterationCount = Math.max(1, opts.iterations ?? (opts.data?.length || 1));
  const mask = secretMasker(opts.secrets ?? []);
  const maxRequests = opts.maxRequests ?? 100_000;
  const results: RunRequestResult[] = [];
  const { deps, close } = openRunDeps({ signal: opts.signal, privatePolicy: opts.privatePolicy });
  let cancelled = false;
  let bailed = false;
  let stopReason: string | null = null;
  let sent = 0;
  try {
    outer: for (let iteration = 0; iteration < iterationCount; iteration++) {
      onEvent({ type: "iteration", iteration, iterationCount });
      const row = opts.data?.length ? opts.data[iteration % opts.data.length] : undefined;
      scopes.data = row ? { ...row } : {};
      for (const collection of collections) {
        scopes.collection = { ...collection.variables };
        const items = flatten(collection);
        let index = 0;
        while (index < items.length) {
          if (opts.signal?.aborted) {
            cancelled = true;
            break outer;
          }
          if (sent >= maxRequests) {
            stopReason = `stopped after ${maxRequests} requests (is pm.execution.setNextRequest looping?)`;
            break outer;
          }
          if (sent > 0 && opts.delayMs) await sleep(opts.delayMs, opts.signal);
          const item = items[index];
          onEvent({ type: "request", iteration, index, total: items.length, name: item.request.name });
          const startedAt = new Date();
          const r = await executeItem(item.scope, item.request, scopes, deps, {
            iteration,
            iterationCount,
            iterationData: row,
            preScriptEnabled: opts.preScriptEnabled,
            testScriptEnabled: opts.testScriptEnabled,
          });
          sent++;
          if (opts.signal?.aborted && r.status === "error") {
            cancelled = true;
            break outer;
          }
          const result = toResult(item, iteration, startedAt, r, mask);
          results.push(result);
          onEvent({ type: "result", result });
          if (opts.bail && (r.status === "failed" || r.status === "error")) {
            bailed = true;
            break outer;
          }
          if (r.nextRequest === null) break; // Postman: null ends this collection's pass
          if (typeof r.nextRequest === "string") {
            const target = items.findIndex((it) => it.request.id === r.nextRequest || it.request.name === r.nextRequest);
            index = target >= 0 ? target : items.length; // an unknown name ends the pass, as in Postman
            continue;
          }
          index++;
        }
      }
    }
  } finally {
    await close();
  }
  return { results, cancelled, bailed, stopReason, scopes };
}
