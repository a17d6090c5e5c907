// The lean stub layer (lean-stub-wire.ts) on real sockets: it answers what
// node:http would answer, byte for byte but Date and the request id, and it
// hands every request it does not take to node:http with its bytes intact,
// in order, on the same connection.
import { execFile } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { stubRecorder } from "@/server/serving/recorder";
import { saveMock } from "@/server/services/mocks";
import { resolveNamespace } from "@/server/services/namespace-access";
import { actorFor, makeNamespace, makeUser } from "@/server/testing/fixtures";
import { RawConnection } from "@/server/testing/raw-http";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { headerLists } from "./header-lists";
import { newRequestId } from "@/server/http/request-meta";
import { handleStubRequest } from "./http-stub";
import { parseLeanRequest, serveStubsLean } from "./lean-stub-wire";

useTestDatabase();

const NS = "leanwire";

/** The front's shape: stubs through handleStubRequest, anything else answered "node <method> <url> <body>". */
function frontLike(lean: boolean): http.Server {
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith("/stubs/")) return void handleStubRequest(req, res, newRequestId());
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => res.end(`node ${req.method} ${req.url} ${Buffer.concat(chunks).toString()}`));
  });
  server.keepAliveTimeout = 65_000;
  server.on("upgrade", (req, socket) => socket.end(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: ${req.headers.upgrade}\r\nConnection: Upgrade\r\n\r\nupgraded`));
  if (lean) serveStubsLean(server);
  return server;
}

let lean: http.Server;
let node: http.Server;
let leanPort = 0;
let nodePort = 0;

beforeAll(async () => {
  const { user } = await makeUser();
  await makeNamespace(NS, { [user.id]: "owner" });
  const scope = await resolveNamespace(actorFor(user), NS);
  const save = (m: unknown) => saveMock(actorFor(user), scope, MockInput.parse(m));
  await save({ http: { route: "/hello", httpMethod: "GET" }, response: { payload: { hi: "there" } } });
  await save({ http: { route: "/items/:id", httpMethod: "GET" }, response: { payload: { id: "$.pathParam.id", q: "$.queryParams.q" }, headers: { "X-One": "1", "X-Many": ["a", "b"] } } });
  await save({ http: { route: "/echo", httpMethod: "POST" }, response: { payload: { got: "$.req.name", agent: "$.reqHeader.user-agent[0]", encoding: "$.reqHeader.accept-encoding[0]" } } });
  await save({ http: { route: "/empty", httpMethod: "DELETE" }, response: { statusCode: 204 } });
  await save({ http: { route: "/slow", httpMethod: "GET" }, response: { payload: { slow: true }, delay: 150 } });
  await save({ http: { route: "/text", httpMethod: "GET" }, response: { payload: "plain ünïcode text", headers: { "Content-Type": "text/plain; charset=utf-8" } } });
  await save({ sse: { eventPath: "/events", eventName: "tick" }, response: { sseEventChain: { events: [{ data: { n: 1 } }, { data: { n: 2 }, delay: 30 }] } } });
  // As a recording of a real service keeps them: its framing headers, with the body already whole.
  await save({ http: { route: "/recorded", httpMethod: "GET" }, response: { payload: { recorded: true }, headers: { "Transfer-Encoding": "chunked", Trailer: "X-Checksum", "X-Kept": "yes" } } });
  await save({ sse: { eventPath: "/recorded-events", eventName: "tick" }, response: { headers: { "transfer-encoding": "chunked" }, sseEventChain: { events: [{ data: { n: 1 } }, { data: { n: 2 }, delay: 20 }] } } });
  invalidateAll();
  lean = frontLike(true);
  node = frontLike(false);
  for (const s of [lean, node]) await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  leanPort = (lean.address() as AddressInfo).port;
  nodePort = (node.address() as AddressInfo).port;
});

afterAll(async () => {
  lean.closeAllConnections();
  node.closeAllConnections();
  await Promise.all([lean, node].map((s) => new Promise((r) => s.close(r))));
  await stubRecorder().drain();
  await stopListening();
});

/** Every byte the server sends on one connection for `bytes`, until it has been quiet for `quietMs` or closed. */
async function exchange(port: number, bytes: string | Buffer | (string | Buffer)[], quietMs = 400): Promise<string> {
  const socket = net.connect(port, "127.0.0.1");
  await once(socket, "connect");
  let got = "";
  let timer: NodeJS.Timeout | undefined;
  const done = new Promise<void>((resolve) => {
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(resolve, quietMs);
    };
    socket.on("data", (d) => {
      got += d.toString("latin1");
      arm();
    });
    socket.on("close", () => {
      clearTimeout(timer);
      resolve();
    });
    socket.on("error", () => {});
    arm();
  });
  for (const part of Array.isArray(bytes) ? bytes : [bytes]) {
    socket.write(part);
    if (Array.isArray(bytes)) await new Promise((r) => setTimeout(r, 5));
  }
  await done;
  socket.destroy();
  return got;
}

/** Date and request ids differ between any two answers; everything else must not. */
const normal = (wire: string) =>
  wire
    .replace(/^Date: .*$/gim, "Date: <date>")
    .replace(/^X-Request-Id: .*$/gim, "X-Request-Id: <id>")
    .replace(/"request_id":"[^"]*"/g, '"request_id":"<id>"')
    .replace(/"id":"[0-9a-f-]{36}"/g, '"id":"<uuid>"');

const req = (method: string, path: string, extra = "", body = "") =>
  `${method} /stubs/${NS}${path} HTTP/1.1\r\nHost: example.test\r\nUser-Agent: lean-test/1\r\n${extra}${body ? `Content-Length: ${Buffer.byteLength(body)}\r\n` : ""}\r\n${body}`;

describe("the lean layer answers as node:http does", () => {
  const cases: [string, string | string[]][] = [
    ["a JSON mock", req("GET", "/hello")],
    ["path parameters, query, repeated response headers", req("GET", "/items/42?q=x%20y")],
    ["a POST body and a request header", req("POST", "/echo", "Content-Type: application/json\r\n", JSON.stringify({ name: "Ada" }))],
    ["a 204 without a body or a Content-Length", req("DELETE", "/empty")],
    ["HEAD: the headers with the length, no body", req("HEAD", "/hello")],
    ["a text body in UTF-8", req("GET", "/text")],
    ["an unmatched request: the 404 envelope", req("GET", "/nothing/here")],
    ["a namespace that does not exist", `GET /stubs/no-such-ns-xyz/a HTTP/1.1\r\nHost: x\r\n\r\n`],
    ["a delayed mock, then another on the same connection: in order", req("GET", "/slow") + req("GET", "/hello")],
    ["three pipelined requests in one write", req("GET", "/hello") + req("GET", "/items/7") + req("POST", "/echo", "", '{"name":"B"}')],
    ["a request split over many writes", req("POST", "/echo", "Content-Type: application/json\r\n", '{"name":"split"}').match(/.{1,7}/gs)!],
    ["an SSE chain (chunked, with a delay between events)", req("GET", "/events", "Accept: text/event-stream\r\n")],
    ["Connection: close: the answer says so and the connection ends", req("GET", "/hello", "Connection: close\r\n") + req("GET", "/hello")],
    ["a mock's own Transfer-Encoding and Trailer are dropped: the stub frames the body", req("GET", "/recorded") + req("GET", "/hello")],
    ["an SSE mock's own Transfer-Encoding is dropped too (one chunked framing)", req("GET", "/recorded-events", "Accept: text/event-stream\r\n")],
  ];
  for (const [what, bytes] of cases) {
    it(what, async () => {
      const [a, b] = await Promise.all([exchange(leanPort, bytes), exchange(nodePort, bytes)]);
      expect(a.length).toBeGreaterThan(0);
      expect(normal(a)).toBe(normal(b));
    });
  }
});

describe("a mock's framing headers", () => {
  it("are dropped on both paths: the answer is framed by its Content-Length and a real client reads it", async () => {
    for (const port of [leanPort, nodePort]) {
      const res = await fetch(`http://127.0.0.1:${port}/stubs/${NS}/recorded`);
      expect(res.status).toBe(200);
      expect(res.headers.get("transfer-encoding")).toBeNull();
      expect(res.headers.get("trailer")).toBeNull();
      expect(res.headers.get("content-length")).toBe(String(JSON.stringify({ recorded: true }).length));
      expect(res.headers.get("x-kept")).toBe("yes");
      expect(await res.json()).toEqual({ recorded: true });
    }
    const raw = await exchange(leanPort, req("GET", "/recorded-events", "Accept: text/event-stream\r\n"));
    expect(raw.match(/transfer-encoding/gi)).toEqual(["Transfer-Encoding"]);
    expect(raw).toContain('data: {"n":2}');
  });
});

describe("what the lean layer leaves to node:http, on the same connection", () => {
  it("a request that is not a stub, between two that are, is answered by node:http in order", async () => {
    const conn = new RawConnection(leanPort);
    await conn.send(req("GET", "/hello") + "GET /api/v1/x HTTP/1.1\r\nHost: h\r\n\r\n" + req("GET", "/items/9"));
    const first = await conn.next();
    const second = await conn.next();
    const third = await conn.next();
    expect(first?.body).toBe('{"hi":"there"}');
    expect(second?.body).toBe("node GET /api/v1/x ");
    // The connection is node:http's from the first request it had to take: the stub after it still answers the same.
    expect(JSON.parse(third!.body)).toMatchObject({ id: "9" });
    conn.close();
  });

  it("a chunked stub request goes to node:http, which reads the body", async () => {
    const conn = new RawConnection(leanPort);
    await conn.send(`POST /stubs/${NS}/echo HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"nam\r\n9\r\ne":"Chk"}\r\n0\r\n\r\n`);
    expect(JSON.parse((await conn.next())!.body)).toMatchObject({ got: "Chk" });
    conn.close();
  });

  it("a WebSocket handshake reaches node:http's upgrade event", async () => {
    const wire = await exchange(leanPort, `GET /stubs/${NS}/ws HTTP/1.1\r\nHost: h\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`);
    expect(wire).toMatch(/^HTTP\/1\.1 101 Switching Protocols/);
    expect(wire).toContain("upgraded");
  });

  it("malformed bytes get node:http's 400, after the answers before them", async () => {
    const wire = await exchange(leanPort, req("GET", "/hello") + "GET /stubs/x HTTP/1.1\r\nBad Header\r\n\r\n");
    expect(wire).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*\{"hi":"there"\}HTTP\/1\.1 400 Bad Request/);
  });

  it("HTTP/1.0 and a missing Host are node:http's to judge", async () => {
    expect(await exchange(leanPort, `GET /stubs/${NS}/hello HTTP/1.0\r\n\r\n`)).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*Connection: close/);
    expect(await exchange(leanPort, `GET /stubs/${NS}/hello HTTP/1.1\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400 Bad Request/);
  });

  it("Expect: 100-continue is node:http's (it sends the 100)", async () => {
    const wire = await exchange(leanPort, req("POST", "/echo", "Expect: 100-continue\r\nContent-Type: application/json\r\n", '{"name":"E"}'));
    expect(wire).toMatch(/^HTTP\/1\.1 100 Continue/);
    expect(wire).toContain('"got":"E"');
  });
});

describe("real clients on one keep-alive connection", () => {
  it("Python's http.client: stub GET, stub POST, a path node:http serves, and a stub again", async () => {
    const script = [
      "import http.client, json, sys",
      "c = http.client.HTTPConnection('127.0.0.1', int(sys.argv[1]))",
      "out = []",
      `for method, path, body in [('GET', '/stubs/${NS}/items/5?q=py', None), ('POST', '/stubs/${NS}/echo', json.dumps({'name': 'Py'})), ('GET', '/other', None), ('GET', '/stubs/${NS}/hello', None)]:`,
      "    c.request(method, path, body=body, headers={'Content-Type': 'application/json'} if body else {})",
      "    r = c.getresponse()",
      "    out.append([r.status, r.getheader('Connection'), r.read().decode()])",
      "print(json.dumps(out))",
    ].join("\n");
    const { stdout } = await promisify(execFile)("python3", ["-c", script, String(leanPort)]);
    const [items, echo, other, hello] = JSON.parse(stdout) as [number, string, string][];
    expect(items).toEqual([200, "keep-alive", '{"id":"5","q":"py"}']);
    expect(echo[0]).toBe(200);
    expect(JSON.parse(echo[2])).toEqual({ got: "Py", agent: null, encoding: "identity" });
    expect(other).toEqual([200, "keep-alive", "node GET /other "]);
    expect(hello).toEqual([200, "keep-alive", '{"hi":"there"}']);
  });

  it("curl with several URLs reuses the connection", async () => {
    const base = `http://127.0.0.1:${leanPort}/stubs/${NS}`;
    const { stdout, stderr } = await promisify(execFile)("curl", ["-sv", `${base}/hello`, `${base}/items/1`, `${base}/text`]);
    expect(stdout).toBe('{"hi":"there"}{"id":"1","q":null}plain ünïcode text');
    expect(stderr).toMatch(/Re-using existing connection/i);
  });
});

describe("request heads", () => {
  // node:http's own parse of the same bytes: what the stub path saw before this layer.
  async function nodeHeaders(raw: string): Promise<Record<string, string[]>> {
    const server = http.createServer((r, res) => {
      res.end(JSON.stringify(headerLists(r.headers)));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const conn = new RawConnection((server.address() as AddressInfo).port);
    await conn.send(Buffer.from(raw, "latin1"));
    const res = await conn.next();
    conn.close();
    server.close();
    return JSON.parse(res!.body);
  }

  it("repeated headers are joined, kept first or listed exactly as node:http does", async () => {
    const raw =
      `GET /stubs/${NS}/hello HTTP/1.1\r\nHost: a\r\nHost: b\r\nX-Dup: 1\r\nx-dup: 2\r\nCookie: a=1\r\nCookie: b=2\r\nSet-Cookie: s=1\r\nSet-Cookie: t=2\r\n` +
      `Content-Type: text/a\r\nContent-Type: text/b\r\nAccept:   spaced\t \r\nX-Empty:\r\nX-Latin: caf\xe9\r\n\r\n`;
    const parsed = parseLeanRequest(Buffer.from(raw, "latin1"), 0, 1000);
    expect(parsed.kind).toBe("request");
    expect(parsed.kind === "request" && parsed.request.headers).toEqual(await nodeHeaders(raw));
  });

  it("bytes it does not serve are left whole for node:http", () => {
    const refused = [
      `GET /api/v1/mocks HTTP/1.1\r\nHost: a\r\n\r\n`,
      `GET /stubsx/a HTTP/1.1\r\nHost: a\r\n\r\n`,
      `get /stubs/a HTTP/1.1\r\nHost: a\r\n\r\n`,
      `FOO /stubs/a HTTP/1.1\r\nHost: a\r\n\r\n`,
      `GET http://h/stubs/a HTTP/1.1\r\nHost: a\r\n\r\n`,
      `GET /stubs/a HTTP/1.0\r\nHost: a\r\n\r\n`,
      `GET /stubs/a HTTP/1.1\r\n\r\n`,
      `GET /stubs/a HTTP/1.1\r\nHost: a\r\n folded\r\n\r\n`,
      `GET /stubs/a HTTP/1.1\r\nHost : a\r\n\r\n`,
      `GET /stubs/a HTTP/1.1\r\nHost: a\nX: b\r\n\r\n`,
      `GET /stubs/a HTTP/1.1\r\nHost: a\r\nX: a\x00b\r\n\r\n`,
      `POST /stubs/a HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 5\r\n\r\nhello`,
      `POST /stubs/a HTTP/1.1\r\nHost: a\r\nContent-Length: +5\r\n\r\nhello`,
      `POST /stubs/a HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\nhello`,
      `POST /stubs/a HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\n\r\n`,
      `GET /stubs/a HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, Upgrade\r\nUpgrade: h2c\r\n\r\n`,
      `GET /stubs/a HTTP/1.1\r\nHost: a\r\n${"X-A: 1\r\n".repeat(120)}\r\n`,
      `GET /stubs/a HTTP/1.1\r\nHost: a\r\nX: ${"a".repeat(20000)}\r\n\r\n`,
    ];
    for (const raw of refused) expect(parseLeanRequest(Buffer.from(raw, "latin1"), 0, 1000).kind, JSON.stringify(raw.slice(0, 80))).toBe("node");
    expect(parseLeanRequest(Buffer.from(`GET /stubs/a HTTP/1.1\r\nHost: a\r\n`), 0, 1000).kind).toBe("partial");
    expect(parseLeanRequest(Buffer.from(`POST /stubs/a HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhel`), 0, 1000).kind).toBe("partial");
  });
});

describe("bodies and slow clients", () => {
  it("a body of megabytes in many writes is read once whole", async () => {
    const name = "x".repeat(3 * 1024 * 1024);
    const body = JSON.stringify({ name });
    const conn = new RawConnection(leanPort);
    const bytes = Buffer.from(req("POST", "/echo", "Content-Type: application/json\r\n", body));
    for (let i = 0; i < bytes.length; i += 64 * 1024) await conn.send(bytes.subarray(i, i + 64 * 1024));
    const res = await conn.next();
    expect(res?.status).toBe(200);
    expect(JSON.parse(res!.body).got).toHaveLength(name.length);
    conn.close();
  });

  it("a head dripped slower than headersTimeout allows is cut off", async () => {
    const server = frontLike(true);
    server.headersTimeout = 300;
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const conn = new RawConnection((server.address() as AddressInfo).port);
    const started = Date.now();
    for (const ch of req("GET", "/hello").slice(0, 30)) {
      if (conn.isClosed) break;
      await conn.send(ch);
      await new Promise((r) => setTimeout(r, 60));
    }
    await conn.closed;
    expect(Date.now() - started).toBeLessThan(1500);
    server.closeAllConnections();
    server.close();
  });
});

describe("closing", () => {
  it("a client that half-closes after its requests gets its answers, then the end", async () => {
    const socket = net.connect(leanPort, "127.0.0.1");
    await once(socket, "connect");
    let got = "";
    socket.on("data", (d) => (got += d));
    socket.end(req("GET", "/slow") + req("GET", "/hello"));
    await once(socket, "close");
    expect(got).toMatch(/"slow":true\}HTTP\/1\.1 200 OK[\s\S]*Connection: close\r\n\r\n\{"hi":"there"\}$/);
  });

  it("server.close() ends an idle lean connection at once", async () => {
    const server = frontLike(true);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const conn = new RawConnection((server.address() as AddressInfo).port);
    await conn.send(req("GET", "/hello"));
    expect((await conn.next())?.status).toBe(200);
    const closed = new Promise((r) => server.close(r));
    await conn.closed;
    await closed;
  });
});
