import { randomUUID } from "node:crypto";

/** Header server.ts sets from the socket's address; any client-sent value is overwritten. */
export const PEER_HEADER = "x-polymock-peer";
/** Header the proxy sets when the namespace came in the path form /api/v1/namespaces/<ns>/<rest>. */
export const PATH_NAMESPACE_HEADER = "x-polymock-path-namespace";

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/** A client-sent request id is kept when it looks like one. */
export function isRequestId(value: string): boolean {
  return REQUEST_ID.test(value);
}

export function requestIdFrom(headers: { get(name: string): string | null }): string {
  const incoming = headers.get("x-request-id");
  return incoming && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

export function clientIp(headers: { get(name: string): string | null }): string {
  if (process.env.TRUST_PROXY === "1" || process.env.TRUST_PROXY === "true") {
    const forwarded = headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  return headers.get(PEER_HEADER) ?? "unknown";
}

export function isSecureRequest(req: Request): boolean {
  if (process.env.PUBLIC_URL?.startsWith("https://")) return true;
  if (process.env.TRUST_PROXY === "1" || process.env.TRUST_PROXY === "true") {
    return req.headers.get("x-forwarded-proto") === "https";
  }
  return new URL(req.url).protocol === "https:";
}
