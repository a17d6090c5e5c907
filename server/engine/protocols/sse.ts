// SSE mocks: a GET streamed as server-sent events. The route is
// pathPrefix + `sse.eventPath` (or `sse.route` when there is no eventPath,
// or the prefix alone when there is neither); the selector is GET; conditions
// see the query string as an object (an EventSource cannot send a body), plus
// `queryParams` and `header` as for HTTP.
import { joinRoute } from "../route";
import type { RenderedEvent } from "../types";
import type { Placer } from "./placement";

export const placeSse: Placer = (def) => {
  const sse = def.sse;
  if (!sse) return null;
  return {
    route: joinRoute(def.pathPrefix, sse.eventPath || sse.route || "/"),
    selector: "GET",
    // `headerConditions` is the public clients' name for `header`.
    conditions: { conditions: sse.conditions, queryParams: sse.queryParams, header: sse.headerConditions ? [...(sse.header ?? []), ...sse.headerConditions] : sse.header, sortArray: sse.sortArray },
  };
};

/**
 * The spec's test for an SSE request: a GET that accepts text/event-stream,
 * or whose path is under /sse/ or /events/ (at any depth, so a pathPrefix in
 * front still counts). Cheap: it runs on every GET of a namespace with SSE mocks.
 */
export function isSseRequest(method: string, path: string, accept: string | undefined): boolean {
  if (method !== "GET") return false;
  if (accept !== undefined && accept.includes("text/event-stream")) return true;
  return path.includes("/sse/") || path.includes("/events/");
}

/** The query as an object: one value as a string, a repeated parameter as its list (as `$.queryParams`). */
/** An SSE comment line: keeps idle connections (and proxies in between) open; clients ignore it. */
export const SSE_HEARTBEAT = ":\n\n";

export function queryObject(query: Record<string, string[]>): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in query) {
    const values = query[name];
    out[name] = values.length === 1 ? values[0] : values;
  }
  return out;
}

/**
 * One event on the wire: `event:` (when named), `id:` and `retry:` (when
 * given), one `data:` line per line of the data (a string as is, anything
 * else as JSON, none as one empty line so the client still dispatches it),
 * then the blank line that ends the event.
 */
export function formatSseEvent(eventName: string | undefined, data: unknown, fields?: { id?: string; retryMs?: number; wire?: RenderedEvent["wire"] }): string {
  // Formatted by the engine (once per mock version for an event without placeholders).
  if (fields?.wire !== undefined && fields.wire.eventName === eventName) return fields.wire.text;
  let out = "";
  // A line break in the name would end the field early and forge others.
  if (eventName) out += `event: ${oneLine(eventName)}\n`;
  // An id with NUL is ignored by clients (the spec), so it is dropped here rather than sent in vain.
  if (fields?.id !== undefined && !fields.id.includes("\0")) out += `id: ${oneLine(fields.id)}\n`;
  if (fields?.retryMs !== undefined) out += `retry: ${fields.retryMs}\n`;
  const text = data === undefined ? "" : typeof data === "string" ? data : (JSON.stringify(data) ?? "");
  // JSON text never has a raw line break: most data is one line.
  if (!hasLineBreak(text)) return `${out}data: ${text}\n\n`;
  for (const line of text.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return out + "\n";
}

const hasLineBreak = (text: string) => text.includes("\n") || text.includes("\r");
const oneLine = (text: string) => (hasLineBreak(text) ? text.replace(/[\r\n]+/g, " ") : text);
