// The request as it goes on the wire: what the request builder makes of a
// RequestDefinition (variables substituted, auth applied, body encoded) and
// what the HTTP client sends. A leaf file, so the builder (which sends OAuth
// 2.0 token requests through the client) and the client share it without a loop.
import type { SentRequest } from "@/server/contracts/tester-execution";
import type { RequestSettings } from "@/server/contracts/tester-request";

export interface HeaderEntry {
  key: string;
  value: string;
}

export interface PreparedRequest {
  method: string;
  /** Absolute, params appended, a scheme-less URL given http://. */
  url: string;
  /** In the order they are sent; disabled entries are already gone. */
  headers: HeaderEntry[];
  body?: Buffer;
  /** The body as SentRequest shows it. */
  bodyPreview: Pick<SentRequest, "body" | "bodyEncoding">;
  settings: RequestSettings;
  /** `{{names}}` no scope defined, left verbatim in what is sent. */
  unresolved: string[];
}

/** First value of a header, by case-insensitive name. */
export function headerValue(headers: readonly HeaderEntry[], name: string): string | undefined {
  const lower = name.toLowerCase();
  return headers.find((h) => h.key.toLowerCase() === lower)?.value;
}

export function hasHeader(headers: readonly HeaderEntry[], name: string): boolean {
  return headerValue(headers, name) !== undefined;
}

export function withoutHeaders(headers: readonly HeaderEntry[], names: readonly string[]): HeaderEntry[] {
  const drop = new Set(names.map((n) => n.toLowerCase()));
  return headers.filter((h) => !drop.has(h.key.toLowerCase()));
}
