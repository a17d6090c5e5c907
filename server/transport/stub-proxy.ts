// Proxy mocks: the stub request is forwarded to the mock's `proxy.target` and
// the upstream answer goes back unchanged (status, headers minus hop-by-hop
// ones, body bytes). Every connection goes through the SSRF guard
// (server/lib/ssrf.ts). Semantics in docs/decisions.md, "Proxy and webhooks".
import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import type { MockDefinition } from "@/server/contracts/mock";
import { compileRoute, joinRoute } from "@/server/engine/route";
import { PEER_HEADER, trustsProxy } from "@/server/http/request-meta";
import { logger } from "@/server/lib/logger";
import { assertAllowedTarget, BlockedTargetError, guardedAgent, safeLookup } from "@/server/lib/ssrf";
import type { StubOutput } from "./stub-context";

export const PROXY_DEFAULT_TIMEOUT_MS = 30_000;
/** Upstream bodies are buffered (StubOutput is one value); this bounds the memory one request can take. */
export const PROXY_MAX_RESPONSE_BYTES = 100 * 1024 * 1024;

type ProxyConfig = NonNullable<MockDefinition["proxy"]>;

/**
 * This process's name in the Via header it adds to every proxied request
 * (RFC 9110 §7.6.3). A request that comes back carrying it has gone round a
 * loop (a proxy mock whose target leads back to these stubs) and is refused
 * with 508; so is one that has passed through more Polymock proxies than
 * MAX_PROXY_HOPS, which ends loops across replicas too. docs/decisions.md, "Proxy and webhooks".
 */
export const VIA_NAME = `polymock-${randomUUID().slice(0, 8)}`;
export const MAX_PROXY_HOPS = 10;
const OWN_VIA = new RegExp(`(^|,)\\s*[^,\\s]+\\s+${VIA_NAME}(\\s|,|$)`);
const ANY_POLYMOCK_VIA = /(^|,)\s*[^,\s]+\s+polymock-/g;

/** Whether the Via values name this process, or more Polymock hops than allowed. */
export function proxyLoopIn(via: string[] | undefined): "own" | "too_many" | null {
  if (!via?.length) return null;
  const joined = via.join(", ");
  if (OWN_VIA.test(joined)) return "own";
  return (joined.match(ANY_POLYMOCK_VIA)?.length ?? 0) >= MAX_PROXY_HOPS ? "too_many" : null;
}

// RFC 9110 §7.6.1 hop-by-hop fields, plus the legacy Proxy-Connection.
const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"]);
// Not forwarded either: Host names the target (set from it), Content-Length is
// recomputed from the body, Expect would ask the upstream for a 100 we do not
// need (the body is already read), and the peer header is internal to server.ts.
const NOT_FORWARDED = new Set(["host", "content-length", "expect", PEER_HEADER]);

export interface ProxyCall {
  proxy: ProxyConfig;
  mock: MockDefinition;
  method: string;
  /** Path after /stubs/<namespace>, as received (still percent-encoded). */
  path: string;
  /** "?a=1" or "". */
  search: string;
  headers: Record<string, string[]>;
  body: Buffer;
  requestId: string;
}

/** Number of leading literal segments of the mock's route (pathPrefix + route): what stripPrefix removes. */
function literalPrefixLength(mock: MockDefinition): number {
  const segments = compileRoute(joinRoute(mock.pathPrefix, mock.http?.route ?? "/")).segments;
  let n = 0;
  while (n < segments.length && segments[n].kind === "literal") n++;
  return n;
}

/**
 * target + request path + query. With stripPrefix the route's leading literal
 * segments are dropped first: route /api/* and /stubs/ns/api/users → /users;
 * route /users/:id → /42 for /users/42 (parameters and what follows stay).
 * The target's own path is a prefix (its trailing "/" ignored) and its own
 * query parameters come before the request's.
 */
export function proxyTargetUrl(proxy: ProxyConfig, mock: MockDefinition, path: string, search: string): URL {
  const url = new URL(proxy.target);
  let rest = path;
  if (proxy.stripPrefix) for (let i = literalPrefixLength(mock); i > 0; i--) rest = rest.replace(/^\/+[^/]*/, "");
  url.pathname = url.pathname.replace(/\/+$/, "") + rest || "/";
  const query = [url.search.slice(1), search.replace(/^\?/, "")].filter((q) => q !== "").join("&");
  url.search = query === "" ? "" : `?${query}`;
  url.hash = "";
  return url;
}


function connectionTokens(values: string | string[] | undefined): Set<string> {
  const list = values === undefined ? [] : Array.isArray(values) ? values : [values];
  return new Set(list.flatMap((v) => v.split(",")).map((t) => t.trim().toLowerCase()).filter(Boolean));
}

function forwardedHeaders(call: ProxyCall): Record<string, string[]> {
  const listed = connectionTokens(call.headers.connection);
  const out: Record<string, string[]> = {};
  for (const [name, values] of Object.entries(call.headers)) {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || NOT_FORWARDED.has(lower) || listed.has(lower)) continue;
    out[lower] = values;
  }
  // X-Forwarded-For is appended to, as every proxy in a chain does; Host and
  // Proto describe this hop unless a trusted proxy in front already set them.
  const peer = call.headers[PEER_HEADER]?.[0];
  const priorFor = call.headers["x-forwarded-for"] ?? [];
  if (peer) out["x-forwarded-for"] = [[...priorFor, peer].join(", ")];
  const host = call.headers.host?.[0];
  if (host && !(trustsProxy() && call.headers["x-forwarded-host"])) out["x-forwarded-host"] = [host];
  if (!(trustsProxy() && call.headers["x-forwarded-proto"])) out["x-forwarded-proto"] = ["http"];
  for (const [name, values] of Object.entries(call.proxy.headers ?? {})) out[name.toLowerCase()] = values.map((v) => v.replace(/[\r\n]+/g, " "));
  if (call.body.length > 0) out["content-length"] = [String(call.body.length)];
  out.via = [[...(call.headers.via ?? []), `1.1 ${VIA_NAME}`].join(", ")];
  return out;
}

/** Upstream headers in their own spelling, repeated ones kept (Set-Cookie), minus hop-by-hop. */
function returnedHeaders(res: http.IncomingMessage, keepLength: boolean, requestId: string): Record<string, string[]> {
  const listed = connectionTokens(res.headers.connection);
  const out: Record<string, string[]> = {};
  const spelling = new Map<string, string>();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    const name = res.rawHeaders[i];
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || listed.has(lower)) continue;
    // The adapter sets Content-Length from the bytes it sends; a HEAD answer has none, so the upstream's is kept.
    if (lower === "content-length" && !keepLength) continue;
    if (!spelling.has(lower)) spelling.set(lower, name);
    (out[spelling.get(lower)!] ??= []).push(res.rawHeaders[i + 1]);
  }
  if (!spelling.has("x-request-id")) out["X-Request-Id"] = [requestId];
  return out;
}

type FailReason = "blocked_target" | "timeout" | "connection_failed" | "response_too_large" | "invalid_request" | "loop_detected";

function failure(status: number, reason: FailReason, message: string, target: string, requestId: string): StubOutput {
  return {
    status,
    headers: { "Content-Type": "application/json", "X-Request-Id": requestId },
    body: JSON.stringify({ error: message, code: reason === "loop_detected" ? "loop_detected" : "external", request_id: requestId, details: { reason, target } }),
    delayMs: 0,
  };
}

/**
 * Forwards the request and resolves with the upstream's answer, or with an
 * error envelope: 502 when the guard refuses the target or the connection
 * fails, 504 when the upstream does not answer within proxy.timeoutMs. Never rejects.
 */
export function forwardToProxy(call: ProxyCall): Promise<StubOutput> {
  const { requestId } = call;
  let target: URL;
  try {
    target = proxyTargetUrl(call.proxy, call.mock, call.path, call.search);
  } catch (err) {
    // Saving validates the target; this guards rows written under an older contract.
    logger().warn({ requestId, mockId: call.mock.id, err }, "proxy target is not a URL");
    return Promise.resolve(failure(502, "invalid_request", `Proxy target '${call.proxy.target}' is not a valid URL`, call.proxy.target, requestId));
  }
  const origin = target.origin;
  const log = (reason: FailReason, err: unknown) => logger().warn({ requestId, mockId: call.mock.id, target: origin, reason, err }, "proxy request failed");
  const loop = proxyLoopIn(call.headers.via);
  if (loop) {
    log("loop_detected", loop);
    const why = loop === "own" ? "came back to this server" : `passed through ${MAX_PROXY_HOPS} Polymock proxies`;
    return Promise.resolve(failure(508, "loop_detected", `Proxy loop: the request ${why}; proxy target ${origin} leads back to these stubs`, origin, requestId));
  }
  try {
    assertAllowedTarget(target);
  } catch (err) {
    log("blocked_target", err);
    return Promise.resolve(failure(502, "blocked_target", (err as Error).message, origin, requestId));
  }

  const timeoutMs = call.proxy.timeoutMs ?? PROXY_DEFAULT_TIMEOUT_MS;
  const isHead = call.method === "HEAD";
  return new Promise<StubOutput>((resolve) => {
    let done = false;
    // Set before destroying the request: once the response has begun, node reports a destroy as a generic "aborted".
    let cause: "timeout" | "response_too_large" | undefined;
    const finish = (out: StubOutput) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(out);
    };
    const fail = (err: unknown) => {
      if (done) return;
      if (cause === "timeout") {
        log("timeout", err);
        finish(failure(504, "timeout", `Proxy target ${origin} did not answer within ${timeoutMs} ms`, origin, requestId));
      } else if (cause === "response_too_large") {
        log("response_too_large", err);
        finish(failure(502, "response_too_large", `Proxy target ${origin} answered with more than ${PROXY_MAX_RESPONSE_BYTES} bytes`, origin, requestId));
      } else if (err instanceof BlockedTargetError) {
        log("blocked_target", err);
        finish(failure(502, "blocked_target", err.message, origin, requestId));
      } else {
        log("connection_failed", err);
        const e = err as NodeJS.ErrnoException;
        finish(failure(502, "connection_failed", `Proxy target ${origin} could not be reached: ${e.code ?? e.message}`, origin, requestId));
      }
    };

    const client = target.protocol === "https:" ? https : http;
    let responded = false;
    let req: http.ClientRequest;
    try {
      req = client.request(target, { method: call.method, headers: forwardedHeaders(call), agent: guardedAgent(target.protocol), lookup: safeLookup }, (res) => {
        responded = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > PROXY_MAX_RESPONSE_BYTES) {
            cause = "response_too_large";
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on("end", () => {
          if (cause) return;
          finish({ status: res.statusCode ?? 502, headers: returnedHeaders(res, isHead, requestId), body: Buffer.concat(chunks), delayMs: 0 });
        });
        res.on("error", fail);
        res.on("close", () => {
          if (!res.complete) fail(new Error("upstream closed the connection before the response ended"));
        });
      });
    } catch (err) {
      // node refuses some header values (characters outside latin-1) before sending anything.
      log("invalid_request", err);
      resolve(failure(502, "invalid_request", `Proxy request to ${origin} could not be formed: ${(err as Error).message}`, origin, requestId));
      return;
    }
    const timer = setTimeout(() => {
      cause = "timeout";
      req.destroy();
    }, timeoutMs);
    req.on("error", fail);
    req.on("close", () => {
      if (!responded) fail(new Error("connection closed before a response"));
    });
    req.end(call.body.length > 0 ? call.body : undefined);
  });
}
