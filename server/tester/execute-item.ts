// One request of a collection, the way Postman runs it: the pre-request
// scripts of the collection, each enclosing folder and the request (outermost
// first), then the send, then the test scripts in the same order. Scripts
// share the run's variable scopes (a token set by one request's test is read
// by the next request). A script's error, an unresolved variable or a failed
// send ends this request with a result naming the problem; the run goes on.
import type { CookieJar } from "tough-cookie";
import type { ExecutedResponse, ScriptError, ScriptLog, ScriptTest, SentRequest } from "@/server/contracts/tester-execution";
import type { RequestAuth, RequestDefinition, Scripts } from "@/server/contracts/tester-request";
import { buildRequest } from "./request-builder";
import type { PreparedRequest } from "./prepared-request";
import { RequestBuildError } from "./build-error";
import { SendError, sendHttp, type ConnectionPool } from "./http-client";
import type { ScriptOutcome, ScriptRequest, ScriptSandbox } from "./sandbox";
import type { VariableScopes } from "./scopes";

/** Where a request sits: the collection and the folders above it, outermost first. */
export interface ItemScope {
  collection: { id: string | null; name: string; auth?: RequestAuth; scripts?: Scripts };
  folders: { id: string; name: string; auth?: RequestAuth; scripts?: Scripts }[];
}

export interface RunnableRequest {
  id: string | null;
  name: string;
  definition: RequestDefinition;
}

export interface ExecuteDeps {
  /** Created on first use: a request without scripts never pays for an isolate. */
  sandbox: () => Promise<ScriptSandbox>;
  pool?: ConnectionPool;
  cookieJar?: CookieJar;
  signal?: AbortSignal;
  privatePolicy?: "env" | "strict";
  /** pm.sendRequest from scripts goes through the same client and policy. */
  sendFromScript?: (req: string | ScriptRequest) => Promise<ExecutedResponse>;
  resolveOAuth2Token?: Parameters<typeof buildRequest>[1]["resolveOAuth2Token"];
}

export interface ItemOptions {
  iteration: number;
  iterationCount: number;
  iterationData?: Record<string, unknown>;
  /** The request's own script fragments; collection and folder hooks always run (spec: browser split rules). */
  preScriptEnabled?: boolean;
  testScriptEnabled?: boolean;
}

export interface ItemResult {
  status: "passed" | "failed" | "skipped" | "error";
  sent?: SentRequest;
  response?: ExecutedResponse;
  tests: ScriptTest[];
  logs: ScriptLog[];
  error: string | null;
  /** The HTTP client's or request builder's code when the send failed (SendError / RequestBuildError). */
  sendErrorCode?: string;
  scriptError?: ScriptError;
  skipRequest: boolean;
  /** pm.execution.setNextRequest: a name or id to jump to, null to stop; undefined when not called. */
  nextRequest?: string | null;
  durationMs: number;
}

type Stage = "preRequest" | "test";

function scriptsFor(scope: ItemScope, request: RunnableRequest, stage: Stage, ownEnabled: boolean): { source: string; where: string }[] {
  const list: { source: string; where: string }[] = [];
  const add = (s: Scripts | undefined, where: string) => {
    const source = s?.[stage];
    if (source && source.trim()) list.push({ source, where });
  };
  add(scope.collection.scripts, `collection "${scope.collection.name}"`);
  for (const f of scope.folders) add(f.scripts, `folder "${f.name}"`);
  if (ownEnabled) add(request.definition.scripts, `request "${request.name}"`);
  return list;
}

/** The auth chain a request inherits from: nearest folder first, then the collection. */
export function inheritedAuth(scope: ItemScope): RequestAuth[] {
  const chain: RequestAuth[] = [];
  for (let i = scope.folders.length - 1; i >= 0; i--) if (scope.folders[i].auth) chain.push(scope.folders[i].auth!);
  if (scope.collection.auth) chain.push(scope.collection.auth);
  return chain;
}

/** pm.request before the send: the definition as written ({{variables}} unresolved, as Postman shows it). */
function scriptRequestOf(request: RunnableRequest): ScriptRequest {
  const d = request.definition;
  const enabledParams = d.params.filter((p) => p.enabled);
  let url = d.url;
  if (enabledParams.length) url += (url.includes("?") ? "&" : "?") + enabledParams.map((p) => (p.value === "" ? p.key : `${p.key}=${p.value}`)).join("&");
  return {
    id: request.id ?? undefined,
    name: request.name,
    method: d.method,
    url,
    headers: d.headers.filter((h) => h.enabled).map((h) => ({ key: h.key, value: h.value })),
    body: d.body,
    auth: d.auth,
  };
}

/** The definition after pre-request scripts changed pm.request. */
function applyScriptRequest(def: RequestDefinition, r: ScriptRequest): RequestDefinition {
  return {
    ...def,
    method: r.method.toUpperCase(),
    url: r.url,
    params: [],
    headers: r.headers.map((h) => ({ key: h.key, value: h.value, enabled: true })),
    body: r.body,
    auth: r.auth ?? def.auth,
  };
}

/** pm.request in test scripts: what was sent. */
function sentScriptRequest(request: RunnableRequest, prepared: PreparedRequest, def: RequestDefinition): ScriptRequest {
  return { id: request.id ?? undefined, name: request.name, method: prepared.method, url: prepared.url, headers: prepared.headers, body: def.body, auth: def.auth };
}

function sentOf(prepared: PreparedRequest): SentRequest {
  return { method: prepared.method, url: prepared.url, headers: prepared.headers, ...prepared.bodyPreview };
}

/** The result being built; stages add their tests, logs and errors to it. */
export function newItemResult(): ItemResult {
  return { status: "passed", tests: [], logs: [], error: null, skipRequest: false, durationMs: 0 };
}

export interface StageContext {
  scope: ItemScope;
  request: RunnableRequest;
  scopes: VariableScopes;
  deps: Pick<ExecuteDeps, "sandbox" | "sendFromScript">;
  opts: ItemOptions;
}

/**
 * Runs one stage's scripts in order (collection, folders, request) into
 * `result`; ok is false when one of them errored (the request then stops).
 * Returns pm.request as the pre-request scripts left it.
 */
export async function runScriptStage(c: StageContext, stage: Stage, result: ItemResult, scriptRequest: ScriptRequest, response?: ExecutedResponse): Promise<{ ok: boolean; request: ScriptRequest }> {
  let current = scriptRequest;
  const own = (stage === "preRequest" ? c.opts.preScriptEnabled : c.opts.testScriptEnabled) ?? true;
  for (const { source, where } of scriptsFor(c.scope, c.request, stage, own)) {
    const outcome: ScriptOutcome = await (await c.deps.sandbox()).run({
      script: source,
      scriptType: stage,
      scopes: c.scopes,
      request: current,
      response,
      info: {
        eventName: stage === "preRequest" ? "prerequest" : "test",
        iteration: c.opts.iteration,
        iterationCount: c.opts.iterationCount,
        requestName: c.request.name,
        requestId: c.request.id ?? "",
        collectionName: c.scope.collection.name,
      },
      iterationData: c.opts.iterationData,
      sendRequest: c.deps.sendFromScript,
    });
    Object.assign(c.scopes, outcome.scopes);
    result.tests.push(...outcome.tests);
    result.logs.push(...outcome.logs);
    if (outcome.nextRequest !== undefined) result.nextRequest = outcome.nextRequest;
    if (stage === "preRequest" && outcome.request) current = outcome.request;
    if (outcome.skipRequest) result.skipRequest = true;
    if (outcome.status === "error") {
      result.scriptError = outcome.error;
      result.error = `${stage === "preRequest" ? "pre-request" : "test"} script of ${where}: ${outcome.error?.message ?? "failed"}`;
      return { ok: false, request: current };
    }
    if (result.skipRequest) break;
  }
  return { ok: true, request: current };
}

/** The pre-request stage and the request it leaves to send (undefined when a script errored, skipped it, or it could not be built). */
export async function prepareItem(c: StageContext & { deps: ExecuteDeps }, result: ItemResult): Promise<{ prepared: PreparedRequest; def: RequestDefinition } | undefined> {
  const pre = await runScriptStage(c, "preRequest", result, scriptRequestOf(c.request));
  if (!pre.ok) {
    result.status = "error";
    return undefined;
  }
  if (result.skipRequest) {
    result.status = "skipped";
    return undefined;
  }
  const def = applyScriptRequest(c.request.definition, pre.request);
  let prepared: PreparedRequest;
  try {
    prepared = await buildRequest(def, { scopes: c.scopes, inheritedAuth: inheritedAuth(c.scope), resolveOAuth2Token: c.deps.resolveOAuth2Token });
  } catch (err) {
    result.error = err instanceof RequestBuildError ? err.message : `could not build the request: ${(err as Error).message}`;
    result.sendErrorCode = err instanceof RequestBuildError ? err.code : "build";
    result.status = "error";
    return undefined;
  }
  result.sent = sentOf(prepared);
  // Like Newman, an unknown variable outside the URL is sent as written (and
  // named in the console); one in the URL leaves nothing sensible to send.
  if (prepared.unresolved.length) {
    const inUrl = prepared.unresolved.filter((n) => prepared.url.includes(`{{${n}}}`) || prepared.url.includes(encodeURIComponent(`{{${n}}}`)));
    if (inUrl.length) {
      result.error = `unresolved variable${inUrl.length > 1 ? "s" : ""} in the URL: ${inUrl.map((n) => `{{${n}}}`).join(", ")}`;
      result.sendErrorCode = "unresolved_variable";
      result.status = "error";
      return undefined;
    }
    const names = prepared.unresolved.map((n) => `{{${n}}}`).join(", ");
    result.logs.push({ level: "warn", message: `unresolved variable${prepared.unresolved.length > 1 ? "s" : ""} sent as written: ${names}`, at: 0 });
  }
  return { prepared, def };
}

/** The test stage over a response; sets the result's final status. */
export async function testItem(c: StageContext, result: ItemResult, sent: { prepared: PreparedRequest; def: RequestDefinition }, response: ExecutedResponse): Promise<void> {
  const post = await runScriptStage(c, "test", result, sentScriptRequest(c.request, sent.prepared, sent.def), response);
  result.status = !post.ok ? "error" : result.tests.some((t) => t.status === "failed") ? "failed" : "passed";
}

export async function executeItem(scope: ItemScope, request: RunnableRequest, scopes: VariableScopes, deps: ExecuteDeps, opts: ItemOptions): Promise<ItemResult> {
  const started = performance.now();
  const result = newItemResult();
  const c = { scope, request, scopes, deps, opts };
  const done = () => ((result.durationMs = performance.now() - started), result);
  const ready = await prepareItem(c, result);
  if (!ready) return done();
  try {
    result.response = await sendHttp(ready.prepared, { signal: deps.signal, cookieJar: deps.cookieJar, agentPool: deps.pool, privatePolicy: deps.privatePolicy });
  } catch (err) {
    result.error = err instanceof SendError ? err.message : `could not send the request: ${(err as Error).message}`;
    result.sendErrorCode = err instanceof SendError ? err.code : "protocol";
    result.status = "error";
    return done();
  }
  await testItem(c, result, ready, result.response);
  return done();
}
