// The load engine's HTTP/1.1 client on real sockets: node:http and node:https
// servers for well-behaved answers, raw node:net servers for the framings,
// failures and malformed bytes a real server rarely sends on purpose. Driven
// through LoadHttpClient (what the engine uses), so error codes, timings and
// the outbound policy are checked where k6 scripts see them.
import http from "node:http";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { selfSignedCertificate } from "@/server/testing/http-test-servers";
import { LoadHttpClient, MAX_LOAD_RESPONSE_BYTES, type SendMeter } from "./http-driver";
import type { HostRequest, HostResponse } from "./isolate/http";
import { WireClient, WireExchange, type WireOrigin } from "./wire-client";

function request(url: string, over: Partial<HostRequest> = {}): HostRequest {
  return { method: "GET", url, headers: {}, tags: {}, responseType: "text", ...over };
}

interface RawServer {
  url: string;
  port: number;
  /** Connections accepted so far. */
  connections: number;
  /** Each request's head as received, and the body that followed it. */
  requests: { head: string; body: string }[];
  sockets: Set<net.Socket>;
  close(): Promise<void>;
}

/**
 * A node:net server that reads HTTP/1.1 requests (bodies by Content-Length)
 * and hands each to `answer` with the socket, to write whatever bytes a test
 * needs; `nth` counts requests on that connection from 0.
 */
async function rawServer(answer: (socket: net.Socket, nth: number, head: string) => void): Promise<RawServer> {
  const s: RawServer = { url: "", port: 0, connections: 0, requests: [], sockets: new Set(), close: async () => {} };
  const server = net.createServer((socket) => {
    s.connections++;
    s.sockets.add(socket);
    socket.on("close", () => s.sockets.delete(socket));
    socket.on("error", () => {});
    let buf = Buffer.alloc(0);
    let nth = 0;
    socket.on("data", (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const end = buf.indexOf("\r\n\r\n");
        if (end < 0) return;
        const head = buf.toString("latin1", 0, end);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buf.length < end + 4 + length) return;
        const body = buf.toString("latin1", end + 4, end + 4 + length);
        buf = buf.subarray(end + 4 + length);
        s.requests.push({ head, body });
        answer(socket, nth++, head);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  s.port = (server.address() as AddressInfo).port;
  s.url = `http://127.0.0.1:${s.port}`;
  s.close = () =>
    new Promise<void>((r) => {
      for (const c of s.sockets) c.destroy();
      server.close(() => r());
    });
  return s;
}

async function httpServer(handler: http.RequestListener): Promise<{ url: string; connections: () => number; server: http.Server }> {
  const server = http.createServer(handler);
  let connections = 0;
  server.on("connection", () => connections++);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections, server };
}

const toClose: { close(): unknown }[] = [];
function later<T extends { close(): unknown }>(x: T): T {
  toClose.push(x);
  return x;
}
afterEach(async () => {
  for (const x of toClose.splice(0)) {
    if (x instanceof http.Server) x.closeAllConnections();
    await x.close();
  }
});

const previousPolicy = process.env.OUTBOUND_ALLOW_PRIVATE;
beforeAll(() => {
  process.env.OUTBOUND_ALLOW_PRIVATE = "1";
});
afterAll(() => {
  if (previousPolicy === undefined) delete process.env.OUTBOUND_ALLOW_PRIVATE;
  else process.env.OUTBOUND_ALLOW_PRIVATE = previousPolicy;
});

function expectTimingsSound(r: HostResponse) {
  const t = r.timings;
  for (const v of Object.values(t)) expect(v).toBeGreaterThanOrEqual(0);
  expect(t.duration).toBeCloseTo(t.sending + t.waiting + t.receiving, 6);
}

describe("connections", () => {
  it("reuses one keep-alive connection for sequential requests; timings show the dial on the first only", async () => {
    const { url, connections, server } = await httpServer((_q, res) => res.end("hello"));
    later(server);
    const client = later(new LoadHttpClient());
    const answers: HostResponse[] = [];
    for (let i = 0; i < 20; i++) answers.push(await client.send(request(url)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers[0].body).toBe("hello");
    expect(connections()).toBe(1);
    for (const a of answers) expectTimingsSound(a);
    expect(answers[0].timings.connecting).toBeGreaterThan(0);
    expect(answers[0].timings.blocked).toBeGreaterThanOrEqual(answers[0].timings.connecting);
    expect(answers[5].timings.connecting).toBe(0);
    expect(answers[5].timings.tls_handshaking).toBe(0);
    expect(answers[5].remoteIp).toBe("127.0.0.1");
    expect(answers[5].proto).toBe("HTTP/1.1");
  });

  it("opens a connection per concurrent request, and reuses them for the next wave", async () => {
    const { url, connections, server } = await httpServer((_q, res) => setTimeout(() => res.end("ok"), 30));
    later(server);
    const client = later(new LoadHttpClient());
    const wave = () => Promise.all(Array.from({ length: 8 }, () => client.send(request(url))));
    expect((await wave()).every((r) => r.status === 200)).toBe(true);
    expect(connections()).toBe(8);
    expect((await wave()).every((r) => r.status === 200)).toBe(true);
    expect(connections()).toBe(8);
  });

  it("honours Connection: close, and HTTP/1.0 without keep-alive: a new connection per request, no errors", async () => {
    const s = later(
      await rawServer((socket, _nth, head) => {
        if (head.includes("/old")) socket.end("HTTP/1.0 200 OK\r\nContent-Length: 3\r\n\r\nold");
        else socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
      }),
    );
    const client = later(new LoadHttpClient());
    for (let i = 0; i < 3; i++) expect((await client.send(request(`${s.url}/`))).body).toBe("ok");
    const old = await client.send(request(`${s.url}/old`));
    expect([old.status, old.body, old.proto]).toEqual([200, "old", "HTTP/1.0"]);
    expect(s.connections).toBe(4);
  });

  /** The second request on each connection finds it closing (the server's idle timeout striking as we wrote). */
  const closingOnSecondRequest = async () =>
    later(
      await rawServer((socket, nth) => {
        if (nth === 1) socket.destroy();
        else socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
      }),
    );

  it("retries once on a new connection when a reused one is closed by the server as the request goes out", async () => {
    const s = await closingOnSecondRequest();
    const client = later(new LoadHttpClient());
    expect((await client.send(request(`${s.url}/a`))).status).toBe(200);
    const second = await client.send(request(`${s.url}/b`));
    expect([second.status, second.body, second.error]).toEqual([200, "ok", ""]);
    expect(s.connections).toBe(2);
    expect(s.requests.map((r) => r.head.split(" ")[1])).toEqual(["/a", "/b", "/b"]);
    // The retry dialled: its timings say so.
    expect(second.timings.connecting).toBeGreaterThan(0);
  });

  it("does not send a POST twice when a reused connection fails (as Go's transport), unless it carries an Idempotency-Key", async () => {
    const s = await closingOnSecondRequest();
    const client = later(new LoadHttpClient());
    expect((await client.send(request(`${s.url}/a`))).status).toBe(200);
    const post = await client.send(request(`${s.url}/pay`, { method: "POST", body: "x" }));
    expect([post.status, post.errorCode]).toEqual([0, 1220]);
    expect((await client.send(request(`${s.url}/c`))).status).toBe(200);
    const keyed = await client.send(request(`${s.url}/pay`, { method: "POST", body: "y", headers: { "Idempotency-Key": "k1" } }));
    expect([keyed.status, keyed.body]).toEqual([200, "ok"]);
    expect(s.requests.map((r) => r.head.split(" ").slice(0, 2).join(" "))).toEqual(["GET /a", "POST /pay", "GET /c", "POST /pay", "POST /pay"]);
  });

  it("closes connections left idle for the idle timeout", async () => {
    const s = later(await rawServer((socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")));
    const wire = later(new WireClient({ idleTimeoutMs: 100 }));
    const origin: WireOrigin = { key: "raw", host: "127.0.0.1", port: s.port, tls: false, servername: undefined };
    const ask = () => wire.send(origin, new WireExchange(Buffer.from("GET / HTTP/1.1\r\nHost: x\r\n\r\n"), false, true, 5000, 1024));
    const x = await ask();
    expect([x.status, Buffer.concat(x.chunks).toString(), x.error]).toEqual([200, "ok", undefined]);
    expect(wire.connections("raw")).toEqual({ open: 1, idle: 1 });
    await ask();
    expect(s.connections).toBe(1);
    await vi.waitFor(() => expect(wire.connections("raw")).toEqual({ open: 0, idle: 0 }), { timeout: 1000 });
    await vi.waitFor(() => expect(s.sockets.size).toBe(0));
  });

  it("drops an idle connection the server closed, and dials a new one for the next request", async () => {
    const s = later(
      await rawServer((socket) => {
        socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
        setTimeout(() => socket.end(), 20);
      }),
    );
    const client = later(new LoadHttpClient());
    expect((await client.send(request(s.url))).status).toBe(200);
    await new Promise((r) => setTimeout(r, 80));
    const next = await client.send(request(s.url));
    expect([next.status, next.error]).toEqual([200, ""]);
    expect(s.connections).toBe(2);
    expect(s.requests).toHaveLength(2);
  });
});

describe("request bytes", () => {
  it("writes the request line, Host, User-Agent, the script's headers, Content-Length for a body or POST/PUT/PATCH; data_sent/data_received are the bytes on the wire", async () => {
    const answer = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
    const s = later(await rawServer((socket) => socket.write(answer)));
    const client = later(new LoadHttpClient());
    const meter: SendMeter = { sent: 0, received: 0 };
    await client.send(request(`${s.url}/p?q=1`, { method: "POST", body: "caf\xc3\xa9", headers: { "X-Trace": "abc" } }), undefined, meter);
    await client.send(request(`${s.url}/empty`, { method: "PUT" }));
    await client.send(request(`${s.url}/get`));
    const [post, put, get] = s.requests;
    expect(post.head.split("\r\n")).toEqual([`POST /p?q=1 HTTP/1.1`, `Host: 127.0.0.1:${s.port}`, "User-Agent: polymock-load/1 (k6 compatible)", "X-Trace: abc", "Content-Length: 5"]);
    expect(Buffer.from(post.body, "latin1").toString("utf8")).toBe("café");
    expect(put.head).toMatch(/\r\nContent-Length: 0$/);
    expect(get.head).not.toMatch(/Content-Length/i);
    expect(meter).toEqual({ sent: post.head.length + 4 + 5, received: answer.length });
  });

  it("refuses header injection and a Content-Length that does not match the body, sending nothing", async () => {
    const s = later(await rawServer((socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")));
    const client = later(new LoadHttpClient());
    const injected = await client.send(request(s.url, { headers: { "X-A": "1\r\nX-Evil: 1" } }));
    expect([injected.status, injected.errorCode]).toEqual([0, 1000]);
    expect(injected.error).toMatch(/X-A/);
    const mismatch = await client.send(request(s.url, { method: "POST", body: "abc", headers: { "Content-Length": "10" } }));
    expect(mismatch.error).toMatch(/Content-Length/);
    expect(s.connections).toBe(0);
  });
});

describe("answers", () => {
  it("reads a Content-Length body, a chunked body (extensions, trailers) and a body that runs to the close", async () => {
    const s = later(
      await rawServer((socket, _nth, head) => {
        if (head.includes("/chunked")) {
          socket.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;name=value\r\nhello\r\n");
          // The rest in pieces: a chunk header split, then the trailer section.
          setTimeout(() => socket.write("1"), 5);
          setTimeout(() => socket.write("\r\n \r\n7\r\n, world\r\n0\r\nX-Checksum: 1\r\nX-Other: 2\r\n\r\n"), 10);
        } else if (head.includes("/close")) {
          socket.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil ");
          setTimeout(() => socket.end("the end"), 5);
        } else socket.write("HTTP/1.1 201 Created\r\nContent-Length: 4\r\nSet-Cookie: a=1\r\nset-cookie: b=2\r\ncontent-type: text/plain\r\n\r\nbody");
      }),
    );
    const client = later(new LoadHttpClient());
    const plain = await client.send(request(`${s.url}/length`));
    expect([plain.status, plain.body]).toEqual([201, "body"]);
    expect(plain.headers).toEqual({ "Content-Length": "4", "Set-Cookie": "a=1, b=2", "Content-Type": "text/plain" });
    const chunked = await client.send(request(`${s.url}/chunked`));
    expect([chunked.status, chunked.body, chunked.error]).toEqual([200, "hello , world", ""]);
    expect(chunked.headers["X-Checksum"]).toBeUndefined();
    const closed = await client.send(request(`${s.url}/close`));
    expect([closed.status, closed.body, closed.error]).toEqual([200, "until the end", ""]);
    // The chunked answer left its connection reusable; the read-until-close one did not.
    expect(s.connections).toBe(1);
    expect((await client.send(request(`${s.url}/length`))).status).toBe(201);
    expect(s.connections).toBe(2);
  });

  it("reads answers that arrive a few bytes at a time", async () => {
    const answers: Record<string, string> = {
      "/length": "HTTP/1.1 200 OK\r\nContent-Length: 11\r\nX-A: 1\r\n\r\nhello world",
      "/chunked": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\n6\r\n world\r\n0\r\nX-T: 1\r\n\r\n",
      "/lf": "HTTP/1.1 200 OK\nContent-Length: 11\n\nhello world",
    };
    const s = later(
      await rawServer((socket, _nth, head) => {
        socket.setNoDelay(true);
        const bytes = answers[head.split(" ")[1]];
        let i = 0;
        const next = () => {
          if (i >= bytes.length) return;
          socket.write(bytes.slice(i, i + 3));
          i += 3;
          setTimeout(next, 1);
        };
        next();
      }),
    );
    const client = later(new LoadHttpClient());
    for (const path of Object.keys(answers)) {
      const r = await client.send(request(`${s.url}${path}`, { timeout: "5s" }));
      expect([path, r.status, r.body, r.error]).toEqual([path, 200, "hello world", ""]);
    }
    expect(s.connections).toBe(1);
  });

  it("reads no body for HEAD, 204 and 304 whatever Content-Length says, and keeps the connection", async () => {
    const s = later(
      await rawServer((socket, _nth, head) => {
        const status = head.includes("/204") ? "204 No Content" : head.includes("/304") ? "304 Not Modified" : "200 OK";
        socket.write(`HTTP/1.1 ${status}\r\nContent-Length: 1234\r\n\r\n`);
      }),
    );
    const client = later(new LoadHttpClient());
    const head = await client.send(request(`${s.url}/`, { method: "HEAD" }));
    const noContent = await client.send(request(`${s.url}/204`));
    const notModified = await client.send(request(`${s.url}/304`));
    expect([head, noContent, notModified].map((r) => [r.status, r.body, r.error])).toEqual([
      [200, "", ""],
      [204, "", ""],
      [304, "", ""],
    ]);
    expect(head.headers["Content-Length"]).toBe("1234");
    expect(s.connections).toBe(1);
  });

  it("skips 100 Continue and 103 Early Hints before the real answer", async () => {
    const s = later(
      await rawServer((socket) => {
        socket.write("HTTP/1.1 100 Continue\r\n\r\n");
        setTimeout(() => socket.write("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nfinal"), 5);
      }),
    );
    const client = later(new LoadHttpClient());
    const r = await client.send(request(s.url, { method: "POST", body: "x", headers: { Expect: "100-continue" } }));
    expect([r.status, r.body, r.headers]).toEqual([200, "final", { "Content-Length": "5" }]);
  });

  it("decodes a gzip body for the script; responseType none keeps no body, binary gives base64", async () => {
    const text = JSON.stringify({ items: Array.from({ length: 1000 }, (_, i) => i) });
    const { url, server } = await httpServer((_q, res) => {
      res.writeHead(200, { "content-encoding": "gzip" });
      res.end(gzipSync(text));
    });
    later(server);
    const client = later(new LoadHttpClient());
    const meter: SendMeter = { sent: 0, received: 0 };
    const r = await client.send(request(url), undefined, meter);
    expect(r.body).toBe(text);
    expect(meter.received).toBeLessThan(text.length);
    expect((await client.send(request(url, { responseType: "none" }))).body).toBeNull();
    const binary = await client.send(request(url, { responseType: "binary" }));
    expect(Buffer.from(binary.body!, "base64").toString()).toBe(text);
  });

  it("cuts a body over the cap, with an error, and drops the connection", async () => {
    const big = Buffer.alloc(MAX_LOAD_RESPONSE_BYTES + 100_000, "a");
    const { url, connections, server } = await httpServer((_q, res) => res.end(big));
    later(server);
    const client = later(new LoadHttpClient());
    const r = await client.send(request(url));
    expect(r.status).toBe(200);
    expect(r.error).toMatch(/cut/);
    expect(r.errorCode).toBe(1000);
    expect(r.body!.length).toBe(MAX_LOAD_RESPONSE_BYTES);
    await client.send(request(url, { responseType: "none" }));
    expect(connections()).toBe(2);
  });

  it("reports malformed answers as errors and the connection is not reused", async () => {
    const answers: Record<string, string> = {
      "/status": "HTTP/1.1 abc Nope\r\n\r\n",
      "/garbage": "<html>hello</html>\r\n\r\n",
      "/length": "HTTP/1.1 200 OK\r\nContent-Length: 12x\r\n\r\n",
      "/chunk": "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
      "/header": "HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n",
    };
    const s = later(await rawServer((socket, _nth, head) => socket.write(answers[head.split(" ")[1]])));
    const client = later(new LoadHttpClient());
    for (const path of Object.keys(answers)) {
      const r = await client.send(request(`${s.url}${path}`, { timeout: "2s" }));
      expect([path, r.status, r.errorCode]).toEqual([path, 0, 1000]);
      expect(r.error).toMatch(/malformed HTTP response/);
    }
    expect(s.connections).toBe(Object.keys(answers).length);
  });

  it("headers that never end are an error, not a hang", async () => {
    const s = later(await rawServer((socket) => socket.write(`HTTP/1.1 200 OK\r\nX-Big: ${"a".repeat(70_000)}`)));
    const client = later(new LoadHttpClient());
    const r = await client.send(request(s.url, { timeout: "5s" }));
    expect(r.error).toMatch(/malformed HTTP response: headers over/);
  });
});

describe("failures as k6 codes them", () => {
  it("refused: 1212", async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((r) => probe.close(r));
    const client = later(new LoadHttpClient());
    const r = await client.send(request(`http://127.0.0.1:${port}/`));
    expect([r.status, r.errorCode, r.error]).toEqual([0, 1212, "dial tcp: connect: connection refused"]);
  });

  it("a reset in the middle of the body: 1220, not retried", async () => {
    const s = later(
      await rawServer((socket) => {
        socket.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial");
        setTimeout(() => socket.resetAndDestroy(), 10);
      }),
    );
    const client = later(new LoadHttpClient());
    const r = await client.send(request(s.url));
    expect([r.status, r.errorCode, r.error]).toEqual([0, 1220, "connection reset by peer"]);
    expect(s.requests).toHaveLength(1);
  });

  it("a request timeout while waiting for the headers, and while reading the body: 1050", async () => {
    const s = later(
      await rawServer((socket, _nth, head) => {
        if (head.includes("/body")) socket.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nslow");
      }),
    );
    const client = later(new LoadHttpClient());
    for (const path of ["/headers", "/body"]) {
      const t0 = performance.now();
      const r = await client.send(request(`${s.url}${path}`, { timeout: "150ms" }));
      const took = performance.now() - t0;
      expect([path, r.status, r.errorCode, r.error]).toEqual([path, 0, 1050, "request timeout"]);
      expect(took).toBeGreaterThanOrEqual(140);
      expect(took).toBeLessThan(1000);
    }
    // The timed-out connections were dropped.
    await vi.waitFor(() => expect(s.sockets.size).toBe(0));
  });

  it("the run's signal cuts in-flight requests at once; later requests fail without a connection", async () => {
    const s = later(await rawServer(() => {}));
    const client = later(new LoadHttpClient());
    const stop = new AbortController();
    const pending = Promise.all(Array.from({ length: 5 }, () => client.send(request(s.url), stop.signal)));
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    stop.abort();
    const answers = await pending;
    expect(performance.now() - t0).toBeLessThan(20);
    expect(answers.map((a) => a.errorCode)).toEqual(Array(5).fill(1050));
    const before = s.connections;
    expect((await client.send(request(s.url), stop.signal)).errorCode).toBe(1050);
    expect(s.connections).toBe(before);
  });
});

describe("TLS", () => {
  let server: https.Server;
  let url: string;
  let port: number;
  beforeAll(async () => {
    const { key, cert } = await selfSignedCertificate();
    server = https.createServer({ key, cert }, (req, res) => res.end(`tls ${req.headers.host}`));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
    url = `https://localhost:${port}/`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("refuses a self-signed certificate with 1300", async () => {
    const client = later(new LoadHttpClient());
    const r = await client.send(request(url));
    expect([r.status, r.errorCode]).toEqual([0, 1300]);
    expect(r.error).toMatch(/^tls: .*self[- ]signed/i);
  });

  it("accepts it with insecureSkipTLSVerify; the handshake is timed, and the connection reused", async () => {
    const client = later(new LoadHttpClient({ insecureSkipTLSVerify: true }));
    let connections = 0;
    const count = () => connections++;
    server.on("secureConnection", count);
    try {
      const first = await client.send(request(url));
      const second = await client.send(request(url));
      expect([first.status, first.body]).toEqual([200, `tls localhost:${port}`]);
      expect(first.timings.tls_handshaking).toBeGreaterThan(0);
      expect(first.timings.connecting).toBeGreaterThan(0);
      expect(second.timings.tls_handshaking).toBe(0);
      expectTimingsSound(first);
      expect(connections).toBe(1);
    } finally {
      server.off("secureConnection", count);
    }
  });

  it("sends the URL's host as the server name under the hosts option", async () => {
    const client = later(new LoadHttpClient({ insecureSkipTLSVerify: true, hosts: { "api.example.test": `127.0.0.1:${port}` } }));
    let servername: string | undefined;
    const seen = (s: { servername?: string | false }) => (servername = s.servername || undefined);
    server.on("secureConnection", seen);
    try {
      const r = await client.send(request("https://api.example.test/"));
      expect([r.status, r.body, servername]).toEqual([200, "tls api.example.test", "api.example.test"]);
    } finally {
      server.off("secureConnection", seen);
    }
  });
});

describe("policy, credentials and redirects", () => {
  it("a private address the policy blocks is refused before any connection, by address and by name", async () => {
    const s = later(await rawServer((socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")));
    const strict = later(new LoadHttpClient({ privatePolicy: "strict" }));
    const byAddress = await strict.send(request(s.url));
    expect([byAddress.status, byAddress.errorCode]).toEqual([0, 1000]);
    expect(byAddress.error).toMatch(/is blocked: 127\.0\.0\.1 is a private or loopback address/);
    const byName = await strict.send(request(`http://localhost:${s.port}/`));
    expect(byName.error).toMatch(/is blocked/);
    // hosts maps a public-looking name to the private address: the dialled address is what is judged.
    const mapped = later(new LoadHttpClient({ privatePolicy: "strict", hosts: { "public.example": "127.0.0.1" } }));
    expect((await mapped.send(request(`http://public.example:${s.port}/`))).error).toMatch(/is blocked/);
    expect(s.connections).toBe(0);
  });

  it("follows redirects (303 and POST on 301/302 become GET, 307 keeps method and body), with credentials on the first origin only", async () => {
    const other = later(await rawServer((socket) => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nother")));
    const s = later(
      await rawServer((socket, _nth, head) => {
        const path = head.split(" ")[1];
        const go = (status: string, to: string) => socket.write(`HTTP/1.1 ${status}\r\nLocation: ${to}\r\nContent-Length: 0\r\n\r\n`);
        if (path === "/302") go("302 Found", "/end");
        else if (path === "/303") go("303 See Other", "/end");
        else if (path === "/307") go("307 Temporary Redirect", "/end");
        else if (path === "/away") go("302 Found", `${other.url}/there`);
        else if (path === "/loop") go("302 Found", "/loop");
        else socket.write("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nend");
      }),
    );
    const client = later(new LoadHttpClient({ maxRedirects: 3 }));
    const lines = () => s.requests.map((r) => `${r.head.split("\r\n")[0]} ${r.body}`);
    const withAuth = `http://user:pa%20ss@127.0.0.1:${s.port}`;

    const r302 = await client.send(request(`${withAuth}/302`, { method: "POST", body: "data" }));
    expect([r302.status, r302.body, r302.url]).toEqual([200, "end", `${s.url}/end`]);
    expect(lines()).toEqual(["POST /302 HTTP/1.1 data", "GET /end HTTP/1.1 "]);
    for (const r of s.requests) expect(r.head).toContain(`Authorization: Basic ${Buffer.from("user:pa ss").toString("base64")}`);

    s.requests.length = 0;
    // Each hop comes back apart, with its method, status, URL and its own bytes; the meter keeps the last hop's.
    const meter: SendMeter = { sent: 0, received: 0 };
    const before = [client.bytesSent, client.bytesReceived];
    await client.send(request(`${s.url}/303`, { method: "PUT", body: "data" }), undefined, meter);
    expect(meter.hops?.map((h) => [h.method, h.res.status, h.res.url])).toEqual([["PUT", 303, `${s.url}/303`]]);
    expect(meter.method).toBe("GET");
    expect([meter.hops![0].sent + meter.sent, meter.hops![0].received + meter.received]).toEqual([client.bytesSent - before[0], client.bytesReceived - before[1]]);
    expect(meter.received).toBe(Buffer.byteLength("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nend"));
    await client.send(request(`${s.url}/307`, { method: "POST", body: "data" }));
    expect(lines()).toEqual(["PUT /303 HTTP/1.1 data", "GET /end HTTP/1.1 ", "POST /307 HTTP/1.1 data", "POST /end HTTP/1.1 data"]);

    const away = await client.send(request(`${withAuth}/away`));
    expect([away.status, away.body]).toEqual([200, "other"]);
    expect(other.requests[0].head).not.toMatch(/Authorization/);

    const loop = await client.send(request(`${s.url}/loop`));
    expect([loop.status, loop.headers.Location]).toEqual([302, "/loop"]);
    const none = await client.send(request(`${s.url}/302`, { redirects: 0 }));
    expect(none.status).toBe(302);
  });
});
