// What every protocol helper shares: the caller's headers as wire entries, and
// one send through the API tester's HTTP client (server/tester/http-client.ts,
// which checks the outbound policy before connecting and on every redirect)
// whose failures become API errors. A helper's target is the caller's input,
// so a refused target is a 400 naming the field (as checkedUserUrl does for
// documents and MCP servers); an unreachable or failing one is a 502.
import type { HelperHeaders } from "@/server/contracts/tester-helpers";
import { DEFAULT_REQUEST_SETTINGS, type RequestSettings } from "@/server/contracts/tester-request";
import type { ExecutedResponse } from "@/server/contracts/tester-execution";
import { AppError } from "@/server/errors";
import { checkedUserUrl, refuse } from "@/server/lib/fetch-document";
import { SendError, sendHttp } from "@/server/tester/http-client";
import type { HeaderEntry, PreparedRequest } from "@/server/tester/prepared-request";
import { GeneratorInputError } from "@/server/generators/input-error";
import { errors } from "@/server/errors";

export function headerEntries(headers: HelperHeaders | undefined): HeaderEntry[] {
  if (!headers) return [];
  return Array.isArray(headers) ? headers.map((h) => ({ key: h.key, value: h.value })) : Object.entries(headers).map(([key, value]) => ({ key, value }));
}

export const external = (message: string) => new AppError("external", message, { status: 502 });

/** A helper's send failure as an API error: the policy's refusal is the caller's 400 on `field`, anything else the target's 502. */
export function sendFailure(err: unknown, field: string): AppError {
  if (err instanceof SendError) {
    if (err.code === "blocked" || err.code === "invalid_url") return refuse(field, err.message);
    return external(err.message);
  }
  if (err instanceof AppError) return err;
  return external((err as Error).message);
}

export interface OutboundCall {
  method: string;
  url: string;
  headers: HeaderEntry[];
  body?: string | Buffer;
  timeoutMs: number;
  followRedirects?: boolean;
  verifyTls?: boolean;
  signal?: AbortSignal;
}

/** One request under the outbound policy; `field` names the URL in a 400. */
export async function sendOutbound(call: OutboundCall, field: string): Promise<ExecutedResponse> {
  checkedUserUrl(call.url, field);
  const body = call.body === undefined ? undefined : Buffer.isBuffer(call.body) ? call.body : Buffer.from(call.body);
  const settings: RequestSettings = { ...DEFAULT_REQUEST_SETTINGS, timeoutMs: call.timeoutMs, followRedirects: call.followRedirects ?? true, verifyTls: call.verifyTls ?? true };
  const prepared: PreparedRequest = {
    method: call.method.toUpperCase(),
    url: call.url,
    headers: call.headers,
    ...(body ? { body } : {}),
    bodyPreview: body ? { body: body.toString("utf8"), bodyEncoding: "utf8" } : {},
    settings,
    unresolved: [],
  };
  try {
    return await sendHttp(prepared, { signal: call.signal });
  } catch (err) {
    throw sendFailure(err, field);
  }
}

/** The answer's body as text (the client gives base64 for what is not text). */
export function bodyText(res: ExecutedResponse): string {
  return res.bodyEncoding === "base64" ? Buffer.from(res.body, "base64").toString("utf8") : res.body;
}

/** A document a format parser could not read: 400 naming the field, with where. */
export function unreadable(err: unknown, field: string): unknown {
  if (err instanceof GeneratorInputError) return errors.validation(err.message, [{ location: "body", field, message: err.message, ...err.location }]);
  return err;
}
