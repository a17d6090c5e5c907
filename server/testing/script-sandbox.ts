// Helpers for the script sandbox's tests: a realistic ExecutedResponse and
// ScriptInput to vary, so each test states only what it is about.
import type { ExecutedResponse } from "@/server/contracts/tester-execution";
import type { ScriptInput } from "@/server/tester/sandbox";
import { emptyScopes } from "@/server/tester/scopes";

export function response(overrides: Partial<ExecutedResponse> & { json?: unknown } = {}): ExecutedResponse {
  const { json, ...rest } = overrides;
  const body = json === undefined ? (rest.body ?? "") : JSON.stringify(json);
  const headers = rest.headers ?? [
    { key: "Content-Type", value: json === undefined ? "text/plain" : "application/json" },
    { key: "Content-Length", value: String(Buffer.byteLength(body)) },
  ];
  return {
    status: 200,
    statusText: "OK",
    bodyEncoding: "utf8",
    bodyTruncated: false,
    size: { headers: 120, body: Buffer.byteLength(body) },
    cookies: [],
    timings: { dnsMs: 1, connectMs: 2, tlsMs: 0, firstByteMs: 40, downloadMs: 3, totalMs: 46 },
    url: "https://api.example.com/users/1",
    redirects: [],
    httpVersion: "1.1",
    ...rest,
    headers,
    body,
  };
}

/** A test script against a 200 JSON response; pass `scriptType: "preRequest"` for a pre-request one. */
export function scriptInput(script: string, overrides: Partial<ScriptInput> = {}): ScriptInput {
  const pre = overrides.scriptType === "preRequest";
  return {
    script,
    scriptType: "test",
    scopes: emptyScopes(),
    request: { method: "GET", url: "https://api.example.com/users/1", headers: [{ key: "Accept", value: "application/json" }], body: { mode: "none" }, name: "Get user", id: "req-1" },
    response: pre ? undefined : response({ json: { id: 1, name: "Jane" } }),
    info: { eventName: pre ? "prerequest" : "test", iteration: 0, iterationCount: 1, requestName: "Get user", requestId: "req-1" },
    ...overrides,
  };
}
