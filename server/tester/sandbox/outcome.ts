// Host side: a script's verdict and new state, from what the isolate reported.
// The isolate's word is data to check, not to trust: scopes come back as
// fresh objects without `__proto__` keys, a pre-request script's request is
// validated against the contract, and the counts are computed here.
import type { ScriptError } from "@/server/contracts/tester-execution";
import { RequestAuth, RequestBody } from "@/server/contracts/tester-request";
import { SCOPE_ORDER, type ScopeValues, type VariableScopes } from "@/server/tester/scopes";
import type { FinalState } from "./protocol";
import type { RunResult } from "./script-run";
import type { ScriptInput, ScriptOutcome, ScriptRequest } from "./types";

function isPlain(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A copy that cannot carry a prototype change into whoever spreads or assigns it later. */
function safeCopy(values: unknown): ScopeValues {
  const out: ScopeValues = {};
  if (!isPlain(values)) return out;
  for (const key of Object.keys(values)) if (key !== "__proto__") out[key] = values[key];
  return out;
}

function scopesAfter(input: ScriptInput, changed: FinalState["scopes"] | undefined): VariableScopes {
  const out = {} as VariableScopes;
  for (const s of SCOPE_ORDER) {
    const next = changed && isPlain(changed[s]) ? changed[s] : s === "data" && input.iterationData ? input.iterationData : input.scopes[s];
    out[s] = safeCopy(next);
  }
  return out;
}

function requestAfter(input: ScriptInput, reported: unknown, warnings: string[]): ScriptRequest {
  const original = input.request;
  if (!isPlain(reported)) return structuredClone(original);
  const out: ScriptRequest = structuredClone(original);
  if (typeof reported.method === "string" && /^[A-Za-z]{1,20}$/.test(reported.method)) out.method = reported.method.toUpperCase();
  else warnings.push("pm.request.method is not a method name; the original was kept");
  if (typeof reported.url === "string" && reported.url.length <= 8000) out.url = reported.url;
  else warnings.push("pm.request.url is not a URL; the original was kept");
  const headers = reported.headers;
  if (Array.isArray(headers) && headers.length <= 500 && headers.every((h) => isPlain(h) && typeof h.key === "string" && typeof h.value === "string")) {
    out.headers = headers.map((h) => ({ key: h.key, value: h.value }));
  } else warnings.push("pm.request.headers could not be read; the original headers were kept");
  const body = RequestBody.safeParse(reported.body);
  if (body.success) out.body = body.data;
  else warnings.push(`pm.request.body is not valid (${body.error.issues[0]?.message}); the original body was kept`);
  if (reported.auth !== undefined) {
    const auth = RequestAuth.safeParse(reported.auth);
    if (auth.success) out.auth = auth.data;
    else warnings.push("pm.request.auth is not valid; the original auth was kept");
  }
  return out;
}

function nextRequestOf(final: FinalState | undefined): string | null | undefined {
  const next = final?.nextRequest;
  if (!isPlain(next)) return undefined;
  return next.value === null ? null : typeof next.value === "string" ? next.value : undefined;
}

export function syntaxOutcome(input: ScriptInput, error: ScriptError, durationMs: number): ScriptOutcome {
  return buildOutcome(input, { tests: [], logs: [], error, disposed: false, interrupted: false }, durationMs);
}

export function buildOutcome(input: ScriptInput, result: RunResult, durationMs: number): ScriptOutcome {
  const { tests, error, final } = result;
  const logs = [...result.logs];
  const passedTests = tests.filter((t) => t.status === "passed").length;
  const failedTests = tests.filter((t) => t.status === "failed").length;
  const skippedTests = tests.filter((t) => t.status === "skipped").length;
  const skipRequest = input.scriptType === "preRequest" && final?.skipRequest === true;
  const status = error ? "error" : failedTests > 0 ? "failed" : skipRequest ? "skipped" : "passed";
  const outcome: ScriptOutcome = {
    status,
    success: !error && failedTests === 0,
    totalTests: tests.length,
    passedTests,
    failedTests,
    skippedTests,
    tests,
    logs,
    durationMs,
    scopes: scopesAfter(input, final?.scopes),
  };
  if (input.scriptType === "preRequest") outcome.skipRequest = skipRequest;
  if (error) outcome.error = error;
  if (input.scriptType === "preRequest") {
    const warnings: string[] = [];
    outcome.request = requestAfter(input, final?.request, warnings);
    for (const message of warnings) logs.push({ level: "warn", message, at: durationMs });
  }
  const next = nextRequestOf(final);
  if (next !== undefined) outcome.nextRequest = next;
  if (isPlain(final?.visualizer) && typeof final.visualizer.template === "string") outcome.visualizer = { template: final.visualizer.template, data: final.visualizer.data ?? null };
  return outcome;
}
