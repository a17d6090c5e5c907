// The runner's event-stream parser: one table of whole streams (fields, line
// ends, comments, multi-line data), one of the same streams cut into chunks at
// every position, which must give the same events.
import { describe, expect, it } from "vitest";
import { parseSse, parseSseChunk, type SseEvent } from "./sse-parse";

const cases: { name: string; text: string; events: SseEvent[] }[] = [
  { name: "one named event", text: 'event: started\ndata: {"id":"r1"}\n\n', events: [{ event: "started", data: '{"id":"r1"}' }] },
  { name: "an event without a name is a message", text: "data: hi\n\n", events: [{ event: "message", data: "hi" }] },
  { name: "CRLF line ends", text: "event: a\r\ndata: 1\r\n\r\n", events: [{ event: "a", data: "1" }] },
  { name: "CR line ends", text: "event: a\rdata: 1\r\r", events: [{ event: "a", data: "1" }] },
  { name: "mixed line ends", text: "event: a\r\ndata: 1\n\revent: b\rdata: 2\r\n\n", events: [{ event: "a", data: "1" }, { event: "b", data: "2" }] },
  { name: "data lines join with LF", text: "data: a\ndata: b\ndata:\n\n", events: [{ event: "message", data: "a\nb\n" }] },
  { name: "only one space after the colon is dropped", text: "data:  two\ndata:none\n\n", events: [{ event: "message", data: " two\nnone" }] },
  { name: "a field without a colon has an empty value", text: "data\ndata\n\n", events: [{ event: "message", data: "\n" }] },
  { name: "comments (pings) are skipped", text: ": connected\n\n: ping\nevent: x\ndata: 1\n\n", events: [{ event: "x", data: "1" }] },
  { name: "an event without data is dropped", text: "event: lonely\n\ndata: 2\n\n", events: [{ event: "message", data: "2" }] },
  { name: "the event name does not carry over", text: "event: a\ndata: 1\n\ndata: 2\n\n", events: [{ event: "a", data: "1" }, { event: "message", data: "2" }] },
  { name: "id names its own event", text: "id: 7\ndata: 1\n\ndata: 2\n\n", events: [{ event: "message", data: "1", id: "7" }, { event: "message", data: "2" }] },
  { name: "retry and unknown fields are ignored", text: "retry: 1000\nfoo: bar\ndata: 1\n\n", events: [{ event: "message", data: "1" }] },
  { name: "an event cut off by the end is not dispatched", text: "data: 1\n\ndata: 2\n", events: [{ event: "message", data: "1" }] },
  { name: "a colon in the value stays", text: 'data: {"a":"b:c"}\n\n', events: [{ event: "message", data: '{"a":"b:c"}' }] },
  { name: "non-ASCII text", text: "event: result\ndata: «€» 名前\n\n", events: [{ event: "result", data: "«€» 名前" }] },
  { name: "no text", text: "", events: [] },
];

describe("parseSse", () => {
  it.each(cases)("$name", ({ text, events }) => {
    expect(parseSse(text)).toEqual(events);
  });
});

/** Feeds `text` in pieces cut at the given offsets and collects the events. */
function feed(text: string, cuts: number[]): SseEvent[] {
  const events: SseEvent[] = [];
  let pending = "";
  let from = 0;
  for (const at of [...cuts, text.length]) {
    const r = parseSseChunk(pending, text.slice(from, at));
    events.push(...r.events);
    pending = r.pending;
    from = at;
  }
  return events;
}

describe("parseSseChunk", () => {
  it.each(cases)("$name, cut at every position", ({ text, events }) => {
    for (let at = 0; at <= text.length; at++) expect(feed(text, [at]), `cut at ${at}`).toEqual(events);
  });

  it.each(cases)("$name, one character at a time", ({ text, events }) => {
    expect(feed(text, Array.from({ length: text.length }, (_, i) => i))).toEqual(events);
  });

  const pendingCases: { name: string; chunks: string[]; events: number; pending: string }[] = [
    { name: "keeps an unfinished event", chunks: ["data: 1\n\ndata: 2"], events: 1, pending: "data: 2" },
    { name: "keeps a single line end", chunks: ["data: 1\r"], events: 0, pending: "data: 1\r" },
    { name: "a CRLF split over two chunks ends the event once", chunks: ["data: 1\r\n\r", "\ndata: 2\r\n\r\n"], events: 2, pending: "" },
  ];
  it.each(pendingCases)("$name", ({ chunks, events, pending }) => {
    let rest = "";
    let count = 0;
    for (const chunk of chunks) {
      const r = parseSseChunk(rest, chunk);
      rest = r.pending;
      count += r.events.length;
    }
    expect({ count, rest }).toEqual({ count: events, rest: pending });
  });

  it("finds a boundary after a long event received in pieces", () => {
    const big = `event: finished\ndata: ${"x".repeat(200_000)}\n\n`;
    const pieces = Array.from({ length: Math.ceil(big.length / 4096) }, (_, i) => (i + 1) * 4096).filter((n) => n < big.length);
    const events = feed(big, pieces);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toHaveLength(200_000);
  });
});
