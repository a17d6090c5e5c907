// HAR 1.2 (the browser's "Save all as HAR", proxies' exports) read into
// recorded exchanges: the request as the stub will see it (method, path, query
// parameters, body parsed like server/transport/stub-body.ts parses it,
// headers) and the recorded answer as a mock response that replays it byte
// for byte. Entries a mock cannot stand for (not HTTP(S), CONNECT, WebSocket
// upgrades, aborted with status 0) are skipped with a warning each.
import { z } from "zod";
import { isBase64 } from "@/server/contracts/mock";
import { compileString, compileTemplate } from "@/server/engine/template";
import { parseStubBody } from "@/server/transport/stub-body";
import { readWithSchema } from "./schema-check";
import type { GeneratorWarning } from "./types";

const NameValue = z.object({ name: z.string(), value: z.string() });

// Only what the mapping reads is checked; HAR's other fields (timings, cache, _private ones) pass.
const HarEntry = z.object({
  request: z.object({
    method: z.string().min(1),
    url: z.string().min(1),
    headers: z.array(NameValue).default([]),
    bodySize: z.number().optional(),
    postData: z
      .object({
        mimeType: z.string().optional(),
        text: z.string().optional(),
        params: z.array(z.object({ name: z.string(), value: z.string().optional() })).optional(),
      })
      .optional(),
  }),
  response: z.object({
    status: z.number().int(),
    headers: z.array(NameValue).default([]),
    content: z
      .object({
        size: z.number().optional(),
        mimeType: z.string().optional(),
        text: z.string().optional(),
        encoding: z.string().optional(),
      })
      .default({}),
  }),
  _resourceType: z.string().optional(),
  // For replays (load scripts): which page an entry belongs to and when it started.
  pageref: z.string().optional(),
  startedDateTime: z.string().optional(),
  time: z.number().optional(),
});
const HarPage = z.object({ id: z.string(), title: z.string().optional(), startedDateTime: z.string().optional() });
const Har = z.object({ log: z.object({ pages: z.array(HarPage).optional(), entries: z.array(HarEntry) }) });
type HarEntry = z.infer<typeof HarEntry>;
export type HarLogEntry = HarEntry;
export type HarPage = z.infer<typeof HarPage>;

/** The mock response that replays a recorded answer. */
export interface RecordedResponse {
  statusCode: number;
  headers?: Record<string, string[]>;
  payload?: unknown;
  decode?: "base64";
}

export interface Recorded {
  /** JSON pointer of the entry (/log/entries/3). */
  at: string;
  /** The URL's host name: the default id prefix. */
  host: string;
  method: string;
  /** The URL's path, percent-encoding kept, origin dropped. */
  path: string;
  /** The URL's query string with its "?" ("" when none), for summaries and the replay. */
  search: string;
  query: Record<string, string[]>;
  /** The request body as the stub parses it (JSON value, form object or text); undefined when none. */
  body: unknown;
  /** Lower-case name → values. */
  headers: Record<string, string[]>;
  response: RecordedResponse;
  /** Equal for answers that are the same on the wire. */
  responseKey: string;
}

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE"];

/**
 * Response headers a replay must not repeat: hop-by-hop ones, the framing the
 * stub computes itself (Content-Length; Content-Encoding, since HAR bodies are
 * stored decoded), the stub's own Date and X-Request-Id, and Set-Cookie (a
 * recorded session cookie would be served to every caller and kept in the
 * mock's history; docs/decisions.md, "Generators").
 */
const DROPPED_RESPONSE_HEADERS = new Set(["connection", "keep-alive", "proxy-authenticate", "proxy-connection", "te", "trailer", "trailers", "transfer-encoding", "upgrade", "content-length", "content-encoding", "date", "x-request-id", "set-cookie"]);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const TEXTUAL = /^text\/|json|xml|javascript|ecmascript|x-www-form-urlencoded|yaml|csv|graphql/i;

export function readHar(document: unknown): HarEntry[] {
  return readHarLog(document).entries;
}

/** The pages and the entries, in document order. */
export function readHarLog(document: unknown): { pages: HarPage[]; entries: HarEntry[] } {
  const { log } = readWithSchema(Har, document, "a HAR 1.2 document");
  return { pages: log.pages ?? [], entries: log.entries };
}

const headerList = (pairs: { name: string; value: string }[]) => {
  const out: Record<string, string[]> = {};
  for (const { name, value } of pairs) (out[name.toLowerCase()] ??= []).push(value);
  return out;
};

function requestBodyText(entry: HarEntry): string {
  const post = entry.request.postData;
  if (!post) return "";
  if (post.text !== undefined) return post.text;
  return post.params ? new URLSearchParams(post.params.map((p) => [p.name, p.value ?? ""])).toString() : "";
}

/** Why an entry is not mocked, or undefined when it is. */
function skipReason(entry: HarEntry, url: URL | undefined): string | undefined {
  if (!url) return `"${entry.request.url.slice(0, 100)}" is not a URL`;
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${url.protocol} is not HTTP(S)`;
  const method = entry.request.method.toUpperCase();
  if (method === "CONNECT") return "a CONNECT (a proxy tunnel) is no request a mock answers";
  const upgrade = entry.request.headers.some((h) => h.name.toLowerCase() === "upgrade" && /websocket/i.test(h.value));
  if (upgrade || entry.response.status === 101 || entry._resourceType === "websocket") return "a WebSocket upgrade: HTTP mocks do not speak WebSocket (see the socket generator)";
  if (entry.response.status === 0) return "aborted (status 0): no answer was recorded";
  if (entry.response.status < 100 || entry.response.status > 599) return `status ${entry.response.status} is not an HTTP status`;
  if (!HTTP_METHODS.includes(method)) return `the method ${method} is not one a mock can have`;
  return undefined;
}

/** The recorded body as the payload that sends the same bytes: JSON when it re-serialises to the same text, else the text, else base64. */
function payloadOf(entry: HarEntry, contentType: string | undefined, at: string, warnings: GeneratorWarning[]): Pick<RecordedResponse, "payload" | "decode"> | undefined {
  const content = entry.response.content;
  if (content.text === undefined || content.text === "") {
    if ((content.size ?? 0) > 0) warnings.push({ pointer: `${at}/response/content`, message: "the body was not recorded (no content.text): the mock answers without one" });
    return {};
  }
  let bytes: Buffer | undefined;
  if (content.encoding === "base64") {
    if (!isBase64(content.text)) return undefined;
    bytes = Buffer.from(content.text, "base64");
  }
  const type = contentType ?? content.mimeType ?? "";
  let text = bytes === undefined ? content.text : undefined;
  if (bytes && TEXTUAL.test(type)) {
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      // Not UTF-8 after all: served as the bytes.
    }
  }
  if (text === undefined) return { payload: bytes!.toString("base64"), decode: "base64" };
  let payload: unknown = text;
  if (/json/i.test(type) || /^\s*[[{]/.test(text)) {
    try {
      const value: unknown = JSON.parse(text);
      // A value is easier to edit than its text, but only when it goes out as the same bytes.
      if (value !== null && typeof value === "object" && JSON.stringify(value) === text) payload = value;
    } catch {}
  }
  if (compileTemplate(payload).hasPlaceholders) {
    // "$.x" or "{{…}}" in a recorded body is data, not a template: base64 payloads are never rendered.
    warnings.push({ pointer: `${at}/response/content/text`, message: "the body holds text the mock would read as a template ($. or {{ }}): kept as base64 so it is sent as recorded" });
    return { payload: Buffer.from(text).toString("base64"), decode: "base64" };
  }
  return { payload };
}

function responseOf(entry: HarEntry, at: string, warnings: GeneratorWarning[], dropped: { cookies: number }): RecordedResponse | undefined {
  const headers: Record<string, string[]> = {};
  let contentType: string | undefined;
  for (const [i, { name, value }] of entry.response.headers.entries()) {
    const lower = name.toLowerCase();
    if (lower === "set-cookie") dropped.cookies++;
    if (name.startsWith(":") || DROPPED_RESPONSE_HEADERS.has(lower)) continue;
    if (!HEADER_NAME.test(name) || compileString(value).hasPlaceholders) {
      warnings.push({ pointer: `${at}/response/headers/${i}`, message: `header "${name.slice(0, 100)}" left out: ${HEADER_NAME.test(name) ? "its value would be read as a template" : "not a valid header name"}` });
      continue;
    }
    if (lower === "content-type") contentType ??= value;
    // The recorded spelling of the first occurrence names the header; repeats join its list.
    const key = Object.keys(headers).find((k) => k.toLowerCase() === lower) ?? name;
    (headers[key] ??= []).push(value);
  }
  const body = payloadOf(entry, contentType, at, warnings);
  if (!body) {
    warnings.push({ pointer: `${at}/response/content/text`, message: "content.encoding is base64 but the text is not: skipped" });
    return undefined;
  }
  return { statusCode: entry.response.status, ...(Object.keys(headers).length ? { headers } : {}), ...body };
}

function responseKey(r: RecordedResponse): string {
  const headers = Object.entries(r.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([r.statusCode, headers, r.decode ?? "", r.payload ?? null]);
}

/** The entries a mock can replay, in document order; the others become warnings. */
export function recordedExchanges(document: unknown, warnings: GeneratorWarning[]): Recorded[] {
  const entries = readHar(document);
  const out: Recorded[] = [];
  const dropped = { cookies: 0 };
  entries.forEach((entry, i) => {
    const at = `/log/entries/${i}`;
    let url: URL | undefined;
    try {
      url = new URL(entry.request.url);
    } catch {}
    const reason = skipReason(entry, url);
    if (reason) {
      warnings.push({ pointer: at, message: `skipped: ${reason}` });
      return;
    }
    const response = responseOf(entry, at, warnings, dropped);
    if (!response) return;
    const headers = headerList(entry.request.headers.filter((h) => !h.name.startsWith(":")));
    const query: Record<string, string[]> = {};
    for (const [k, v] of url!.searchParams) (query[k] ??= []).push(v);
    out.push({
      at,
      host: url!.hostname,
      method: entry.request.method.toUpperCase(),
      path: url!.pathname,
      search: url!.search,
      query,
      // Parsed as the stub parses it, so body conditions see what the stub will.
      body: parseStubBody(requestBodyText(entry), headers["content-type"]?.[0] ?? entry.request.postData?.mimeType),
      headers,
      response,
      responseKey: responseKey(response),
    });
  });
  if (dropped.cookies) warnings.push({ message: `${dropped.cookies} Set-Cookie header(s) left out: a recorded session cookie would be served to every caller (add one to a mock by hand when a flow needs it)` });
  return out;
}
