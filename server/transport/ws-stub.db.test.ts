// WebSocket mocks served to the `ws` client over a real socket, through an
// in-process node:http server wired like server.ts (handleStubUpgrade on
// 'upgrade', handleStubRequest for plain stub calls).
import { once } from "node:events";
import { request, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { db } from "@/server/db/client";
import { invalidateAll } from "@/server/serving/mock-index";
import { createMockFromUndefinedRequest } from "@/server/services/undefined-requests";
import { useStubServer } from "@/server/testing/stub-server";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { stubRecorder } from "@/server/serving/recorder";
import { closeStubSockets, SOCKET_LIMITS, sweepStubSockets } from "./ws-stub";

useTestDatabase();

const clients: WebSocket[] = [];

const stub = useStubServer("rt", { requestId: "ws-test-request", webSockets: true, beforeClose: () => clients.forEach((c) => c.terminate()) });
const wsOrigin = () => stub.origin.replace(/^http/, "ws");

/** A connected client whose incoming text frames queue up for `next()`. */
async function connect(path: string, options?: WebSocket.ClientOptions) {
  const ws = new WebSocket(`${wsOrigin()}${path}`, options);
  clients.push(ws);
  const inbox: string[] = [];
  const waiting: ((s: string) => void)[] = [];
  ws.on("message", (data) => {
    const text = data.toString();
    const w = waiting.shift();
    if (w) w(text);
    else inbox.push(text);
  });
  await once(ws, "open");
  return {
    ws,
    send: (message: unknown) => ws.send(typeof message === "string" ? message : JSON.stringify(message)),
    next: () => (inbox.length > 0 ? Promise.resolve(inbox.shift()!) : new Promise<string>((r) => waiting.push(r))),
  };
}

/** The HTTP answer to an upgrade that is refused. */
function refused(path: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${wsOrigin()}${path}`);
    ws.on("open", () => reject(new Error("the upgrade was accepted")));
    ws.on("error", () => {});
    ws.on("unexpected-response", (_req, res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
    });
  });
}

describe("WebSocket mocks with a real ws client", () => {
  it("answers {event, data} messages with the configured payload as is, raw text by the 'message' event, and logs each hit", async () => {
    const { mock } = await stub.save({ socket: { serverName: "chat", event: "join" }, response: { payload: { joined: true, room: "lobby" } } });
    await stub.save({ socket: { serverName: "chat", event: "message" }, response: { payload: "pong" } });
    const c = await connect("/stubs/rt/chat");
    c.send({ event: "join", data: { user: "ann" } });
    expect(JSON.parse(await c.next())).toEqual({ joined: true, room: "lobby" });
    c.send("ping");
    expect(await c.next()).toBe("pong");
    // JSON without an event is a "message" too.
    c.send({ hello: 1 });
    expect(await c.next()).toBe("pong");
    c.send({ event: "join" });
    expect(JSON.parse(await c.next())).toEqual({ joined: true, room: "lobby" });
    await stubRecorder().drain();
    const logs = await db().requestLog.findMany({ where: { mockId: mock.id }, orderBy: { id: "asc" } });
    expect(logs).toHaveLength(2);
    expect(logs[0]).toMatchObject({ method: "join", url: "/chat", status: 200, body: { user: "ann" } });
  });

  it("conditions over the message data choose among several mocks of one event", async () => {
    await stub.save({ socket: { serverName: "market", event: "subscribe", conditions: [{ path: "$.channel", assertAction: "equals", value: "prices" }] }, response: { payload: { channel: "prices", ok: true } } });
    await stub.save({ socket: { serverName: "market", event: "subscribe", conditions: [{ path: "$.channel", assertAction: "equals", value: "news" }] }, response: { payload: { channel: "news", ok: true } } });
    await stub.save({ socket: { serverName: "market", event: "subscribe" }, response: { payload: { ok: false, reason: "unknown channel" } } });
    // Same serverName, event and conditions: a duplicate; another event is not.
    await expect(stub.save({ socket: { serverName: "market", event: "subscribe" }, response: { payload: 1 } })).rejects.toMatchObject({ code: "duplicate_entity" });
    await stub.save({ socket: { serverName: "market", event: "unsubscribe" }, response: { payload: 1 } });
    const c = await connect("/stubs/rt/market");
    c.send({ event: "subscribe", data: { channel: "news" } });
    expect(JSON.parse(await c.next())).toEqual({ channel: "news", ok: true });
    c.send({ event: "subscribe", data: { channel: "prices" } });
    expect(JSON.parse(await c.next())).toEqual({ channel: "prices", ok: true });
    c.send({ event: "subscribe", data: { channel: "weather" } });
    expect(JSON.parse(await c.next())).toEqual({ ok: false, reason: "unknown channel" });
  });

  it("renders templates ($.req = the data, query, headers, path parameters, fake values), honours delay and oneOf, and pushes a chain of events", async () => {
    await stub.save({
      socket: { serverName: "rooms/:room", event: "echo" },
      response: { delay: 20, payload: { room: "$.pathParam.room", text: "$.req.text", token: "$.queryParams.token", agent: "$.reqHeader.x-agent[0]", id: "$.fake.UUID" } },
    });
    await stub.save({ socket: { serverName: "rooms/:room", event: "roll" }, oneOf: { order: "order", responses: [{ payload: "one" }, { payload: "two" }] } });
    await stub.save({ socket: { serverName: "rooms/:room", event: "watch" }, response: { payload: "watching", sseEventChain: { events: [{ data: { n: 1 } }, { data: { n: 2 }, delay: 5 }] } } });
    const c = await connect("/stubs/rt/rooms/blue?token=abc", { headers: { "X-Agent": "tester" } });
    c.send({ event: "echo", data: { text: "hi" } });
    const echoed = JSON.parse(await c.next());
    expect(echoed).toMatchObject({ room: "blue", text: "hi", token: "abc", agent: "tester" });
    expect(echoed.id).toMatch(/^[0-9a-f]{8}-/);
    c.send({ event: "roll" });
    c.send({ event: "roll" });
    expect([await c.next(), await c.next()]).toEqual(["one", "two"]);
    c.send({ event: "watch" });
    expect([await c.next(), await c.next(), await c.next()]).toEqual(["watching", '{"n":1}', '{"n":2}']);
  });

  it("an unmatched message gets an error frame and is captured as an undefined socket request; the connection stays open", async () => {
    await stub.save({ socket: { serverName: "desk", event: "hello" }, response: { payload: "hi" } });
    const c = await connect("/stubs/rt/desk");
    c.send({ event: "unknown-event", data: { a: 1 } });
    const error = JSON.parse(await c.next());
    expect(error).toMatchObject({ code: "not_found", details: { namespace: "rt", path: "/desk", event: "unknown-event" } });
    expect(error.error).toMatch(/No mock matches event 'unknown-event'/);
    expect(error.details.nearest[0]).toMatchObject({ method: "hello", route: "/desk" });
    c.send({ event: "hello" });
    expect(await c.next()).toBe("hi");
    await stubRecorder().drain();
    const captured = await db().undefinedRequest.findMany({ where: { namespaceId: stub.scope.id, protocol: "socket", path: { startsWith: "/desk" } } });
    expect(captured).toHaveLength(1);
    expect(captured[0]).toMatchObject({ method: "MESSAGE", path: "/desk unknown-event", body: { a: 1 } });

    // The captured message becomes a socket mock for its path and event.
    await createMockFromUndefinedRequest(stub.actor, stub.scope, captured[0].id, { response: { payload: { now: "known" } } });
    invalidateAll();
    c.send({ event: "unknown-event" });
    expect(JSON.parse(await c.next())).toEqual({ now: "known" });
  });

  it("a connection to a path without socket mocks is refused with a 404 and captured; other upgrades are refused cleanly", async () => {
    const none = await refused("/stubs/rt/nowhere");
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ code: "not_found", details: { namespace: "rt", path: "/nowhere" } });
    await stubRecorder().drain();
    const captured = await db().undefinedRequest.findMany({ where: { namespaceId: stub.scope.id, path: "/nowhere" } });
    expect(captured).toHaveLength(1);
    expect(captured[0]).toMatchObject({ protocol: "socket", method: "CONNECT" });

    expect((await refused("/stubs/no-such-namespace/chat")).status).toBe(404);
    expect((await refused("/api/v1/anything")).status).toBe(404);
  });

  it("bad input: malformed JSON is raw text, an oversized message closes with 1009, neither is a server error", async () => {
    await stub.save({ socket: { serverName: "strict", event: "message", conditions: [{ path: "$", assertAction: "equals", value: "{oops" }] }, response: { payload: "got raw text" } });
    const c = await connect("/stubs/rt/strict");
    c.send("{oops");
    expect(await c.next()).toBe("got raw text");
    c.send("x".repeat(SOCKET_LIMITS.maxMessageBytes + 1));
    const [code] = (await once(c.ws, "close")) as [number];
    expect(code).toBe(1009);

    // A handshake without its key is refused by ws with a 400, not a crash.
    const { port } = stub.server.address() as AddressInfo;
    const res = await new Promise<IncomingMessage>((resolve, reject) =>
      request({ port, host: "127.0.0.1", path: "/stubs/rt/strict", headers: { Connection: "Upgrade", Upgrade: "websocket" } }).on("response", resolve).on("error", reject).end(),
    );
    expect(res.statusCode).toBe(400);
    res.resume();
  });

  it("keepalive: a client that answers pings stays, one that does not is dropped", async () => {
    await stub.save({ socket: { serverName: "beat" }, response: { payload: "ok" } });
    const good = await connect("/stubs/rt/beat");
    const silent = await connect("/stubs/rt/beat", { autoPong: false });
    const pinged = once(good.ws, "ping");
    sweepStubSockets();
    await pinged;
    // Let the good client's pong arrive before the next round.
    good.send("still here");
    expect(await good.next()).toBe("ok");
    const dropped = once(silent.ws, "close");
    sweepStubSockets();
    await dropped;
    expect(good.ws.readyState).toBe(WebSocket.OPEN);
  });

  it("shutdown closes every open socket with 1001 and refuses new upgrades", async () => {
    await stub.save({ socket: { serverName: "bye" }, response: { payload: "ok" } });
    const c = await connect("/stubs/rt/bye");
    const closed = once(c.ws, "close");
    await closeStubSockets();
    const [code] = (await closed) as [number];
    expect(code).toBe(1001);
    expect((await refused("/stubs/rt/bye")).status).toBe(503);
  });
});
