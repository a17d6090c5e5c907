// The browser split (spec: executionMode `client`): the pre-request stage
// runs the scripts here and answers what the browser should send
// (`requestData`) with the variable state (`scriptState`); the test stage
// takes that state back with the browser's `responseData`. Secret values
// travel masked in scriptState and are put back from the stored environment
// and collection, so a browser never holds them beyond the request it sends.
// Both stages use the environment chosen at the first (its id is in the state).
//
// And `scripts/execute`: one script alone, with the request's collection
// context when a requestId is given (or only the permission check with
// authorizeOnly).
import type { Actor } from "@/server/auth/actor";
import type { ExecuteClientInput, ScriptExecuteInput, ScriptState } from "@/server/contracts/tester-execute-endpoints";
import type { ExecutedResponse } from "@/server/contracts/tester-execution";
import { blankRequest, SECRET_MASK } from "@/server/contracts/tester-request";
import { newItemResult, prepareItem, runScriptStage, testItem } from "@/server/tester/execute-item";
import { openRunDeps } from "@/server/tester/run-deps";
import { emptyScopes, type ScopeValues } from "@/server/tester/scopes";
import type { NamespaceScope } from "../namespace-access";
import { reachRequest, refuseCrossSpace } from "./collection-access";
import { verdictOf } from "./execute";
import { loadExecutionContext, resolveEnvironment, type ExecutionContext } from "./execution-context";

function masked(values: ScopeValues, secrets: readonly string[]): ScopeValues {
  const set = new Set(secrets);
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === "string" && set.has(v) ? SECRET_MASK : v]));
}

/** Values the browser sent back as the mask get the real value they had. */
function unmasked(values: ScopeValues, real: ScopeValues): ScopeValues {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v === SECRET_MASK && typeof real[k] === "string" ? real[k] : v]));
}

function stateOf(ctx: ExecutionContext): ScriptState {
  return {
    environmentId: ctx.environment.id ?? "",
    environment: masked(ctx.scopes.environment, ctx.secretValues),
    collectionVariables: masked(ctx.scopes.collection, ctx.secretValues),
    requestVariables: masked(ctx.scopes.local, ctx.secretValues),
    runContext: {},
  };
}

/** A partial response from the browser, completed so pm.response has every field. */
function completeResponse(r: NonNullable<ExecuteClientInput["responseData"]>): ExecutedResponse {
  return {
    status: r.status,
    statusText: r.statusText ?? "",
    headers: r.headers,
    body: r.body,
    bodyEncoding: r.bodyEncoding ?? "utf8",
    bodyTruncated: r.bodyTruncated ?? false,
    size: r.size ?? { headers: 0, body: Buffer.byteLength(r.body) },
    cookies: r.cookies ?? [],
    timings: r.timings ?? { dnsMs: 0, connectMs: 0, tlsMs: 0, firstByteMs: 0, downloadMs: 0, totalMs: 0 },
    url: r.url ?? "",
    redirects: r.redirects ?? [],
    httpVersion: r.httpVersion ?? "1.1",
  };
}

export async function executeClient(actor: Actor, scope: NamespaceScope, input: ExecuteClientInput) {
  const state = input.scriptState;
  // The test stage keeps the environment the pre-request stage chose.
  const environmentId = state ? state.environmentId || null : input.environmentId;
  const ctx = await loadExecutionContext(actor, scope, { ...input, environmentId });
  if (state) {
    ctx.scopes.environment = unmasked(state.environment, ctx.scopes.environment);
    ctx.scopes.collection = unmasked(state.collectionVariables, ctx.scopes.collection);
    ctx.scopes.local = unmasked(state.requestVariables, ctx.scopes.local);
  }
  const { deps, close } = openRunDeps({});
  const result = newItemResult();
  const c = { scope: ctx.scope, request: ctx.request, scopes: ctx.scopes, deps, opts: { iteration: 0, iterationCount: 1, preScriptEnabled: input.preScriptEnabled, testScriptEnabled: input.testScriptEnabled } };
  const started = performance.now();
  try {
    const ready = await prepareItem(c, result);
    if (input.stage === "test" && ready && input.responseData) {
      // Only the test scripts' verdict belongs to this stage.
      const testResult = newItemResult();
      await testItem(c, testResult, ready, completeResponse(input.responseData));
      testResult.durationMs = performance.now() - started;
      return { ...verdictOf(testResult), stage: "test" as const, scriptState: stateOf(ctx) };
    }
    result.durationMs = performance.now() - started;
    return { ...verdictOf(result), stage: input.stage, ...(result.sent && !result.skipRequest && ready ? { requestData: result.sent } : {}), scriptState: stateOf(ctx) };
  } finally {
    await close();
  }
}

export async function executeScript(actor: Actor, scope: NamespaceScope, input: ScriptExecuteInput) {
  if (input.authorizeOnly) {
    // The preflight: 404 when the request is not reachable, 403 when it is shared from another Space; nothing runs, nothing is recorded.
    refuseCrossSpace(await reachRequest(scope, input.requestId!), "execute");
    return { success: true };
  }
  const ctx = input.requestId ? await loadExecutionContext(actor, scope, { requestId: input.requestId, environmentId: input.environmentId, environmentVariables: input.environmentVariables }) : null;
  const scopes = ctx?.scopes ?? emptyScopes();
  if (!ctx) {
    scopes.environment = { ...(await resolveEnvironment(actor, scope, input)).values };
  }
  const request = ctx?.request ?? { id: null, name: "Script", definition: blankRequest({ url: "", auth: { type: "none" } }) };
  const { deps, close } = openRunDeps({});
  const result = newItemResult();
  const started = performance.now();
  try {
    // Only the given script runs: no collection or folder hooks around it.
    const c = { scope: { collection: { id: null, name: ctx?.collection?.name ?? "" }, folders: [] }, request: { ...request, definition: { ...request.definition, scripts: { [input.scriptType]: input.script } } }, scopes, deps, opts: { iteration: 0, iterationCount: 1 } };
    const response = input.response ? completeResponse(input.response) : undefined;
    await runScriptStage(c, input.scriptType, result, { id: request.id ?? undefined, name: request.name, method: request.definition.method, url: request.definition.url, headers: request.definition.headers.filter((h) => h.enabled).map((h) => ({ key: h.key, value: h.value })), body: request.definition.body, auth: request.definition.auth }, response);
    result.status = result.scriptError ? "error" : result.skipRequest ? "skipped" : result.tests.some((t) => t.status === "failed") ? "failed" : "passed";
    result.durationMs = performance.now() - started;
    return verdictOf(result);
  } finally {
    await close();
  }
}
