// The hand-over from server.ts to the Next.js process, against a real
// node:http upstream on a Unix socket (standing in for Next).
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawConnection } from "@/server/testing/raw-http";
import { createNextProxy, forwardableRequestHeaders } from "./next-proxy";

const socketPath = path.join(os.tmpdir(), `polymock-proxy-test-${process.pid}.sock`);
let upstreamClosed: Promise<void> = Promise.resolve();
let markClosed = () => {};

const upstream = http.createServer((req, res) => {
  if (req.url === "/echo") {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      res.setHeader("Set-Cookie", ["a=1; Path=/", "b=2; Path=/"]);
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(chunks).toString() }));
    });
    return;
  }
  if (req.url === "/refuse-early") {
    // Like a route handler that answers 401 before touching the body: the body is never read.
    req.pause();
    res.writeHead(401, { "Content-Type": "application/json" });
    res.end('{"code":"unauthorized"}');
    return;
  }
  if (req.url === "/events") {
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    res.write("data: one\n\n");
    res.on("close", () => markClosed());
    return; // never ends: the client closes it
  }
  res.writeHead(404).end();
});

const proxy = createNextProxy(socketPath);
const front = http.createServer((req, res) => proxy.forward(req, res, "req-1"));
let base = "";

beforeAll(async () => {
  await new Promise<void>((r) => upstream.listen(socketPath, r));
  await new Promise<void>((r) => front.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy.close();
  await new Promise((r) => front.close(r));
  await new Promise((r) => upstream.close(r));
});

describe("next proxy", () => {
  it("forwards method, path, headers and body, and returns status, every Set-Cookie and the body", async () => {
    const res = await fetch(`${base}/echo`, { method: "POST", headers: { "X-Custom": "yes", Connection: "keep-alive" }, body: "hello" });
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()).toEqual(["a=1; Path=/", "b=2; Path=/"]);
    const seen = await res.json();
    expect(seen).toMatchObject({ method: "POST", url: "/echo", body: "hello" });
    expect(seen.headers["x-custom"]).toBe("yes");
    expect(seen.headers.host).toBe(base.slice("http://".length));
  });

  it("streams server-sent events as they are written, and a client that leaves closes the upstream request", async () => {
    upstreamClosed = new Promise<void>((r) => (markClosed = r));
    const controller = new AbortController();
    const res = await fetch(`${base}/events`, { signal: controller.signal });
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
    controller.abort();
    await upstreamClosed; // would time out if the upstream request were left open
  });

  it("answers 502 in the error envelope when the Next.js process is not there", async () => {
    const orphan = createNextProxy(path.join(os.tmpdir(), `polymock-no-such-${process.pid}.sock`));
    const lonely = http.createServer((req, res) => orphan.forward(req, res, "req-2"));
    await new Promise<void>((r) => lonely.listen(0, "127.0.0.1", r));
    const res = await fetch(`http://127.0.0.1:${(lonely.address() as AddressInfo).port}/anything`);
    expect(res.status).toBe(502);
    expect(await res.json()).toMatchObject({ code: "unavailable", request_id: "req-2" });
    orphan.close();
    await new Promise((r) => lonely.close(r));
  });

  it("does not pass on hop-by-hop headers: Upgrade, HTTP2-Settings, and whatever Connection names", () => {
    const out = forwardableRequestHeaders({
      connection: "Upgrade, HTTP2-Settings, X-Hop",
      upgrade: "h2c",
      "http2-settings": "AAMAAABkAARAAAAAAAIAAAAA",
      "x-hop": "1",
      "keep-alive": "timeout=5",
      te: "trailers",
      "content-length": "0",
      "x-kept": "yes",
      host: "example.test",
    });
    expect(out).toEqual({ "content-length": "0", "x-kept": "yes", host: "example.test" });
  });

  it("an answer given before the request body was read: the rest is drained and the next request on the connection is answered", async () => {
    const conn = new RawConnection(Number(new URL(base).port));
    const body = Buffer.alloc(700 * 1024, "x");
    void conn.send(Buffer.concat([Buffer.from(`POST /refuse-early HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`), body]));
    const first = await conn.next();
    expect(first?.status).toBe(401);
    await conn.send("GET /echo HTTP/1.1\r\nHost: x\r\n\r\n");
    const second = await conn.next();
    conn.close();
    expect(second?.status).toBe(200);
    expect(JSON.parse(second!.body)).toMatchObject({ method: "GET", url: "/echo" });
  });
});
