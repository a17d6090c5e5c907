// The socket document → Socket mocks mapping: the fixture's servers and
// events, served by the pure engine as messages parsed like the wire's, and
// documents that are refused with a pointer.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { buildNamespace, handle } from "@/server/engine/engine";
import { parseSocketMessage, socketReply } from "@/server/engine/protocols/socket";
import { memoryDeps } from "@/server/engine/testing";
import { parseDocumentText } from "./document-text";
import { GeneratorInputError } from "./input-error";
import { socketToMocks } from "./socket";

const mockOf = (m: { mock: unknown }) => m.mock as Record<string, any>;
const DOC = parseDocumentText(readFileSync(path.join(__dirname, "__fixtures__", "chat-sockets.yaml"), "utf8"));

/** The reply frames the engine gives a text message on server `server`. */
async function ask(mocks: { mock: unknown }[], server: string, text: string): Promise<string[] | undefined> {
  const ns = buildNamespace("ns", mocks.map((m, i) => ({ mock: { ...MockInput.parse(m.mock), id: (m.mock as { id: string }).id, namespace: "ns" }, sequence: i, createdAt: 0 })));
  expect(ns.rejected).toEqual([]);
  const message = parseSocketMessage(text);
  const res = await handle(ns, { namespace: "ns", method: message.event, path: `/${server}`, headers: {}, query: {}, body: message.body }, memoryDeps(), "socket");
  if (!res.matched) return undefined;
  return [socketReply(res.response.body), ...(res.response.events ?? []).map((e) => socketReply(e.data))].filter((f): f is string => f !== undefined);
}

describe("socketToMocks", () => {
  it("the fixture: one mock per event, conditions from match, priorities that let the specific mock win", async () => {
    const { mocks, warnings } = await socketToMocks(DOC);
    for (const m of mocks) expect(MockInput.safeParse(m.mock).success, m.mock.id).toBe(true);
    expect(mocks.map((m) => [m.mock.id, m.summary])).toEqual([
      ["chat-chat-join-room-lobby", 'chat join (room=lobby) → {"joined":true,"room":"lobby","users":3} (+1 more)'],
      ["chat-chat-join", 'chat join → {"joined":false,"error":"no such room"}'],
      ["chat-chat-say-room-lobby", 'chat say (room=lobby) → {"echo":"$.req.text","from":"$.req.user"}'],
      ["chat-chat-ping", "chat ping → pong"],
      ["chat-chat-any-fallback", 'chat any event → {"error":"unknown event"} [fallback]'],
      ["chat-status-line-connect", "status-line connect → 220 chat status ready"],
      ["chat-status-line-any-message-status", "status-line any event (message=STATUS) → OK 3 users"],
      ["chat-status-line-any-message-quit", "status-line any event (message=QUIT) → BYE"],
      ["chat-chat-typing-user-notempty", "chat typing (user notEmpty) → no reply"],
    ]);
    expect(mocks[0].mock).toMatchObject({
      priority: 2,
      socket: { serverName: "chat", event: "join", conditions: [{ path: "$.room", assertAction: "equals", value: "lobby" }] },
      response: { payload: { joined: true, room: "lobby", users: 3 }, sseEventChain: { events: [{ data: { event: "presence", user: "$.req.user", online: true }, delay: 20 }] } },
    });
    expect(mocks[4].mock.priority).toBe(0);
    expect(mockOf(mocks[6]).socket?.conditions).toEqual([{ path: "$", assertAction: "equals", value: "STATUS" }]);
    expect(warnings).toEqual([{ pointer: "/servers/1", message: 'tcp server "status-line": its mocks answer once the namespace has a tcp protocol server named "status-line" (Protocol servers)' }]);
  });

  it("served by the engine: the matching event and data choose the mock, replies are templated, a chain adds frames", async () => {
    const { mocks } = await socketToMocks(DOC);
    expect(await ask(mocks, "chat", '{"event":"join","data":{"room":"lobby","user":"ann"}}')).toEqual(['{"joined":true,"room":"lobby","users":3}', '{"event":"presence","user":"ann","online":true}']);
    expect(await ask(mocks, "chat", '{"event":"join","data":{"room":"attic"}}')).toEqual(['{"joined":false,"error":"no such room"}']);
    expect(await ask(mocks, "chat", '{"event":"say","data":{"room":"lobby","user":"ann","text":"hi"}}')).toEqual(['{"echo":"hi","from":"ann"}']);
    expect(await ask(mocks, "chat", '{"event":"ping"}')).toEqual(["pong"]);
    expect(await ask(mocks, "chat", '{"event":"dance"}')).toEqual(['{"error":"unknown event"}']);
    expect(await ask(mocks, "status-line", "STATUS")).toEqual(["OK 3 users"]);
    expect(await ask(mocks, "status-line", "HELLO")).toBeUndefined();
  });

  it("a bare list is the events; the request's serverName is the default server, idPrefix and tags apply; pathPrefix is ignored with a warning", async () => {
    const { mocks, warnings } = await socketToMocks([{ event: "ping", reply: "pong" }], { serverName: "feed", idPrefix: "ws", tags: ["gen"], pathPrefix: "/x" });
    expect(mocks).toEqual([{ mock: { id: "ws-feed-ping", socket: { serverName: "feed", event: "ping" }, response: { payload: "pong" }, priority: 1, tags: ["gen"] }, summary: "feed ping → pong" }]);
    expect(warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^pathPrefix does not apply/)]);
  });

  it("the same document gives the same ids; two events that would share an id are told apart", async () => {
    const doc = { events: [{ serverName: "s", event: "e", reply: 1 }, { serverName: "s", event: "e", reply: 2 }] };
    const a = await socketToMocks(doc);
    expect(a.mocks.map((m) => m.mock.id)).toEqual(["socket-s-e", "socket-s-e-2"]);
    expect((await socketToMocks(DOC)).mocks.map((m) => m.mock.id)).toEqual((await socketToMocks(structuredClone(DOC))).mocks.map((m) => m.mock.id));
  });

  it("a WebSocket server's connect event is warned about (only TCP connections are greeted)", async () => {
    const { warnings } = await socketToMocks({ servers: [{ name: "w", protocol: "websocket", events: [{ event: "connect", reply: "hi" }] }] });
    expect(warnings).toEqual([{ pointer: "/servers/0/events/0", message: "a WebSocket connection is not greeted: event connect answers new TCP connections only" }]);
  });

  it.each([
    [{ events: [{ event: "x", reply: 1 }] }, "/events/0"],
    [{ servers: [{ name: "s", events: [{ evnt: "typo" }] }] }, "/servers/0/events/0"],
    [{ servers: [{ name: "s", events: [] }] }, "/servers/0/events"],
    [{ servers: [{ name: "s", protocol: "http", events: [{ reply: 1 }] }] }, "/servers/0/protocol"],
    [{ events: [{ serverName: "s", delay: -1 }] }, "/events/0/delay"],
    [{ events: [{ serverName: "s", conditions: [{ path: "$.a", assertAction: "near" }] }] }, "/events/0/conditions/0/assertAction"],
    [{ events: [] }, "/events"],
    [{ title: "nothing" }, "/events"],
    ["just text", ""],
  ])("a document it cannot read is refused with where: %j", async (doc, pointer) => {
    const err = await socketToMocks(doc).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GeneratorInputError);
    expect((err as GeneratorInputError).location.pointer, (err as Error).message).toBe(pointer);
  });
});
