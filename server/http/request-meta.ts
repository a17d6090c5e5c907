// Facts about a request the route handlers need and cannot read from a socket
// (server.ts passes them on as headers): request id, client address, TLS.
import { randomUUID } from "node:crypto";

/** Header server.ts sets from the socket's address; any client-sent value is overwritten. */
export const PEER_HEADER = "x-polymock-peer";
/** Header the proxy sets when the namespace came in the path form /api/v1/namespaces/<ns>/<rest>. */
export const PATH_NAMESPACE_HEADER = "x-polymock-path-namespace";

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

// Request ids only need to be unique, not unguessable (they are echoed in
// responses and logs, never trusted): a random per-process prefix and a
// counter, in the shape of a v4 UUID. crypto.randomUUID() refills its entropy
// pool every 128 calls, a visible cost at tens of thousands of stubs a second.
// The first four groups of a random v4 UUID (version and variant included).
const ID_PREFIX = randomUUID().slice(0, 24);
// Decimal digits are hex digits too, and a small integer's decimal string is
// V8's cheapest number formatting (toString(16) of a large one calls into C++).
const ID_START = Math.floor(Math.random() * 2 ** 29);
let idCounter = 0;

/** A new request id: UUID-shaped, unique within this process's lifetime and across processes in practice. */
export function newRequestId(): string {
  const n = (ID_START + idCounter++) % 1e12;
  return ID_PREFIX + String(n).padStart(12, "0");
}

/** A client-sent request id is kept when it looks like one. */
export function isRequestId(value: string): boolean {
  return REQUEST_ID.test(value);
}

export function requestIdFrom(headers: { get(name: string): string | null }): string {
  const incoming = headers.get("x-request-id");
  return incoming && REQUEST_ID.test(incoming) ? incoming : newRequestId();
}

/** TRUST_PROXY=1 (or true/yes): one reverse proxy in front of server.ts, whose X-Forwarded-* are believed. */
export function trustsProxy(): boolean {
  const v = process.env.TRUST_PROXY?.toLowerCase();
  return v === "1" || v === "true" || v === "yes";
}

/** The last value of a comma-separated header: the one the proxy nearest to us wrote. */
function nearest(value: string | null): string | undefined {
  const last = value?.split(",").pop()?.trim();
  return last ? last : undefined;
}

// An IPv4 or IPv6 address (possibly with a zone or a v4 tail); anything else is not an address.
const ADDRESS = /^[0-9A-Fa-f:.%]{2,64}$/;

/**
 * The client's address: the socket peer server.ts saw, or with TRUST_PROXY the
 * address the trusted proxy appended to X-Forwarded-For (its last entry; the
 * ones before it were sent by the client and could be anything).
 */
export function clientIp(headers: { get(name: string): string | null }): string {
  if (trustsProxy()) {
    const forwarded = nearest(headers.get("x-forwarded-for"));
    if (forwarded && ADDRESS.test(forwarded)) return forwarded;
  }
  return headers.get(PEER_HEADER) ?? "unknown";
}

/** Whether the browser reached us over TLS, for the session cookie's Secure flag. */
export function isSecureRequest(req: Request): boolean {
  if (process.env.PUBLIC_URL?.startsWith("https://")) return true;
  if (trustsProxy()) return nearest(req.headers.get("x-forwarded-proto"))?.toLowerCase() === "https";
  return new URL(req.url).protocol === "https:";
}
