// "Save response as mock": the response the workspace received becomes a mock
// draft that answers the same request path and method with the same status,
// headers and body. The mock editor opens prefilled with it (the draft
// travels through sessionStorage under a one-time key, since a body can be
// larger than a URL may be).
import type { ExecutedResponse, SentRequest } from "@/server/contracts/tester-execution";

/** Headers a stub sets itself, or that describe the original transfer rather than the content. */
const DROPPED = new Set(["content-length", "transfer-encoding", "connection", "keep-alive", "date", "server", "content-encoding", "x-request-id", "set-cookie"]);

export function mockDraftFromResponse(sent: Pick<SentRequest, "method" | "url">, response: Pick<ExecutedResponse, "status" | "headers" | "body" | "bodyEncoding">): Record<string, unknown> {
  let route = "/";
  try {
    route = new URL(sent.url).pathname || "/";
  } catch {}
  const headers: Record<string, string[]> = {};
  for (const { key, value } of response.headers) {
    const name = key.toLowerCase();
    if (DROPPED.has(name)) continue;
    (headers[key] ??= []).push(value);
  }
  const contentType = response.headers.find((h) => h.key.toLowerCase() === "content-type")?.value ?? "";
  let payload: unknown = response.body;
  if (response.bodyEncoding === "utf8" && /json/i.test(contentType)) {
    try {
      payload = JSON.parse(response.body);
    } catch {}
  }
  return {
    http: { route, httpMethod: sent.method.toUpperCase() },
    response: {
      statusCode: response.status,
      ...(Object.keys(headers).length ? { headers } : {}),
      payload,
      ...(response.bodyEncoding === "base64" ? { decode: "base64" } : {}),
    },
  };
}

export const MOCK_DRAFT_KEY_PREFIX = "polymock.mock-draft.";

/** Stores the draft for the mock editor and returns the key to put in `?draft=`. */
export function stashMockDraft(draft: Record<string, unknown>): string {
  const key = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  sessionStorage.setItem(MOCK_DRAFT_KEY_PREFIX + key, JSON.stringify(draft));
  return key;
}

const taken = new Map<string, Record<string, unknown> | null>();

/** The stashed draft: removed from storage on the first read, remembered for later reads in this page (effects may run twice). */
export function takeMockDraft(key: string): Record<string, unknown> | null {
  if (taken.has(key)) return taken.get(key)!;
  const text = sessionStorage.getItem(MOCK_DRAFT_KEY_PREFIX + key);
  sessionStorage.removeItem(MOCK_DRAFT_KEY_PREFIX + key);
  let draft: Record<string, unknown> | null = null;
  try {
    draft = text === null ? null : (JSON.parse(text) as Record<string, unknown>);
  } catch {}
  taken.set(key, draft);
  return draft;
}
