// Server-sent events read from a fetch body, as the WHATWG HTML spec's
// event-stream parser does it: lines end in CRLF, LF or CR; `field: value`
// (one space after the colon dropped); `:` starts a comment (the server's
// pings); several `data` lines join with "\n"; a blank line dispatches the
// event, and one without data is dropped. `fetch` hands the text over in
// arbitrary chunks, so the text after the last complete event is returned as
// `pending` and passed back in with the next chunk. An event cut off by the
// end of the stream is never dispatched (the spec's rule too). An `id` names
// only its own event: nothing reconnects with Last-Event-ID here.

export interface SseEvent {
  /** The `event` field; "message" when the event named none. */
  event: string;
  data: string;
  id?: string;
}

export interface SseChunkResult {
  events: SseEvent[];
  /** Text of the event still being received: pass it back with the next chunk. */
  pending: string;
}

/** A blank line: two line ends in a row. */
const BOUNDARY = /(?:\r\n|\r(?!\n)|\n)(?:\r\n|\r|\n)/g;

/** Parses `pending + chunk`; only looks for a new event boundary around the join, so a long event arriving in many chunks is not re-scanned each time. */
export function parseSseChunk(pending: string, chunk: string): SseChunkResult {
  const text = pending + chunk;
  // A boundary may straddle the join: start a few characters back.
  BOUNDARY.lastIndex = Math.max(0, pending.length - 3);
  let end = -1;
  // A CR ending the text may be the first half of a CRLF: the event is dispatched at once all
  // the same, and the LF that follows reads as one more empty line, which dispatches nothing.
  for (let m = BOUNDARY.exec(text); m; m = BOUNDARY.exec(text)) end = m.index + m[0].length;
  if (end < 0) return { events: [], pending: text };
  return { events: parseBlock(text.slice(0, end)), pending: text.slice(end) };
}

/** The complete events of a whole stream's text. */
export function parseSse(text: string): SseEvent[] {
  return parseSseChunk("", text).events;
}

/** Events of text that ends with a blank line. */
function parseBlock(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  let type = "";
  let data: string[] = [];
  let id: string | undefined;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "") {
      if (data.length) events.push({ event: type || "message", data: data.join("\n"), ...(id !== undefined ? { id } : {}) });
      type = "";
      data = [];
      id = undefined;
      continue;
    }
    if (line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") type = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\0")) id = value;
    // `retry` and unknown fields are ignored: fetch does not reconnect.
  }
  return events;
}
