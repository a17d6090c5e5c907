// The front (server.ts's node:http server) on a real socket, sent real
// clients' bytes: Java's h2c offer, bodies a handler refuses before reading
// them, oversized headers, broken percent-encoding and JSON. Stub traffic is
// served for real; everything else goes through the real Next proxy to a
// stand-in of the Next.js process that runs the real route modules.
import { execFile } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import * as unknownApi from "@/app/api/v1/[...path]/route";
import * as meRoute from "@/app/api/v1/auth/me/route";
import * as mocksRoute from "@/app/api/v1/mocks/route";
import * as tagsRoute from "@/app/api/v1/tags/route";
import * as unknownHealth from "@/app/health/[...path]/route";
import * as healthRoute from "@/app/health/route";
import * as unknownSwagger from "@/app/swagger/[...path]/route";
import { MockInput } from "@/server/contracts/mock";
import { db } from "@/server/db/client";
import { resetEnvCache } from "@/server/env";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { saveMock } from "@/server/services/mocks";
import { resolveNamespace } from "@/server/services/namespace-access";
import { actorFor, makeNamespace, makeToken, makeUser } from "@/server/testing/fixtures";
import { startNextStandIn } from "@/server/testing/next-stand-in";
import { RawConnection, rawRequest } from "@/server/testing/raw-http";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { createFrontServer } from "./front";
import { createNextProxy, type NextProxy } from "./next-proxy";
import { stubRecorder } from "@/server/serving/recorder";
import { closeStubSockets } from "./ws-stub";

// Both read once per process: set before the first request.
process.env.STUB_MAX_BODY_BYTES = "100000";
process.env.MAX_BODY_BYTES = "500000";
resetEnvCache();

useTestDatabase();

const NS = "frontwire";
const BIG = 600 * 1024;
let standIn: Awaited<ReturnType<typeof startNextStandIn>>;
let proxy: NextProxy;
let front: http.Server;
let port = 0;
let token = "";

/** The request line and headers Java 17's java.net.http.HttpClient sends for a GET on plain HTTP. */
function javaGet(path: string, extra = "") {
  return (
    `GET ${path} HTTP/1.1\r\nConnection: Upgrade, HTTP2-Settings\r\nContent-Length: 0\r\nHost: 127.0.0.1:${port}\r\n` +
    `HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nUpgrade: h2c\r\nUser-Agent: Java-http-client/17.0.15\r\n${extra}\r\n`
  );
}

beforeAll(async () => {
  const { user } = await makeUser();
  await makeNamespace(NS, { [user.id]: "owner" });
  token = await makeToken(user);
  const scope = await resolveNamespace(actorFor(user), NS);
  await saveMock(actorFor(user), scope, MockInput.parse({ http: { route: "/hello", httpMethod: "GET" }, response: { payload: { hi: "there" } } }));
  await saveMock(actorFor(user), scope, MockInput.parse({ http: { route: "/upload", httpMethod: "POST" }, response: { payload: { stored: true } } }));
  await saveMock(actorFor(user), scope, MockInput.parse({ socket: { serverName: "chat", event: "message" }, response: { payload: "pong" } }));
  invalidateAll();
  standIn = await startNextStandIn([
    { pattern: "/api/v1/auth/me", module: meRoute },
    { pattern: "/api/v1/mocks", module: mocksRoute },
    { pattern: "/api/v1/tags", module: tagsRoute },
    { pattern: "/api/v1/[...path]", module: unknownApi },
    { pattern: "/health", module: healthRoute },
    { pattern: "/health/[...path]", module: unknownHealth },
    { pattern: "/swagger/[...path]", module: unknownSwagger },
  ]);
  proxy = createNextProxy(standIn.socketPath);
  front = createFrontServer(proxy);
  await new Promise<void>((resolve) => front.listen(0, "127.0.0.1", resolve));
  port = (front.address() as AddressInfo).port;
});

afterAll(async () => {
  await closeStubSockets(100);
  front.closeAllConnections();
  await new Promise((r) => front.close(r));
  proxy.close();
  await standIn.close();
  await stubRecorder().drain();
  await stopListening();
  invalidateAll();
});

describe("an h2c upgrade offer (Java's HttpClient) is answered as HTTP/1.1", () => {
  it("serves a stub, twice on the same connection", async () => {
    const conn = new RawConnection(port);
    await conn.send(javaGet(`/stubs/${NS}/hello`));
    const first = await conn.next();
    expect(first?.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(first!.body)).toEqual({ hi: "there" });
    await conn.send(javaGet(`/stubs/${NS}/hello`));
    const second = await conn.next();
    expect(second?.status).toBe(200);
    expect(JSON.parse(second!.body)).toEqual({ hi: "there" });
    conn.close();
  });

  it("serves /api/v1 through the Next proxy without passing the Upgrade or HTTP2-Settings on", async () => {
    const res = await rawRequest(port, javaGet("/api/v1/auth/me", `X-API-Key: ${token}\r\n`));
    expect(res?.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(res!.body).username).toMatch(/^user/);
    const seen = standIn.seen.findLast((s) => s.url === "/api/v1/auth/me")!;
    expect(seen.headers.upgrade).toBeUndefined();
    expect(seen.headers["http2-settings"]).toBeUndefined();
    expect(seen.headers.connection).not.toMatch(/upgrade/i);
  });

  it("serves /health", async () => {
    const res = await rawRequest(port, javaGet("/health"));
    expect(res?.head).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(res!.body)).toMatchObject({ status: "up", checks: { database: { status: "up" } } });
  });

  it("answers Java 17's own HttpClient on a stub, /api/v1 and /health, over HTTP/1.1", async () => {
    const origin = `http://127.0.0.1:${port}`;
    const { stdout } = await promisify(execFile)("java", ["server/testing/java/HttpClientProbe.java", `${origin}/stubs/${NS}/hello`, `${origin}/api/v1/auth/me`, `${origin}/health`], {
      env: { ...process.env, PROBE_API_KEY: token },
    });
    const [stub, me, health] = stdout.trim().split("\n");
    expect(stub).toBe('200 HTTP_1_1 {"hi":"there"}');
    expect(me).toMatch(/^200 HTTP_1_1 \{.*"username":"user/);
    expect(health).toMatch(/^200 HTTP_1_1 \{"status":"up"/);
  });

  it("still upgrades a WebSocket handshake: a real ws client talks to a socket mock", async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/stubs/${NS}/chat`);
    await once(ws, "open");
    const reply = once(ws, "message");
    ws.send("ping");
    expect(String((await reply)[0])).toBe("pong");
    ws.close();
  });

  it("still hands a WebSocket handshake to the WebSocket stubs", async () => {
    const res = await rawRequest(
      port,
      `GET /stubs/${NS}/no-socket-here HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`,
    );
    expect(res?.status).toBe(404);
    expect(JSON.parse(res!.body)).toMatchObject({ code: "not_found", details: { namespace: NS, path: "/no-socket-here" } });
  });
});

describe("unknown API paths and methods answer in the error envelope", () => {
  it.each(["/api/v1/no-such-thing", "/api/v1/mocks/abc/nothing/here", "/swagger/doc.jsn", "/health/lve"])("404 not_found for %s", async (path) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, { method: "POST", body: "{}" });
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await res.json();
    expect(body).toMatchObject({ code: "not_found" });
    expect(body.request_id).toBe(res.headers.get("x-request-id"));
  });

  it("405 method_not_allowed with Allow for a known path and a method its route does not export", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1/tags`, { method: "DELETE", headers: { "X-Request-Id": "front-405-request" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, OPTIONS, POST");
    expect(await res.json()).toEqual({
      error: "DELETE is not allowed on /api/v1/tags; allowed: GET, HEAD, OPTIONS, POST",
      code: "method_not_allowed",
      request_id: "front-405-request",
      details: { allow: ["GET", "HEAD", "OPTIONS", "POST"] },
    });
  });
});

/** Sends `first`, reads its answer, then asks GET `then` on the same connection: answered, or closed after announcing it. */
async function thenOnSameConnection(first: Buffer, then: string) {
  const conn = new RawConnection(port);
  void conn.send(first);
  const answer = await conn.next();
  await conn.send(`GET ${then} HTTP/1.1\r\nHost: x\r\n\r\n`);
  const second = await conn.next();
  conn.close();
  if (second === undefined) expect(answer?.headers.connection).toBe("close");
  return { answer, second };
}

function withBody(head: string, size: number) {
  return Buffer.concat([Buffer.from(`${head}Content-Length: ${size}\r\nContent-Type: application/json\r\n\r\n`), Buffer.alloc(size, "a")]);
}

describe("a request refused before its body was read does not hang the connection", () => {
  it("a 600 KB body to /api/v1 without credentials: 401, then the next request is answered", async () => {
    const { answer, second } = await thenOnSameConnection(withBody("PATCH /api/v1/auth/me HTTP/1.1\r\nHost: x\r\n", BIG), "/health");
    expect(answer?.status).toBe(401);
    expect(JSON.parse(answer!.body)).toMatchObject({ code: "unauthorized" });
    if (second) expect(JSON.parse(second.body)).toMatchObject({ status: "up" });
  });

  it("a 600 KB body over MAX_BODY_BYTES: 413, then the next request is answered", async () => {
    const { answer, second } = await thenOnSameConnection(withBody(`POST /api/v1/mocks HTTP/1.1\r\nHost: x\r\nX-API-Key: ${token}\r\nX-Namespace: ${NS}\r\n`, BIG), "/health");
    expect(answer?.status).toBe(413);
    expect(JSON.parse(answer!.body)).toMatchObject({ code: "payload_too_large" });
    if (second) expect(second.status).toBe(200);
  });

  it("a 600 KB body to a stub over STUB_MAX_BODY_BYTES: 413, then the next request is answered or the close was announced", async () => {
    const { answer, second } = await thenOnSameConnection(withBody(`POST /stubs/${NS}/upload HTTP/1.1\r\nHost: x\r\n`, BIG), `/stubs/${NS}/hello`);
    expect(answer?.status).toBe(413);
    expect(JSON.parse(answer!.body)).toMatchObject({ code: "payload_too_large" });
    if (second) expect(JSON.parse(second.body)).toEqual({ hi: "there" });
  });
});

describe("bad input is a 4xx in the error envelope", () => {
  it("malformed percent-encoding in an /api/v1 path: 400, never reaching Next", async () => {
    const before = standIn.seen.length;
    const res = await rawRequest(port, `GET /api/v1/mocks/%zz HTTP/1.1\r\nHost: x\r\nX-API-Key: ${token}\r\n\r\n`);
    expect(res?.status).toBe(400);
    expect(JSON.parse(res!.body)).toMatchObject({ code: "validation", details: [{ location: "path", field: "%zz" }] });
    expect(standIn.seen.length).toBe(before);
  });

  it("an unpaired UTF-16 surrogate in a JSON body: 400 naming the field, nothing stored", async () => {
    const json = '{"http":{"route":"/surrogate","httpMethod":"GET"},"response":{"payload":"\\ud800"}}';
    const res = await rawRequest(
      port,
      `POST /api/v1/mocks HTTP/1.1\r\nHost: x\r\nX-API-Key: ${token}\r\nX-Namespace: ${NS}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json)}\r\n\r\n${json}`,
    );
    expect(res?.status).toBe(400);
    expect(JSON.parse(res!.body)).toMatchObject({ code: "validation", details: [{ location: "body", field: "response.payload", message: "contains an unpaired UTF-16 surrogate" }] });
    expect(await db().mock.count({ where: { route: "/surrogate" } })).toBe(0);
  });

  it("headers over 16 KB: 431 in the envelope", async () => {
    const res = await rawRequest(port, `GET /stubs/${NS}/hello HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(20_000)}\r\n\r\n`);
    expect(res?.status).toBe(431);
    expect(res?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(res!.body)).toMatchObject({ code: "headers_too_large", request_id: expect.any(String) });
  });

  it("a request line node cannot parse: 400 in the envelope", async () => {
    const res = await rawRequest(port, "GET /a b c HTTP/9\r\n\r\n");
    expect(res?.status).toBe(400);
    expect(JSON.parse(res!.body)).toMatchObject({ code: "validation" });
  });
});
