// What the HTTP client refuses or fails on, against real servers: TLS
// verification (self-signed certificates), the outbound policy (metadata
// always, loopback per OUTBOUND_ALLOW_PRIVATE, every redirect hop), timeouts,
// aborts, and connection, DNS, URL and protocol errors.
import net from "node:net";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { echoHandler, prepared, sendError, serverSet, startHttpsServer, type Echo, type TestServer } from "@/server/testing/http-test-servers";
import { ConnectionPool, sendHttp } from "./http-client";

const { serve, add } = serverSet();
const echoOf = (body: string) => JSON.parse(body) as Echo;

describe("sendHttp: TLS", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = add(await startHttpsServer(echoHandler));
  });

  it("refuses a self-signed certificate when verifying", async () => {
    const err = await sendError(sendHttp(prepared(s.url)));
    expect(err.code).toBe("tls");
    expect(err.message).toMatch(/self-signed/);
    expect(err.message).toMatch(/Turn off TLS certificate verification/);
  });

  it("accepts it with verifyTls off, and times the handshake", async () => {
    const r = await sendHttp(prepared(`${s.url}/secure`, { settings: { verifyTls: false } }));
    expect(r.status).toBe(200);
    expect(echoOf(r.body).url).toBe("/secure");
    expect(r.timings.tlsMs).toBeGreaterThan(0);
  });

  it("a pool does not lend an unverified connection to a verifying request", async () => {
    const pool = new ConnectionPool();
    try {
      await sendHttp(prepared(s.url, { settings: { verifyTls: false } }), { agentPool: pool });
      expect((await sendError(sendHttp(prepared(s.url), { agentPool: pool }))).code).toBe("tls");
    } finally {
      pool.close();
    }
  });

  it("speaking TLS to a plain HTTP server is a tls error", async () => {
    const plain = await serve(echoHandler);
    const err = await sendError(sendHttp(prepared(plain.url.replace("http:", "https:"))));
    expect(err.code).toBe("tls");
  });
});

describe("sendHttp: outbound policy", () => {
  const saved = process.env.OUTBOUND_ALLOW_PRIVATE;
  afterEach(() => {
    if (saved === undefined) delete process.env.OUTBOUND_ALLOW_PRIVATE;
    else process.env.OUTBOUND_ALLOW_PRIVATE = saved;
  });

  it("always refuses the cloud-metadata address", async () => {
    process.env.OUTBOUND_ALLOW_PRIVATE = "1";
    const err = await sendError(sendHttp(prepared("http://169.254.169.254/latest/meta-data/")));
    expect(err).toMatchObject({ code: "blocked", details: { reason: "metadata" } });
    expect(err.message).toMatch(/169\.254\.169\.254/);
  });

  it("refuses loopback when OUTBOUND_ALLOW_PRIVATE=0, by address and by name", async () => {
    const s = await serve(echoHandler, "");
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    const byAddress = await sendError(sendHttp(prepared(`http://127.0.0.1:${s.port}/`)));
    expect(byAddress).toMatchObject({ code: "blocked", details: { reason: "private" } });
    expect(byAddress.message).toMatch(/OUTBOUND_ALLOW_PRIVATE=0/);
    expect((await sendError(sendHttp(prepared(`http://localhost:${s.port}/`)))).code).toBe("blocked");
    delete process.env.OUTBOUND_ALLOW_PRIVATE;
    expect((await sendHttp(prepared(`http://127.0.0.1:${s.port}/`))).status).toBe(200);
  });

  it("the strict policy refuses loopback whatever the environment says", async () => {
    const s = await serve(echoHandler);
    expect((await sendError(sendHttp(prepared(s.url), { privatePolicy: "strict" }))).code).toBe("blocked");
  });

  it("checks every redirect hop: a redirect to the metadata address is refused", async () => {
    let metadataHits = 0;
    const s = await serve((req, res) => {
      if (req.url?.startsWith("/latest")) metadataHits++;
      res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/iam/" });
      res.end();
    });
    const err = await sendError(sendHttp(prepared(s.url)));
    expect(err).toMatchObject({ code: "blocked", details: { reason: "metadata" } });
    expect(metadataHits).toBe(0);
  });

  it("refuses non-http schemes, also in a redirect", async () => {
    expect((await sendError(sendHttp(prepared("ftp://example.com/file")))).code).toBe("blocked");
    const s = await serve((_req, res) => {
      res.writeHead(301, { location: "file:///etc/passwd" });
      res.end();
    });
    expect(await sendError(sendHttp(prepared(s.url)))).toMatchObject({ code: "blocked", details: { reason: "scheme" } });
  });
});

describe("sendHttp: failures", () => {
  it("times out over the whole send, including a slow body", async () => {
    const silent = await serve(() => {});
    const started = Date.now();
    const err = await sendError(sendHttp(prepared(silent.url, { settings: { timeoutMs: 300 } })));
    expect(err.code).toBe("timeout");
    expect(err.message).toMatch(/300 ms/);
    expect(Date.now() - started).toBeLessThan(2_000);

    const trickle = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      const t = setInterval(() => res.write("."), 50);
      res.on("close", () => clearInterval(t));
    });
    expect((await sendError(sendHttp(prepared(trickle.url, { settings: { timeoutMs: 400 } })))).code).toBe("timeout");
  });

  it("the timeout covers redirect hops", async () => {
    let n = 0;
    const s = await serve((_req, res) => {
      setTimeout(() => {
        res.writeHead(302, { location: `/hop${++n}` });
        res.end();
      }, 150);
    });
    expect((await sendError(sendHttp(prepared(s.url, { settings: { timeoutMs: 500, maxRedirects: 50 } })))).code).toBe("timeout");
  });

  it("an abort signal cancels promptly", async () => {
    const silent = await serve(() => {});
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 100);
    const err = await sendError(sendHttp(prepared(silent.url), { signal: controller.signal }));
    expect(err.code).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(1_000);

    const already = AbortSignal.abort();
    expect((await sendError(sendHttp(prepared(silent.url), { signal: already }))).code).toBe("aborted");
  });

  it("a closed port is connection_refused", async () => {
    const probe = net.createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const { port } = probe.address() as net.AddressInfo;
    await new Promise((r) => probe.close(r));
    const err = await sendError(sendHttp(prepared(`http://127.0.0.1:${port}/`)));
    expect(err.code).toBe("connection_refused");
    expect(err.message).toMatch(/refused the connection/);
  });

  it("an unknown host name is a dns error", async () => {
    const err = await sendError(sendHttp(prepared("http://no-such-host.invalid/")));
    expect(err.code).toBe("dns");
    expect(err.message).toMatch(/resolve/);
  });

  it.each(["not a url", "http://", "http://exa mple.com/", "http://{{host}}/x"])("%j is invalid_url", async (url) => {
    expect((await sendError(sendHttp(prepared(url)))).code).toBe("invalid_url");
  });

  it("names unresolved variables in an invalid URL", async () => {
    const err = await sendError(sendHttp(prepared("{{baseUrl}}/x", { unresolved: ["baseUrl"] })));
    expect(err.message).toMatch(/\{\{baseUrl\}\}/);
  });

  it("a server that does not speak HTTP is a protocol error", async () => {
    const garbage = net.createServer((socket) => socket.end("SSH-2.0-OpenSSH_9.0\r\n\r\n"));
    await new Promise<void>((r) => garbage.listen(0, "127.0.0.1", r));
    try {
      const { port } = garbage.address() as net.AddressInfo;
      expect((await sendError(sendHttp(prepared(`http://127.0.0.1:${port}/`)))).code).toBe("protocol");
    } finally {
      garbage.close();
    }
  });

  it("a connection cut in the middle of the body is a protocol error, not a hang", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-length": "1000" });
      res.write("only part of it");
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const err = await sendError(sendHttp(prepared(s.url, { settings: { timeoutMs: 5_000 } })));
    expect(err.code).toBe("protocol");
    expect(err.message).toMatch(/closed the connection before the answer was complete/);
  });

  it("a header value with a line break is refused before sending", async () => {
    const s = await serve(echoHandler);
    const err = await sendError(sendHttp(prepared(s.url, { headers: [{ key: "X-Bad", value: "a\r\nInjected: 1" }] })));
    expect(err.code).toBe("protocol");
  });
});
