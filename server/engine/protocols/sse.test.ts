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
    expect(r.matched && r.response.events).toEqual([
      { eventName: "e-9", data: { q: "v" }, delayMs: 3 },
      { eventName: undefined, data: "static", delayMs: 0 },
      { eventName: undefined, data: undefined, delayMs: 0 },
    ]);
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
