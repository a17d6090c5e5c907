import { describe, expect, it } from "vitest";
import { MockInput, type MockDefinition } from "@/server/contracts/mock";
import { buildNamespace, handle } from "../engine";
import { TEMPLATE_LIMITS, TemplateError } from "../template";
import { memoryDeps } from "../testing";
import { formatSseEvent, isSseRequest, placeSse, queryObject } from "./sse";

let seq = 0;
function mock(input: Record<string, unknown>): { mock: MockDefinition; sequence: number; createdAt: number } {
  const parsed = MockInput.parse({ id: `sse${seq}`, ...input });
  return { mock: { ...parsed, id: parsed.id!, namespace: "sandbox" }, sequence: seq++, createdAt: 0 };
}
const def = (input: Record<string, unknown>) => mock(input).mock;

describe("SSE placement", () => {
  it("routes at pathPrefix + eventPath, else route, else the prefix alone; GET is the selector", () => {
    expect(placeSse(def({ pathPrefix: "/api", sse: { eventPath: "/feed/:id", route: "/ignored" } }))).toMatchObject({ route: "/api/feed/:id", selector: "GET" });
    expect(placeSse(def({ sse: { route: "events/x" } }))?.route).toBe("/events/x");
    expect(placeSse(def({ pathPrefix: "/p", sse: {} }))?.route).toBe("/p");
    expect(placeSse(def({ http: { route: "/x" } }))).toBeNull();
  });
});

describe("isSseRequest", () => {
  it("is a GET accepting text/event-stream, or a GET under /sse/ or /events/", () => {
    expect(isSseRequest("GET", "/anything", "text/event-stream")).toBe(true);
    expect(isSseRequest("GET", "/anything", "application/json, text/event-stream;q=0.9")).toBe(true);
    expect(isSseRequest("GET", "/sse/prices", undefined)).toBe(true);
    expect(isSseRequest("GET", "/api/events/x", "*/*")).toBe(true);
    expect(isSseRequest("GET", "/events", undefined)).toBe(false);
    expect(isSseRequest("GET", "/ssex/y", undefined)).toBe(false);
    expect(isSseRequest("POST", "/sse/prices", "text/event-stream")).toBe(false);
  });
});

describe("formatSseEvent", () => {
  it("writes event and data lines and the blank line that ends the event", () => {
    expect(formatSseEvent("tick", { n: 1 })).toBe('event: tick\ndata: {"n":1}\n\n');
    expect(formatSseEvent(undefined, "plain")).toBe("data: plain\n\n");
    expect(formatSseEvent(undefined, 42)).toBe("data: 42\n\n");
    expect(formatSseEvent(undefined, null)).toBe("data: null\n\n");
  });
  it("splits multi-line strings into several data lines (any line ending), and sends an empty data line for no data", () => {
    expect(formatSseEvent("m", "a\nb\r\nc\rd")).toBe("event: m\ndata: a\ndata: b\ndata: c\ndata: d\n\n");
    expect(formatSseEvent("empty", undefined)).toBe("event: empty\ndata: \n\n");
    // JSON escapes line breaks inside strings: one line.
    expect(formatSseEvent(undefined, { s: "x\ny" })).toBe('data: {"s":"x\\ny"}\n\n');
  });
  it("cannot be made to forge fields through the event name", () => {
    expect(formatSseEvent("a\ndata: forged\n", 1)).toBe("event: a data: forged \ndata: 1\n\n");
  });
});

describe("queryObject", () => {
  it("keeps one value as a string and a repeated parameter as its list", () => {
    expect(queryObject({ a: ["1"], b: ["x", "y"] })).toEqual({ a: "1", b: ["x", "y"] });
  });
});

describe("SSE events through the engine", () => {
  it("renders each event's name and data with the request, and keeps static data as is", async () => {
    const ns = buildNamespace("sandbox", [
      mock({
        sse: { eventPath: "/feed/:id" },
        response: { delay: 7, sseEventChain: { events: [{ eventName: "e-$.pathParam.id", data: { q: "$.req.q" }, delay: 3 }, { data: "static" }, {}] } },
      }),
    ]);
    const r = await handle(ns, { namespace: "sandbox", method: "GET", path: "/feed/9", headers: {}, query: { q: ["v"] }, body: { q: "v" } }, memoryDeps(), "sse");
    expect(r.matched && r.response.delayMs).toBe(7);
    // Each event also comes in wire form, as formatSseEvent writes it.
    expect(r.matched && r.response.events).toEqual([
      { eventName: "e-9", data: { q: "v" }, delayMs: 3, wire: { eventName: "e-9", text: 'event: e-9\ndata: {"q":"v"}\n\n' } },
      { eventName: undefined, data: "static", delayMs: 0, wire: { eventName: undefined, text: "data: static\n\n" } },
      { eventName: undefined, data: undefined, delayMs: 0, wire: { eventName: undefined, text: "data: \n\n" } },
    ]);
  });

  it("puts events without placeholders in wire form once per mock version, templated ones per request", async () => {
    const events = [
      { data: { n: 1, s: "two\nlines" }, id: "i-1", retry: 500 },
      { data: "a\r\nb", eventName: "custom" },
      { data: { n: 3, id: "$.fake.UUID", q: "$.req.q" }, id: "$.req.q" },
    ];
    const ns = buildNamespace("sandbox", [mock({ sse: { eventPath: "/w6", eventName: "tick" }, response: { sseEventChain: { events } } })]);
    const request = (q: string) => ({ namespace: "sandbox", method: "GET", path: "/w6", headers: {}, query: { q: [q] }, body: { q } });
    const first = await handle(ns, request("x\ny"), memoryDeps(), "sse");
    const second = await handle(ns, request("z"), memoryDeps(), "sse");
    if (!first.matched || !second.matched) throw new Error("no match");
    const [a, b] = [first.response.events!, second.response.events!];
    expect(b[0]).toBe(a[0]);
    expect(b[1]).toBe(a[1]);
    expect(b[2]).not.toBe(a[2]);
    // The wire form is what formatting the rendered values gives, under the name the stream writes.
    for (const e of [...a, ...b]) {
      const name = e.eventName ?? "tick";
      expect(e.wire).toEqual({ eventName: name, text: formatSseEvent(name, e.data, { id: e.id, retryMs: e.retryMs }) });
      expect(formatSseEvent(name, e.data, e)).toBe(e.wire!.text);
    }
    expect(a[0].wire!.text).toBe('event: tick\nid: i-1\nretry: 500\ndata: {"n":1,"s":"two\\nlines"}\n\n');
    expect(a[1].wire!.text).toBe("event: custom\ndata: a\ndata: b\n\n");
    expect(a[2].data).toEqual({ n: 3, id: expect.stringMatching(/^[0-9a-f-]{36}$/), q: "x\ny" });
    expect(a[2].wire!.text).toBe(`event: tick\nid: x y\ndata: ${JSON.stringify(a[2].data)}\n\n`);
    // Written under another name than the one it was formatted for, an event is formatted afresh.
    expect(formatSseEvent("other", a[0].data, a[0])).toBe('event: other\nid: i-1\nretry: 500\ndata: {"n":1,"s":"two\\nlines"}\n\n');
  });

  it("bounds the rendered size of the whole chain, not each event", async () => {
    const big = "x".repeat(1024 * 1024);
    const ns = buildNamespace("sandbox", [mock({ sse: { eventPath: "/big" }, response: { sseEventChain: { events: Array.from({ length: 20 }, () => ({ data: "$.req.big" })) } } })]);
    const req = { namespace: "sandbox", method: "GET", path: "/big", headers: {}, query: {}, body: { big } };
    expect(20 * big.length).toBeGreaterThan(TEMPLATE_LIMITS.maxOutputSize);
    await expect(async () => handle(ns, req, memoryDeps(), "sse")).rejects.toThrow(TemplateError);
  });

  it("is its own index: an SSE mock does not answer HTTP, nor an HTTP mock SSE", async () => {
    const ns = buildNamespace("sandbox", [mock({ sse: { eventPath: "/s" }, response: { payload: 1 } }), mock({ http: { route: "/h" }, response: { payload: 2 } })]);
    const req = (path: string) => ({ namespace: "sandbox", method: "GET", path, headers: {}, query: {}, body: {} });
    expect((await handle(ns, req("/s"), memoryDeps(), "http")).matched).toBe(false);
    expect((await handle(ns, req("/h"), memoryDeps(), "sse")).matched).toBe(false);
    expect((await handle(ns, req("/s"), memoryDeps(), "sse")).matched).toBe(true);
  });
});
