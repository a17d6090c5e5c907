// The guarded fetch against a real local HTTP server: it refuses what the
// outbound policy refuses (and remembers it), hands redirects back unfollowed,
// streams bodies, cuts them at the cap, and close() ends an open stream.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createGuardedFetch, ResponseTooLargeError } from "./guarded-fetch";
import { BlockedTargetError } from "./ssrf";

const server = http.createServer((req, res) => {
  if (req.url === "/moved") return void res.writeHead(307, { location: "/echo" }).end();
  if (req.url === "/big") return void res.writeHead(200).end("x".repeat(5000));
  if (req.url === "/stream") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: one\n\n");
    return;
  }
  let body = "";
  req.on("data", (c) => (body += c));
  req.on("end", () => res.writeHead(201, { "content-type": "application/json", "x-seen": req.headers["x-test"] ?? "" }).end(JSON.stringify({ method: req.method, body })));
});
let origin = "";

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => delete process.env.OUTBOUND_ALLOW_PRIVATE);
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("createGuardedFetch", () => {
  it("sends the method, headers and body, and answers status, headers and body", async () => {
    const { fetch } = createGuardedFetch({ maxBytes: 1000 });
    const res = await fetch(`${origin}/echo`, { method: "POST", headers: { "x-test": "yes" }, body: "hello" });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-seen")).toBe("yes");
    expect(await res.json()).toEqual({ method: "POST", body: "hello" });
  });

  it("returns a redirect as it is, for the caller to follow (and check) as a new request", async () => {
    const { fetch } = createGuardedFetch({ maxBytes: 1000 });
    const res = await fetch(`${origin}/moved`, { redirect: "manual" });
    expect(res.status).toBe(307);
    expect(res.headers.get("location")).toBe("/echo");
  });

  it("refuses a cloud-metadata address before connecting, and loopback by name at lookup when private targets are off; both are remembered", async () => {
    const meta = createGuardedFetch({ maxBytes: 1000 });
    await expect(meta.fetch("http://169.254.169.254/latest")).rejects.toBeInstanceOf(BlockedTargetError);
    expect(meta.blocked?.reason).toBe("metadata");
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    const local = createGuardedFetch({ maxBytes: 1000 });
    await expect(local.fetch(`http://localhost:${new URL(origin).port}/echo`)).rejects.toThrow(/OUTBOUND_ALLOW_PRIVATE=0/);
    expect(local.blocked?.reason).toBe("private");
  });

  it("cuts the bodies off at the cap, counting every response together", async () => {
    const guard = createGuardedFetch({ maxBytes: 6000 });
    expect((await (await guard.fetch(`${origin}/big`)).text()).length).toBe(5000);
    const second = await guard.fetch(`${origin}/big`);
    await expect(second.text()).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(guard.tooLarge?.limit).toBe(6000);
  });

  it("streams a body as it arrives; close() ends it and refuses new requests", async () => {
    const guard = createGuardedFetch({ maxBytes: 1000 });
    const res = await guard.fetch(`${origin}/stream`);
    const reader = res.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: one\n\n");
    guard.close();
    await expect(reader.read()).rejects.toThrow();
    await expect(guard.fetch(`${origin}/echo`)).rejects.toThrow(/session is over/);
  });
});
