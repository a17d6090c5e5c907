// Sending one request from the workspace or an API client: `execute` (no
// scripts), `execute-with-scripts` (the collection's, folders' and request's
// scripts around the send, variables written back like Postman does), and the
// history entry each send leaves. Send failures (refused, timeout, blocked by
// the outbound policy) are results, not API errors: the caller asked us to
// try, and the answer says what happened.
import type { Actor } from "@/server/auth/actor";
import type { ExecuteRequestInput, ExecuteWithScriptsInput } from "@/server/contracts/tester-execute-endpoints";
import type { ScriptVerdict } from "@/server/contracts/tester-execution";
import { executeItem, type ItemResult } from "@/server/tester/execute-item";
import { secretMasker } from "@/server/tester/mask-secrets";
import { openRunDeps } from "@/server/tester/run-deps";
import type { NamespaceScope } from "../namespace-access";
import { loadExecutionContext, type ExecutionContext } from "./execution-context";
import { recordHistory } from "./history";
import { persistScriptVariables } from "./persist-variables";

/** The verdict fields (spec: status, success, counts, tests, logs, durationMs, skipRequest) of an item's scripts. */
export function verdictOf(r: Pick<ItemResult, "status" | "tests" | "logs" | "durationMs" | "skipRequest" | "scriptError">): ScriptVerdict {
  const count = (s: string) => r.tests.filter((t) => t.status === s).length;
  const status = r.scriptError ? "error" : r.status === "skipped" ? "skipped" : count("failed") ? "failed" : "passed";
  return {
    status,
    success: status === "passed" || status === "skipped",
    totalTests: r.tests.length,
    passedTests: count("passed"),
    failedTests: count("failed"),
    skippedTests: count("skipped"),
    tests: r.tests,
    logs: r.logs,
    durationMs: Math.round(r.durationMs * 100) / 100,
    ...(r.skipRequest ? { skipRequest: true } : {}),
    ...(r.scriptError ? { error: r.scriptError } : {}),
  };
}

/** A send failure's code for the API: the client's SendError code, or what stopped the request before it went out. */
function failureOf(r: ItemResult): { code: string; message: string } | undefined {
  if (r.response || r.skipRequest || r.scriptError || !r.error) return undefined;
  const code = r.sendErrorCode ?? (r.error.startsWith("unresolved variable") ? "unresolved_variable" : "build");
  return { code, message: r.error };
}

async function runOne(actor: Actor, scope: NamespaceScope, ctx: ExecutionContext, opts: { scripts: boolean; preScriptEnabled?: boolean; testScriptEnabled?: boolean; signal?: AbortSignal }) {
  const { deps, close } = openRunDeps({ signal: opts.signal });
  const itemScope = opts.scripts ? ctx.scope : { collection: { ...ctx.scope.collection, scripts: undefined }, folders: ctx.scope.folders.map((f) => ({ ...f, scripts: undefined })) };
  try {
    return await executeItem(itemScope, ctx.request, ctx.scopes, deps, {
      iteration: 0,
      iterationCount: 1,
      preScriptEnabled: opts.scripts && (opts.preScriptEnabled ?? true),
      testScriptEnabled: opts.scripts && (opts.testScriptEnabled ?? true),
    });
  } finally {
    await close();
  }
}

async function history(actor: Actor, scope: NamespaceScope, ctx: ExecutionContext, r: ItemResult, verdict: ScriptVerdict | null) {
  if (!r.sent) return null;
  const entry = await recordHistory(actor, scope, {
    requestId: ctx.request.id,
    collectionId: ctx.collection?.id ?? null,
    sent: r.sent,
    response: r.response ?? null,
    verdict: verdict ? { test: verdict } : null,
    error: r.response ? null : r.error,
    secretValues: ctx.secretValues,
  });
  return entry.id;
}

export async function executeRequest(actor: Actor, scope: NamespaceScope, input: ExecuteRequestInput, signal?: AbortSignal) {
  const ctx = await loadExecutionContext(actor, scope, input);
  const r = await runOne(actor, scope, ctx, { scripts: false, signal });
  const mask = secretMasker(ctx.secretValues);
  const historyId = input.saveHistory ? await history(actor, scope, ctx, r, null) : null;
  const error = failureOf(r);
  return {
    ok: !!r.response,
    ...(r.sent ? { request: { ...r.sent, url: mask(r.sent.url), headers: r.sent.headers.map((h) => ({ key: h.key, value: mask(h.value) })) } } : {}),
    ...(r.response ? { response: r.response } : {}),
    ...(error ? { error: { ...error, message: mask(error.message) } } : {}),
    historyId,
  };
}

export async function executeWithScripts(actor: Actor, scope: NamespaceScope, input: ExecuteWithScriptsInput, signal?: AbortSignal) {
  const ctx = await loadExecutionContext(actor, scope, input);
  const before = structuredClone(ctx.scopes);
  const r = await runOne(actor, scope, ctx, { scripts: true, preScriptEnabled: input.preScriptEnabled, testScriptEnabled: input.testScriptEnabled, signal });
  if (input.persistVariables) await persistScriptVariables(actor, scope, { environment: ctx.environment, collection: ctx.collection, environmentOverridden: ctx.environment.overridden }, before, ctx.scopes);
  const mask = secretMasker(ctx.secretValues);
  const verdict = verdictOf(r);
  const historyId = input.saveHistory ? await history(actor, scope, ctx, r, verdict) : null;
  const sendError = failureOf(r);
  const maskValues = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, typeof v === "string" ? mask(v) : v]));
  return {
    ...verdict,
    tests: verdict.tests.map((t) => ({ ...t, name: mask(t.name), ...(t.error ? { error: mask(t.error) } : {}) })),
    logs: verdict.logs.map((l) => ({ ...l, message: mask(l.message) })),
    ...(r.sent ? { request: { ...r.sent, url: mask(r.sent.url), headers: r.sent.headers.map((h) => ({ key: h.key, value: mask(h.value) })) } } : {}),
    ...(r.response ? { response: r.response } : {}),
    ...(sendError ? { sendError: { ...sendError, message: mask(sendError.message) } } : {}),
    historyId,
    variables: { environment: maskValues(ctx.scopes.environment), collection: maskValues(ctx.scopes.collection) },
  };
}
