// The HAR and socket generators' routes against a real database and real
// servers: every entry of the HAR fixture, replayed over HTTP against the
// generated stubs, gets its recorded answer (status, body bytes,
// Content-Type); the socket fixture's mocks answer a real `ws` client at
// /stubs/<ns>/chat and a TCP client of the protocol runner's listener; bad
// documents are 400s with a JSON pointer.
import { once } from "node:events";
import { readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import * as harRoute from "@/app/api/v1/generators/har/route";
import * as harPreviewRoute from "@/app/api/v1/generators/har/preview/route";
import * as socketRoute from "@/app/api/v1/generators/socket/route";
import * as socketPreviewRoute from "@/app/api/v1/generators/socket/preview/route";
import { CreateProtocolServerInput } from "@/server/contracts/protocol-servers";
import { db } from "@/server/db/client";
import { invalidateAll } from "@/server/serving/mock-index";
import { createProtocolServer, getProtocolServer } from "@/server/services/protocol-servers";
import { call, sessionCookie } from "@/server/testing/fixtures";
import { useStubServer } from "@/server/testing/stub-server";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { startRunner, type Runner } from "@/protocol-runner/reconciler";
import { socketModule } from "@/protocol-runner/socket/socket-module";
import { freePort, until } from "@/protocol-runner/testing";

useTestDatabase();
const NS = "rec";
const clients: { terminate(): void }[] = [];
const stub = useStubServer(NS, { webSockets: true, beforeClose: () => clients.forEach((c) => c.terminate()) });
const fixture = (name: string) => readFileSync(path.join(__dirname, "../generators/__fixtures__", name), "utf8");
const HAR_TEXT = fixture("tasks-api.har");
const HAR = JSON.parse(HAR_TEXT);
let cookie: string;
let runner: Runner;

beforeAll(async () => {
  cookie = await sessionCookie(stub.actor.user.id);
  runner = await startRunner([socketModule("127.0.0.1")], { retryMs: 300 });
});
afterAll(async () => {
  await runner?.stop();
});

const post = (route: { POST: Parameters<typeof call>[0] }, kind: string, body: unknown) => call(route.POST, `/api/v1/generators/${kind}?namespace=${NS}`, { method: "POST", cookie, body });
const stored = () => db().mock.count({ where: { namespace: { name: NS }, deletedAt: null } });

/** One request over a real socket; the answer's status, raw body bytes and headers. */
function send(method: string, url: string, headers: Record<string, string | string[]>, body?: string): Promise<{ status: number; body: Buffer; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks), headers: res.headers }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("POST /api/v1/generators/har", () => {
  it("preview lists a mock per distinct request with the warnings, and saves nothing", async () => {
    const res = await post(harPreviewRoute, "har/preview", { document: HAR_TEXT });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 17, updated: 0, skipped: 0 });
    expect(res.body.mocks.every((m: { status: string; protocol: string }) => m.status === "new" && m.protocol === "http")).toBe(true);
    expect(res.body.warnings.map((w: { pointer?: string }) => w.pointer)).toContain("/log/entries/18");
    expect(await stored()).toBe(0);
  });

  it("generates the mocks; every recorded entry replayed over HTTP gets its recorded answer: status, body bytes, Content-Type", async () => {
    const res = await post(harRoute, "har", { document: HAR, pathPrefix: "/rec" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.created).toBe(17);
    expect(await stored()).toBe(17);
    invalidateAll();

    let replayed = 0;
    for (const [i, e] of (HAR.log.entries as any[]).entries()) {
      if (e.response.status === 0) continue;
      const url = new URL(e.request.url);
      const headers: Record<string, string[]> = {};
      for (const h of e.request.headers) if (!h.name.startsWith(":") && !["host", "content-length", "connection"].includes(h.name.toLowerCase())) (headers[h.name] ??= []).push(h.value);
      const answer = await send(e.request.method, `${stub.base}/rec${url.pathname}${url.search}`, headers, e.request.postData?.text);
      const what = `entry ${i}: ${e.request.method} ${url.pathname}${url.search} → ${answer.body.toString().slice(0, 200)}`;
      expect(answer.status, what).toBe(e.response.status);
      const recorded = Buffer.from(e.response.content.text ?? "", e.response.content.encoding === "base64" ? "base64" : "utf8");
      expect(answer.body.equals(recorded), what).toBe(true);
      const type = e.response.headers.find((h: { name: string }) => h.name.toLowerCase() === "content-type")?.value;
      if (type) expect(answer.headers["content-type"], what).toBe(type);
      replayed++;
    }
    expect(replayed).toBe(19);
  });

  it("a second run of the same recording changes nothing", async () => {
    const again = await post(harRoute, "har", { document: HAR, pathPrefix: "/rec" });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ created: 0, updated: 0, skipped: 17 });
  });

  it.each([
    [{ document: '{"log": {"entries": [{"request": {"method": "GET"}}]}}' }, { pointer: "/log/entries/0/request/url" }],
    [{ document: '{"log": {"entries": [' }, { line: 1, column: 22 }],
    [{ document: { log: { entries: [] } } }, { pointer: "/log/entries" }],
  ])("a recording it cannot read is a 400 that says where: %j", async (body, where) => {
    const res = await post(harPreviewRoute, "har/preview", body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details[0]).toMatchObject({ field: "document", ...where });
  });
});

describe("POST /api/v1/generators/socket", () => {
  const SOCKETS = fixture("chat-sockets.yaml");

  /** A ws client whose text frames queue up for next(). */
  async function connect(url: string) {
    const ws = new WebSocket(url);
    clients.push(ws);
    const inbox: string[] = [];
    const waiting: ((s: string) => void)[] = [];
    ws.on("message", (data) => {
      const w = waiting.shift();
      if (w) w(data.toString());
      else inbox.push(data.toString());
    });
    await once(ws, "open");
    return { send: (m: unknown) => ws.send(JSON.stringify(m)), next: () => (inbox.length ? Promise.resolve(inbox.shift()!) : new Promise<string>((r) => waiting.push(r))) };
  }

  it("preview shows one socket mock per event; generating saves them", async () => {
    const preview = await post(socketPreviewRoute, "socket/preview", { document: SOCKETS });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.body.mocks.map((m: { protocol: string }) => m.protocol)).toEqual(Array(9).fill("socket"));
    const res = await post(socketRoute, "socket", { document: SOCKETS });
    expect(res.status, res.text).toBe(200);
    expect(res.body.created).toBe(9);
    invalidateAll();
  });

  it("a real WebSocket client at /stubs/<ns>/chat gets the replies: conditions choose, templates fill in, a chain adds frames", async () => {
    const c = await connect(`${stub.origin.replace(/^http/, "ws")}/stubs/${NS}/chat`);
    c.send({ event: "join", data: { room: "lobby", user: "ann" } });
    expect(JSON.parse(await c.next())).toEqual({ joined: true, room: "lobby", users: 3 });
    expect(JSON.parse(await c.next())).toEqual({ event: "presence", user: "ann", online: true });
    c.send({ event: "join", data: { room: "attic" } });
    expect(JSON.parse(await c.next())).toEqual({ joined: false, error: "no such room" });
    c.send({ event: "say", data: { room: "lobby", user: "ann", text: "hello" } });
    expect(JSON.parse(await c.next())).toEqual({ echo: "hello", from: "ann" });
    c.send({ event: "ping" });
    expect(await c.next()).toBe("pong");
    c.send({ event: "dance" });
    expect(JSON.parse(await c.next())).toEqual({ error: "unknown event" });
  });

  it("the TCP server of the document, once it exists as a protocol server, greets and answers a real TCP client", async () => {
    const port = await freePort("tcp");
    const created = await createProtocolServer(stub.scope, CreateProtocolServerInput.parse({ name: "status-line", protocol: "tcp", host: "127.0.0.1", port, options: { framing: "newline" } }));
    await until(async () => (await getProtocolServer(stub.scope, created.id)).state === "listening", "status-line listening");
    const socket = net.connect(port, "127.0.0.1");
    clients.push({ terminate: () => socket.destroy() });
    let received = "";
    socket.on("data", (d: Buffer) => (received += d.toString()));
    const line = async (n: number) => until(async () => received.split("\n").length > n && received.split("\n")[n - 1], `line ${n}`);
    expect(await line(1)).toBe("220 chat status ready");
    socket.write("STATUS\n");
    expect(await line(2)).toBe("OK 3 users");
    socket.write("QUIT\n");
    expect(await line(3)).toBe("BYE");
  });

  it.each([
    [{ document: "servers:\n  - name: chat\n    events:\n      - evnt: join\n" }, "/servers/0/events/0"],
    [{ document: { events: [{ event: "ping", reply: "pong" }] } }, "/events/0"],
    [{ document: { servers: [{ name: "s", protocol: "http", events: [{ reply: 1 }] }] } }, "/servers/0/protocol"],
  ])("a document it cannot read is a 400 with a pointer: %j", async (body, pointer) => {
    const res = await post(socketPreviewRoute, "socket/preview", body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.details[0]).toMatchObject({ field: "document", pointer });
  });
});
