// SSE mocks served over a real socket to the `eventsource` package's
// EventSource, through the same node:http handler as server.ts's fast path.
import { EventSource } from "eventsource";
import { describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { invalidateAll } from "@/server/serving/mock-index";
import { createMockFromUndefinedRequest } from "@/server/services/undefined-requests";
import { GLOBAL, writeStore } from "@/server/services/stores";
import { saveTemplate } from "@/server/services/templates";
import { useStubServer } from "@/server/testing/stub-server";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { serveStub } from "./stub-core";
import type { StubStreamSink } from "./stub-context";
import { stubRecorder } from "@/server/serving/recorder";

useTestDatabase();


const stub = useStubServer("live", { requestId: "sse-test-request" });

interface Received {
  type: string;
  data: string;
}

/** Opens an EventSource, listens for the given event names (and unnamed ones), and closes it after `count` events. */
function collect(url: string, count: number, names: string[] = []): Promise<Received[]> {
  return new Promise((resolve, reject) => {
    const es = new EventSource(url);
    const got: Received[] = [];
    const take = (e: MessageEvent) => {
      got.push({ type: e.type, data: e.data });
      if (got.length === count) {
        es.close();
        resolve(got);
      }
    };
    for (const name of ["message", ...names]) es.addEventListener(name, take);
    es.onerror = (err) => {
      // The stream ending makes the client reconnect; only a refused connection is a failure here.
      if (es.readyState === EventSource.CLOSED) reject(Object.assign(new Error(`EventSource failed: ${(err as { message?: string }).message}`), { code: (err as { code?: number }).code }));
    };
  });
}

describe("SSE mocks with a real EventSource", () => {
  it("streams the chain in order: per-event names, the block's default name, JSON and multi-line text data; the hit is logged once", async () => {
    const { mock } = await stub.save({
      sse: { eventPath: "/prices", eventName: "tick" },
      response: {
        headers: { "X-Feed": "demo" },
        sseEventChain: {
          events: [
            { eventName: "hello", data: { n: 1, ok: true } },
            { data: { n: 2 }, delay: 10 },
            { eventName: "note", data: "line one\nline two" },
            { eventName: "bye", data: "done" },
          ],
        },
      },
    });
    const head = await fetch(`${stub.origin}/stubs/live/prices`, { headers: { Accept: "text/event-stream" } });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toBe("text/event-stream");
    expect(head.headers.get("cache-control")).toBe("no-cache");
    expect(head.headers.get("x-feed")).toBe("demo");
    const raw = await head.text();
    expect(raw).toBe('event: hello\ndata: {"n":1,"ok":true}\n\nevent: tick\ndata: {"n":2}\n\nevent: note\ndata: line one\ndata: line two\n\nevent: bye\ndata: done\n\n');

    const events = await collect(`${stub.origin}/stubs/live/prices`, 4, ["hello", "tick", "note", "bye"]);
    expect(events).toEqual([
      { type: "hello", data: '{"n":1,"ok":true}' },
      { type: "tick", data: '{"n":2}' },
      { type: "note", data: "line one\nline two" },
      { type: "bye", data: "done" },
    ]);
    await stubRecorder().drain();
    const logs = await db().requestLog.findMany({ where: { mockId: mock.id } });
    // The fetch and the EventSource: one hit per stream (a reconnect after the end may add one).
    expect(logs.length).toBeGreaterThanOrEqual(2);
    expect(logs[0]).toMatchObject({ method: "GET", url: "/prices", status: 200 });
  });

  it("conditions on the query string choose among several mocks of one path", async () => {
    await stub.save({ sse: { eventPath: "/quotes", queryParams: [{ path: "symbol", assertAction: "equals", value: "AAPL" }] }, response: { sseEventChain: { events: [{ data: "apple" }] } } });
    // Same path and conditions: a duplicate; another pathPrefix is another route.
    await expect(stub.save({ sse: { eventPath: "/quotes", queryParams: [{ path: "symbol", assertAction: "equals", value: "AAPL" }] }, response: { payload: "x" } })).rejects.toMatchObject({ code: "duplicate_entity" });
    await stub.save({ pathPrefix: "/v2", sse: { eventPath: "/quotes", queryParams: [{ path: "symbol", assertAction: "equals", value: "AAPL" }] }, response: { payload: "x" } });
    await stub.save({ sse: { eventPath: "/quotes", conditions: [{ path: "$.symbol", assertAction: "equals", value: "MSFT" }] }, response: { sseEventChain: { events: [{ data: "microsoft" }] } } });
    await stub.save({ sse: { eventPath: "/quotes" }, response: { sseEventChain: { events: [{ data: "fallback" }] } } });
    expect(await collect(`${stub.origin}/stubs/live/quotes?symbol=AAPL`, 1)).toEqual([{ type: "message", data: "apple" }]);
    expect(await collect(`${stub.origin}/stubs/live/quotes?symbol=MSFT`, 1)).toEqual([{ type: "message", data: "microsoft" }]);
    expect(await collect(`${stub.origin}/stubs/live/quotes?symbol=IBM`, 1)).toEqual([{ type: "message", data: "fallback" }]);
  });

  it("renders each event with the engine's templates: path parameters, $.req (the query), headers, stores, fake values, and templated names", async () => {
    await writeStore(stub.scope.id, GLOBAL, "greeting", "hi");
    await stub.save({
      sse: { eventPath: "/users/:id/feed" },
      response: {
        sseEventChain: {
          events: [
            { eventName: "user-$.pathParam.id", data: { id: "$.pathParam.id", topic: "$.req.topic", agent: "$.reqHeader.x-agent[0]", greeting: "$.gS.greeting" } },
            { eventName: "uuid", data: "$.fake.UUID" },
          ],
        },
      },
    });
    const events = await new Promise<Received[]>((resolve, reject) => {
      const es = new EventSource(`${stub.origin}/stubs/live/users/42/feed?topic=orders`, {
        fetch: (input, init) => fetch(input, { ...init, headers: { ...init?.headers, "X-Agent": "tester" } }),
      });
      const got: Received[] = [];
      for (const name of ["user-42", "uuid"])
        es.addEventListener(name, (e) => {
          got.push({ type: e.type, data: e.data });
          if (got.length === 2) {
            es.close();
            resolve(got);
          }
        });
      es.onerror = () => es.readyState === EventSource.CLOSED && reject(new Error("failed"));
    });
    expect(events[0]).toEqual({ type: "user-42", data: JSON.stringify({ id: "42", topic: "orders", agent: "tester", greeting: "hi" }) });
    expect(events[1].data).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
  });

  it("pathPrefix is part of the route, and a path under /sse/ is SSE without the Accept header", async () => {
    await stub.save({ pathPrefix: "/api", sse: { eventPath: "/sse/alerts", eventName: "alert" }, response: { sseEventChain: { events: [{ data: { level: "high" } }] } } });
    const res = await fetch(`${stub.origin}/stubs/live/api/sse/alerts`);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(await res.text()).toBe('event: alert\ndata: {"level":"high"}\n\n');
    // sse.route stands in for a missing eventPath.
    await stub.save({ sse: { route: "/events/legacy" }, response: { payload: { single: true } } });
    expect(await (await fetch(`${stub.origin}/stubs/live/events/legacy`)).text()).toBe('data: {"single":true}\n\n');
  });

  it("an unmatched SSE request falls through to HTTP mocks; with none, it is a 404 captured as an undefined sse request", async () => {
    await stub.save({ http: { route: "/events/list", httpMethod: "GET" }, response: { payload: ["a", "b"] } });
    const http = await fetch(`${stub.origin}/stubs/live/events/list`);
    expect(http.headers.get("content-type")).toBe("application/json");
    expect(await http.json()).toEqual(["a", "b"]);

    await expect(collect(`${stub.origin}/stubs/live/nothing-here?x=1`, 1)).rejects.toMatchObject({ code: 404 });
    const res = await fetch(`${stub.origin}/stubs/live/nothing-here?x=2`, { headers: { Accept: "text/event-stream" } });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: "not_found", details: { method: "GET", path: "/nothing-here" } });
    await stubRecorder().drain();
    const captured = await db().undefinedRequest.findMany({ where: { namespaceId: stub.scope.id, path: "/nothing-here" } });
    expect(captured).toHaveLength(1);
    expect(captured[0]).toMatchObject({ protocol: "sse", method: "GET", count: 2 });

    // The captured request becomes an SSE mock for its path.
    await createMockFromUndefinedRequest(stub.actor, stub.scope, captured[0].id, { response: { sseEventChain: { events: [{ eventName: "now", data: "here" }] } } });
    invalidateAll();
    expect(await collect(`${stub.origin}/stubs/live/nothing-here`, 1, ["now"])).toEqual([{ type: "now", data: "here" }]);
  });

  it("bad input gets a 4xx envelope, never a 500: a POST to an SSE path, and a mock's non-200 status as a plain answer", async () => {
    const post = await fetch(`${stub.origin}/stubs/live/prices`, { method: "POST", headers: { Accept: "text/event-stream", "Content-Type": "application/json" }, body: "{not json" });
    expect(post.status).toBe(404);
    expect(await post.json()).toMatchObject({ code: "not_found" });
    await stub.save({ sse: { eventPath: "/sse/down" }, response: { statusCode: 503, payload: { error: "maintenance" } } });
    const down = await fetch(`${stub.origin}/stubs/live/sse/down`);
    expect(down.status).toBe(503);
    expect(await down.json()).toEqual({ error: "maintenance" });
  });
});

describe("the stream function (serveStub)", () => {
  const sink = () => {
    let leave!: () => void;
    const chunks: string[] = [];
    const s = {
      closed: false,
      gone: new Promise<void>((r) => (leave = r)),
      write: (c: string) => chunks.push(c),
    };
    return { s, chunks, leave: () => ((s.closed = true), leave()) };
  };

  it("writes every event and resolves after the last one", async () => {
    await stub.save({ sse: { eventPath: "/sse/count" }, response: { sseEventChain: { events: [{ data: 1 }, { data: 2, delay: 5 }, { data: 3 }] } } });
    const out = await serveStub({ method: "GET", url: "/stubs/live/sse/count", headers: {}, rawBody: "", requestId: "r1" });
    expect(out.stream).toBeDefined();
    const { s, chunks } = sink();
    await out.stream!(s as StubStreamSink);
    expect(chunks).toEqual(["data: 1\n\n", "data: 2\n\n", "data: 3\n\n"]);
  });

  it("a chain without delays is sent whole, in one body with its length", async () => {
    await stub.save({ sse: { eventPath: "/sse/burst" }, response: { sseEventChain: { events: [{ eventName: "a", data: { n: 1 } }, { data: "two" }] } } });
    const out = await serveStub({ method: "GET", url: "/stubs/live/sse/burst", headers: {}, rawBody: "", requestId: "r3" });
    expect(out.stream).toBeUndefined();
    expect(out.headers["Content-Type"]).toBe("text/event-stream");
    expect(out.body).toBe('event: a\ndata: {"n":1}\n\ndata: two\n\n');
  });

  it("stops at once when the client goes away, even in a long delay", async () => {
    await stub.save({ sse: { eventPath: "/sse/slow" }, response: { sseEventChain: { events: [{ data: "first" }, { data: "never", delay: 600_000 }] } } });
    const out = await serveStub({ method: "GET", url: "/stubs/live/sse/slow", headers: {}, rawBody: "", requestId: "r2" });
    const { s, chunks, leave } = sink();
    const done = out.stream!(s as StubStreamSink);
    await new Promise((r) => setImmediate(r));
    expect(chunks).toEqual(["data: first\n\n"]);
    leave();
    // Resolves well before the 600 s delay: the pending timer was aborted.
    await done;
    expect(chunks).toEqual(["data: first\n\n"]);
  });

  it("a real client that disconnects mid-stream ends the server's stream", async () => {
    await stub.save({ sse: { eventPath: "/sse/forever" }, response: { sseEventChain: { events: [{ eventName: "a", data: "x" }, { data: "late", delay: 600_000 }] } } });
    const ended = new Promise<void>((resolve) => {
      stub.server.prependOnceListener("request", (_req, res) => res.once("close", () => resolve()));
    });
    const got = await collect(`${stub.origin}/stubs/live/sse/forever`, 1, ["a"]);
    expect(got).toEqual([{ type: "a", data: "x" }]);
    await ended;
  });
});

describe("SSE chain controls and event fields (the clients' sseEventChain)", () => {
  /** The whole stream as the bytes arrive, read to its end (the server closes it). */
  const readStream = async (path: string) => (await fetch(`${stub.origin}/stubs/live${path}`, { headers: { Accept: "text/event-stream" } })).text();
  const dataLines = (raw: string) => raw.split("\n").filter((l) => l.startsWith("data: "));

  it("writes id: and retry: fields; EventSource reports the id as lastEventId; data: null is an empty data line", async () => {
    await stub.save({ sse: { eventPath: "/ids", description: "ids and retry" }, response: { sseEventChain: { events: [{ eventName: "a", data: "one", id: "evt-{{$.req.n}}", retry: 2500 }, { data: null, id: "2" }] } } });
    expect(await readStream("/ids?n=1")).toBe("event: a\nid: evt-1\nretry: 2500\ndata: one\n\nid: 2\ndata: \n\n");
    const lastIds = await new Promise<string[]>((resolve, reject) => {
      const es = new EventSource(`${stub.origin}/stubs/live/ids?n=7`);
      const ids: string[] = [];
      const take = (e: MessageEvent) => {
        ids.push(e.lastEventId);
        if (ids.length === 2) {
          es.close();
          resolve(ids);
        }
      };
      es.addEventListener("a", take);
      es.addEventListener("message", take);
      es.onerror = () => es.readyState === EventSource.CLOSED && reject(new Error("EventSource failed"));
    });
    expect(lastIds).toEqual(["evt-7", "2"]);
  });

  it("loop repeats the chain maxLoops times, loopDelay apart, then ends the stream", async () => {
    await stub.save({ sse: { eventPath: "/loop" }, response: { sseEventChain: { events: [{ data: "a" }, { data: "b" }], loop: true, loopDelay: 100, maxLoops: 3 } } });
    expect(dataLines(await readStream("/loop"))).toEqual(["data: a", "data: b", "data: a", "data: b", "data: a", "data: b"]);
  });

  it("heartbeat sends `:` comment lines while the stream waits", async () => {
    await stub.save({ sse: { eventPath: "/beat" }, response: { sseEventChain: { events: [{ data: "late", delay: 350 }], heartbeat: 100 } } });
    const raw = await readStream("/beat");
    // Timers fire in due order: the 100 ms heartbeat comes before the 350 ms event.
    expect(raw.startsWith(":\n\n")).toBe(true);
    expect(raw.endsWith("data: late\n\n")).toBe(true);
  });

  it("maxTime (seconds) ends the stream whatever is left, also a looping chain", async () => {
    await stub.save({ sse: { eventPath: "/bounded" }, response: { sseEventChain: { events: [{ data: "first" }, { data: "never", delay: 5000 }], maxTime: 1 } } });
    expect(dataLines(await readStream("/bounded"))).toEqual(["data: first"]);
    await stub.save({ sse: { eventPath: "/forever" }, response: { sseEventChain: { events: [{ data: "x", delay: 2000 }], loop: true, loopDelay: 100, maxLoops: 1_000_000, maxTime: 1 } } });
    expect(dataLines(await readStream("/forever"))).toEqual([]);
  });

  it("templatePath: an event's data is an uploaded template file, rendered like payloadTemplatePath", async () => {
    await saveTemplate(stub.scope, "tick.txt", { bytes: Buffer.from("price of {{$.req.symbol}}"), contentType: "text/plain" });
    invalidateAll();
    await stub.save({ sse: { eventPath: "/from-file" }, response: { sseEventChain: { events: [{ eventName: "tick", templatePath: "tick.txt" }, { data: "inline" }] } } });
    expect(await readStream("/from-file?symbol=ACME")).toBe("event: tick\ndata: price of ACME\n\ndata: inline\n\n");
  });
});
