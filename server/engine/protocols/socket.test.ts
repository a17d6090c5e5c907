import { describe, expect, it } from "vitest";
import { MockInput, type MockDefinition } from "@/server/contracts/mock";
import { buildNamespace, handle } from "../engine";
import { compileRoute, routeFits } from "../route";
import { memoryDeps } from "../testing";
import { parseSocketMessage, placeSocket, socketReply } from "./socket";

let seq = 0;
function mock(input: Record<string, unknown>): { mock: MockDefinition; sequence: number; createdAt: number } {
  const parsed = MockInput.parse({ id: `ws${seq}`, ...input });
  return { mock: { ...parsed, id: parsed.id!, namespace: "sandbox" }, sequence: seq++, createdAt: 0 };
}

describe("socket placement", () => {
  it("routes at the serverName (pathPrefix does not apply) with the event as selector", () => {
    expect(placeSocket(mock({ pathPrefix: "/api", socket: { serverName: "chat", event: "join" } }).mock)).toMatchObject({ route: "/chat", selector: "join" });
    expect(placeSocket(mock({ socket: { serverName: "/rooms/:id" } }).mock)).toMatchObject({ route: "/rooms/:id", selector: null });
  });
});

describe("parseSocketMessage", () => {
  it("takes event and data from an {event, data} object", () => {
    expect(parseSocketMessage('{"event":"join","data":{"room":1}}')).toEqual({ event: "join", body: { room: 1 } });
    expect(parseSocketMessage('{"event":"ping"}')).toEqual({ event: "ping", body: undefined });
  });
  it("treats other JSON and other text as the 'message' event", () => {
    expect(parseSocketMessage('{"a":1}')).toEqual({ event: "message", body: { a: 1 } });
    expect(parseSocketMessage('{"event":5}')).toEqual({ event: "message", body: { event: 5 } });
    expect(parseSocketMessage('{"event":""}')).toEqual({ event: "message", body: { event: "" } });
    expect(parseSocketMessage("[1,2]")).toEqual({ event: "message", body: [1, 2] });
    expect(parseSocketMessage("42")).toEqual({ event: "message", body: 42 });
    expect(parseSocketMessage("hello")).toEqual({ event: "message", body: "hello" });
    expect(parseSocketMessage("{broken")).toEqual({ event: "message", body: "{broken" });
    expect(parseSocketMessage("")).toEqual({ event: "message", body: "" });
  });
});

describe("socketReply", () => {
  it("sends the payload as configured: strings as is, other values as JSON, nothing for no payload", () => {
    expect(socketReply("pong")).toBe("pong");
    expect(socketReply({ a: [1] })).toBe('{"a":[1]}');
    expect(socketReply(0)).toBe("0");
    expect(socketReply(null)).toBe("null");
    expect(socketReply(undefined)).toBeUndefined();
  });
});

describe("routeFits", () => {
  it("matches literal, parameter and rest segments whatever the event", () => {
    expect(routeFits(compileRoute("/chat"), "/chat")).toBe(true);
    expect(routeFits(compileRoute("/chat"), "/chat/x")).toBe(false);
    expect(routeFits(compileRoute("/rooms/:id"), "/rooms/7")).toBe(true);
    expect(routeFits(compileRoute("/rooms/:id"), "/rooms")).toBe(false);
    expect(routeFits(compileRoute("/feeds/*"), "/feeds/a/b")).toBe(true);
    expect(routeFits(compileRoute("/feeds/*"), "/feeds")).toBe(false);
    expect(routeFits(compileRoute("/a%20b"), "/a%20b")).toBe(true);
  });
});

describe("socket messages through the engine", () => {
  it("selects by event, then by conditions over the data; a mock without event takes any (as a fallback when its priority is lower)", async () => {
    const ns = buildNamespace("sandbox", [
      mock({ socket: { serverName: "s", event: "sub", conditions: [{ path: "$.ch", assertAction: "equals", value: "a" }] }, response: { payload: "A" } }),
      mock({ socket: { serverName: "s", event: "sub" }, response: { payload: "any sub" } }),
      // Like an HTTP mock without a method, a mock without an event competes by priority, conditions and age.
      mock({ priority: -1, socket: { serverName: "s" }, response: { payload: "anything" } }),
    ]);
    const send = async (text: string) => {
      const m = parseSocketMessage(text);
      const r = await handle(ns, { namespace: "sandbox", method: m.event, path: "/s", headers: {}, query: {}, body: m.body }, memoryDeps(), "socket");
      return r.matched ? r.response.body : null;
    };
    expect(await send('{"event":"sub","data":{"ch":"a"}}')).toBe("A");
    expect(await send('{"event":"sub","data":{"ch":"b"}}')).toBe("any sub");
    expect(await send("raw")).toBe("anything");
  });
});
