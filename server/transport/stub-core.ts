// Serving one HTTP stub request, independent of the server that received it
// (the node:http fast path in server.ts, or the Next.js route handler).
import { handle, type EngineDeps } from "@/server/engine/engine";
import type { EngineRequest } from "@/server/engine/types";
import { logger } from "@/server/lib/logger";
import { namespaceMocks } from "@/server/services/mock-index";
import { namespaceStores, storeAccessFor } from "@/server/services/stores";
import { takeUse } from "@/server/services/use-limiter";
import { fireWebhooks } from "@/server/services/webhooks";
import { parseStubBody } from "./stub-body";
import { forwardToProxy } from "./stub-proxy";
import { stubRecorder } from "./stub-recorder";

export interface StubInput {
  method: string;
  /** Path and query as received, starting with /stubs/. */
  url: string;
  headers: Record<string, string[]>;
  rawBody: string;
  requestId: string;
}

export interface StubOutput {
  status: number;
  headers: Record<string, string | string[]>;
  /** Bytes for proxied answers (passed through unchanged), text otherwise. */
  body: string | Buffer;
  delayMs: number;
  /** For the adapter to call once the response is sent: starts the mock's webhooks. */
  afterSend?: () => void;
}

const clock = { now: () => Date.now() };
const random = { next: () => Math.random() };

function json(status: number, body: unknown, requestId: string): StubOutput {
  return { status, headers: { "Content-Type": "application/json", "X-Request-Id": requestId }, body: JSON.stringify(body), delayMs: 0 };
}

function queryOf(params: URLSearchParams): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [k, v] of params) (out[k] ??= []).push(v);
  return out;
}

export async function serveStub(input: StubInput): Promise<StubOutput> {
  const started = performance.now();
  const url = new URL(input.url, "http://stub");
  const [, , rawNamespace = "", ...rest] = url.pathname.split("/");
  let namespace = rawNamespace;
  try {
    namespace = decodeURIComponent(rawNamespace);
  } catch {}
  const path = "/" + rest.join("/");
  const { requestId } = input;
  try {
    const index = namespace ? await namespaceMocks(namespace) : undefined;
    if (!index) return json(404, { error: `Namespace '${namespace}' does not exist`, code: "not_found", request_id: requestId, details: { namespace } }, requestId);
    const contentType = input.headers["content-type"]?.[0];
    const req: EngineRequest = {
      namespace,
      method: input.method.toUpperCase(),
      path,
      headers: input.headers,
      query: queryOf(url.searchParams),
      body: parseStubBody(input.rawBody, contentType),
      rawBody: input.rawBody,
    };
    const stores = await namespaceStores(index.namespaceId);
    const deps: EngineDeps = {
      clock,
      random,
      stores: storeAccessFor(index.namespaceId, stores),
      files: index.files,
      takeUse: (mockId, limit) => takeUse(index.namespaceId, mockId, limit),
    };
    const result = await handle(index, req, deps);
    if (!result.matched) {
      stubRecorder().miss({ namespaceId: index.namespaceId, namespace, method: req.method, path, query: req.query, headers: req.headers, body: req.body });
      return json(404, { error: `No mock matches ${req.method} ${path} in namespace '${namespace}'`, code: "not_found", request_id: requestId, details: { namespace, method: req.method, path, nearest: result.nearest } }, requestId);
    }
    const { response, mock } = result;
    const recordHit = (status: number) => {
      if (mock.transient) return;
      stubRecorder().hit({
        namespaceId: index.namespaceId,
        namespace,
        mockId: mock.id,
        countUse: mock.useLimiter === 0,
        calledAt: new Date(),
        method: req.method,
        url: path + url.search,
        headers: req.headers,
        query: req.query,
        body: req.body,
        status,
        durationMs: performance.now() - started,
      });
    };
    if (result.webhookErrors.length > 0) logger().warn({ requestId, namespace, mockId: mock.id, errors: result.webhookErrors }, "webhooks not rendered");
    const afterSend = result.webhooks.length > 0 ? () => fireWebhooks(result.webhooks, { namespace, mockId: mock.id, requestId }) : undefined;
    if (result.proxy) {
      const out = await forwardToProxy({ proxy: result.proxy, mock, method: req.method, path, search: url.search, headers: input.headers, body: Buffer.from(input.rawBody, "utf8"), requestId });
      recordHit(out.status);
      // response.delay still applies: a proxy mock can add latency to the real service.
      return { ...out, delayMs: response.delayMs, afterSend };
    }
    const isText = typeof response.body === "string";
    const body = response.body === undefined ? "" : isText ? (response.body as string) : JSON.stringify(response.body);
    const headers: Record<string, string | string[]> = { "X-Request-Id": requestId };
    // Rendered header values may carry request data: CR/LF would split the response.
    for (const [name, values] of Object.entries(response.headers)) headers[name] = values.map((v) => v.replace(/[\r\n]+/g, " "));
    if (body !== "" && !Object.keys(response.headers).some((h) => h.toLowerCase() === "content-type")) {
      headers["Content-Type"] = isText ? "text/plain; charset=utf-8" : "application/json";
    }
    recordHit(response.status);
    return { status: response.status, headers, body, delayMs: response.delayMs, afterSend };
  } catch (err) {
    // A broken mock (missing template file, oversized template) is the mock's error, reported as such.
    const name = err instanceof Error ? err.constructor.name : "";
    const known = name === "TemplateFileMissingError" || name === "TemplateError";
    if (!known) logger().error({ err, requestId, namespace, path }, "stub request failed");
    return json(500, { error: known ? (err as Error).message : "Internal server error", code: known ? "mock_error" : "internal", request_id: requestId }, requestId);
  }
}
