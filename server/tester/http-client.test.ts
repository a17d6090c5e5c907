// The outbound HTTP client against real servers: timings, redirects, cookies,
// compression, body encoding and caps, TLS verification, the outbound policy,
// timeouts, aborts and keep-alive reuse. No network mocks.
import http from "node:http";
import net from "node:net";
import zlib from "node:zlib";
import { CookieJar } from "tough-cookie";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RequestSettings } from "@/server/contracts/tester-request";
import { echoHandler, echoHeader, readAll, startHttpsServer, startServer, type Echo, type TestServer } from "@/server/testing/http-test-servers";
import { ConnectionPool, SendError, sendHttp } from "./http-client";
import type { PreparedRequest } from "./prepared-request";

function prepared(url: string, over: Partial<Omit<PreparedRequest, "settings">> & { settings?: Partial<RequestSettings> } = {}): PreparedRequest {
  const { settings, ...rest } = over;
  return { method: "GET", url, headers: [], bodyPreview: {}, unresolved: [], ...rest, settings: RequestSettings.parse(settings ?? {}) };
}

async function sendError(p: Promise<unknown>): Promise<SendError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(SendError);
  return err as SendError;
}

const servers: TestServer[] = [];
async function serve(handler: http.RequestListener, host?: string): Promise<TestServer> {
  const s = await startServer(handler, host);
  servers.push(s);
  return s;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

const echoOf = (body: string) => JSON.parse(body) as Echo;

describe("sendHttp: a plain exchange", () => {
  let echo: TestServer;
  beforeAll(async () => {
    echo = await serve(echoHandler);
  });

  it("sends method, headers and body, and reports status, headers, body and sizes", async () => {
    const r = await sendHttp(prepared(`${echo.url}/things?a=1`, { method: "POST", headers: [{ key: "X-One", value: "1" }, { key: "X-Two", value: "a" }, { key: "x-two", value: "b" }], body: Buffer.from("hello") }));
    expect(r.status).toBe(200);
    expect(r.statusText).toBe("OK");
    expect(r.httpVersion).toBe("1.1");
    expect(r.remoteAddress).toBe("127.0.0.1");
    expect(r.url).toBe(`${echo.url}/things?a=1`);
    expect(r.redirects).toEqual([]);
    expect(r.bodyEncoding).toBe("utf8");
    expect(r.headers.find((h) => h.key.toLowerCase() === "content-type")?.value).toBe("application/json");
    const e = echoOf(r.body);
    expect(e).toMatchObject({ method: "POST", url: "/things?a=1", body: "hello" });
    expect(echoHeader(e, "x-one")).toBe("1");
    expect(e.headers.filter(([k]) => k.toLowerCase() === "x-two").map(([, v]) => v)).toEqual(["a", "b"]);
    expect(echoHeader(e, "content-length")).toBe("5");
    expect(r.size.body).toBe(Buffer.byteLength(r.body));
    expect(r.size.headers).toBeGreaterThan(40);
  });

  it("times every phase, all ≥ 0, total ≥ first byte", async () => {
    const r = await sendHttp(prepared(echo.url));
    for (const v of Object.values(r.timings)) expect(v).toBeGreaterThanOrEqual(0);
    expect(r.timings.totalMs).toBeGreaterThanOrEqual(r.timings.firstByteMs);
    expect(r.timings.totalMs).toBeGreaterThanOrEqual(r.timings.connectMs + r.timings.firstByteMs + r.timings.downloadMs - 0.01);
    expect(r.timings.tlsMs).toBe(0);
  });

  it("HEAD and 204 answers have empty bodies", async () => {
    const s = await serve((req, res) => {
      res.statusCode = req.url === "/none" ? 204 : 200;
      res.setHeader("content-length", req.url === "/none" ? "0" : "10");
      res.end(req.method === "HEAD" || req.url === "/none" ? undefined : "0123456789");
    });
    const head = await sendHttp(prepared(s.url, { method: "HEAD" }));
    expect(head).toMatchObject({ status: 200, body: "", bodyEncoding: "utf8", bodyTruncated: false });
    expect(await sendHttp(prepared(`${s.url}/none`))).toMatchObject({ status: 204, statusText: "No Content", body: "" });
  });

  it("keeps a server's own status text", async () => {
    const s = await serve((_req, res) => {
      res.writeHead(418, "Short and stout");
      res.end();
    });
    expect(await sendHttp(prepared(s.url))).toMatchObject({ status: 418, statusText: "Short and stout" });
  });
});

describe("sendHttp: keep-alive pool", () => {
  it("reuses the connection: the second request reports 0 for dns, connect and tls", async () => {
    const s = await serve(echoHandler, "");
    const pool = new ConnectionPool();
    try {
      const first = await sendHttp(prepared(`${s.url}/1`), { agentPool: pool });
      const second = await sendHttp(prepared(`${s.url}/2`), { agentPool: pool });
      expect(first.timings.connectMs).toBeGreaterThan(0);
      expect(first.timings.dnsMs).toBeGreaterThan(0); // "localhost" goes through the guard's lookup
      expect(second.timings).toMatchObject({ dnsMs: 0, connectMs: 0, tlsMs: 0 });
      expect(second.timings.totalMs).toBeGreaterThanOrEqual(second.timings.firstByteMs);
      expect(s.connections()).toBe(1);
      for (let i = 0; i < 20; i++) await sendHttp(prepared(`${s.url}/${i}`), { agentPool: pool });
      expect(s.connections()).toBe(1);
    } finally {
      pool.close();
    }
  });

  it("without a pool each send opens and closes its own connection", async () => {
    const s = await serve(echoHandler);
    await sendHttp(prepared(s.url));
    await sendHttp(prepared(s.url));
    expect(s.connections()).toBe(2);
  });
});

describe("sendHttp: redirects", () => {
  let target: TestServer;
  let redirector: TestServer;
  beforeAll(async () => {
    target = await serve(echoHandler);
    redirector = await serve((req, res) => {
      const u = new URL(req.url ?? "/", "http://x");
      if (u.pathname === "/echo") return echoHandler(req, res);
      void readAll(req).then(() => {
        const status = Number(u.searchParams.get("status") ?? 302);
        const to = u.searchParams.get("to") ?? "/echo";
        if (u.pathname === "/loop") {
          res.writeHead(302, { location: "/loop" });
          return res.end();
        }
        res.writeHead(status, { location: to, "content-length": "2" });
        res.end("go");
      });
    });
  });

  const post = (url: string, extra: Partial<PreparedRequest> = {}) =>
    prepared(url, { method: "POST", headers: [{ key: "Content-Type", value: "text/plain" }, { key: "Content-Length", value: "4" }], body: Buffer.from("data"), ...extra });

  it.each([
    [301, "POST", "GET", false],
    [302, "POST", "GET", false],
    [303, "POST", "GET", false],
    [303, "PUT", "GET", false],
    [307, "POST", "POST", true],
    [308, "POST", "POST", true],
    [301, "PUT", "PUT", true],
    [308, "PATCH", "PATCH", true],
  ])("%i turns %s into %s (body kept: %s)", async (status, method, expected, bodyKept) => {
    const r = await sendHttp(post(`${redirector.url}/start?status=${status}`, { method }));
    expect(r.status).toBe(200);
    expect(r.url).toBe(`${redirector.url}/echo`);
    expect(r.redirects).toEqual([{ status, url: `${redirector.url}/start?status=${status}` }]);
    const e = echoOf(r.body);
    expect(e.method).toBe(expected);
    expect(e.body).toBe(bodyKept ? "data" : "");
    expect(echoHeader(e, "content-type")).toBe(bodyKept ? "text/plain" : undefined);
  });

  it("keeps Authorization on a same-origin hop and drops it (and Cookie) on a cross-origin one", async () => {
    const headers = [
      { key: "Authorization", value: "Bearer secret" },
      { key: "Cookie", value: "sid=1" },
      { key: "X-Other", value: "kept" },
    ];
    const same = echoOf((await sendHttp(prepared(`${redirector.url}/start?to=/echo`, { headers }))).body);
    expect(echoHeader(same, "authorization")).toBe("Bearer secret");
    const crossUrl = `${redirector.url}/start?to=${encodeURIComponent(`${target.url}/landing`)}`;
    const r = await sendHttp(prepared(crossUrl, { headers }));
    expect(r.url).toBe(`${target.url}/landing`);
    const cross = echoOf(r.body);
    expect(echoHeader(cross, "authorization")).toBeUndefined();
    expect(echoHeader(cross, "cookie")).toBeUndefined();
    expect(echoHeader(cross, "x-other")).toBe("kept");
  });

  it("follows a chain and lists every hop", async () => {
    const hop2 = `/start?status=307&to=${encodeURIComponent("/echo")}`;
    const r = await sendHttp(prepared(`${redirector.url}/start?status=301&to=${encodeURIComponent(hop2)}`));
    expect(r.redirects.map((h) => h.status)).toEqual([301, 307]);
    expect(echoOf(r.body).url).toBe("/echo");
  });

  it("returns the 3xx itself when followRedirects is off", async () => {
    const r = await sendHttp(prepared(`${redirector.url}/start?status=302`, { settings: { followRedirects: false } }));
    expect(r).toMatchObject({ status: 302, body: "go", redirects: [] });
    expect(r.headers.find((h) => h.key.toLowerCase() === "location")?.value).toBe("/echo");
  });

  it("stops a loop at maxRedirects", async () => {
    const err = await sendError(sendHttp(prepared(`${redirector.url}/loop`, { settings: { maxRedirects: 3 } })));
    expect(err.code).toBe("too_many_redirects");
    expect(err.message).toMatch(/after 3 redirects/);
  });

  it("maxRedirects 0 refuses the first redirect", async () => {
    expect((await sendError(sendHttp(prepared(`${redirector.url}/start`, { settings: { maxRedirects: 0 } })))).code).toBe("too_many_redirects");
  });
});

describe("sendHttp: cookies", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await serve((req, res) => {
      if (req.url === "/login") {
        res.setHeader("set-cookie", ["sid=abc; Path=/; HttpOnly; SameSite=Lax", "pref=dark; Max-Age=3600; Secure", "gone=x; Expires=Wed, 21 Oct 2015 07:28:00 GMT"]);
        return res.end("ok");
      }
      if (req.url === "/bounce") {
        res.writeHead(302, { location: "/echo", "set-cookie": "hop=1; Path=/" });
        return res.end();
      }
      echoHandler(req, res);
    });
  });

  it("parses Set-Cookie with its attributes", async () => {
    const before = Date.now();
    const r = await sendHttp(prepared(`${s.url}/login`));
    const byName = Object.fromEntries(r.cookies.map((c) => [c.name, c]));
    expect(byName.sid).toEqual({ name: "sid", value: "abc", domain: "127.0.0.1", path: "/", httpOnly: true, secure: false, sameSite: "Lax" });
    expect(byName.pref).toMatchObject({ value: "dark", secure: true, httpOnly: false });
    const expires = Date.parse(byName.pref.expires!);
    expect(expires).toBeGreaterThanOrEqual(before + 3_599_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 3_601_000);
    expect(byName.gone.expires).toBe("2015-10-21T07:28:00.000Z");
    expect(byName.sid.expires).toBeUndefined();
  });

  it("stores cookies in a jar and sends them on later requests and redirect hops (a Secure one only over https)", async () => {
    const jar = new CookieJar();
    await sendHttp(prepared(`${s.url}/login`), { cookieJar: jar });
    const later = echoOf((await sendHttp(prepared(`${s.url}/echo`, { headers: [{ key: "Cookie", value: "mine=1" }] }), { cookieJar: jar })).body);
    const cookie = echoHeader(later, "cookie") ?? "";
    expect(cookie.split("; ").sort()).toEqual(["mine=1", "sid=abc"]);

    const jar2 = new CookieJar();
    const r = await sendHttp(prepared(`${s.url}/bounce`), { cookieJar: jar2 });
    expect(echoHeader(echoOf(r.body), "cookie")).toBe("hop=1");
    expect(r.cookies.map((c) => c.name)).toEqual(["hop"]);
  });

  it("without a jar sends no cookies of its own", async () => {
    await sendHttp(prepared(`${s.url}/login`));
    expect(echoHeader(echoOf((await sendHttp(prepared(`${s.url}/echo`))).body), "cookie")).toBeUndefined();
  });
});

describe("sendHttp: bodies", () => {
  const json = JSON.stringify({ hello: "wörld", list: Array.from({ length: 200 }, (_, i) => i) });
  const binary = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe, 0x01]);
  let s: TestServer;
  beforeAll(async () => {
    s = await serve((req, res) => {
      const u = new URL(req.url ?? "/", "http://x");
      const send = (type: string | undefined, body: Buffer, encoding?: string) => {
        if (type) res.setHeader("content-type", type);
        if (encoding) res.setHeader("content-encoding", encoding);
        res.end(body);
      };
      switch (u.pathname) {
        case "/gzip":
          return send("application/json", zlib.gzipSync(json), "gzip");
        case "/br":
          return send("application/json", zlib.brotliCompressSync(json), "br");
        case "/deflate":
          return send("application/json", zlib.deflateSync(json), "deflate");
        case "/deflate-raw":
          return send("application/json", zlib.deflateRawSync(json), "deflate");
        case "/bad-gzip":
          return send("application/json", Buffer.from("not gzip at all"), "gzip");
        case "/binary":
          return send("application/octet-stream", binary);
        case "/png-typed-text":
          return send("image/png", Buffer.from("plain words"));
        case "/untyped-text":
          return send(undefined, Buffer.from("ünïcode text"));
        case "/latin1":
          return send("text/plain; charset=iso-8859-1", Buffer.from([0x63, 0x61, 0x66, 0xe9]));
        case "/svg":
          return send("image/svg+xml", Buffer.from("<svg/>"));
        case "/big":
          return send("text/plain", Buffer.alloc(100_000, "a"));
        case "/big-gzip":
          return send("text/plain", zlib.gzipSync(Buffer.alloc(5_000_000, "a")), "gzip");
        case "/endless": {
          res.setHeader("content-type", "application/octet-stream");
          const chunk = Buffer.alloc(16 * 1024, 0);
          const pump = () => {
            while (res.write(chunk));
          };
          res.on("drain", pump);
          pump();
          return;
        }
      }
    });
  });

  it.each(["gzip", "br", "deflate", "deflate-raw"])("decodes %s", async (path) => {
    const r = await sendHttp(prepared(`${s.url}/${path}`));
    expect(r.bodyEncoding).toBe("utf8");
    expect(r.body).toBe(json);
    expect(r.size.body).toBeLessThan(Buffer.byteLength(json)); // bytes on the wire, compressed
  });

  it("reports a body that is not what Content-Encoding says", async () => {
    const err = await sendError(sendHttp(prepared(`${s.url}/bad-gzip`)));
    expect(err.code).toBe("protocol");
    expect(err.message).toMatch(/not valid gzip/);
  });

  it.each([
    ["/binary", "base64", binary.toString("base64")],
    ["/png-typed-text", "utf8", "plain words"],
    ["/untyped-text", "utf8", "ünïcode text"],
    ["/latin1", "utf8", "café"],
    ["/svg", "utf8", "<svg/>"],
  ])("%s comes back as %s", async (path, encoding, body) => {
    expect(await sendHttp(prepared(`${s.url}${path}`))).toMatchObject({ bodyEncoding: encoding, body, bodyTruncated: false });
  });

  it("cuts a body at maxBodyBytes", async () => {
    const r = await sendHttp(prepared(`${s.url}/big`), { maxBodyBytes: 1000 });
    expect(r.bodyTruncated).toBe(true);
    expect(r.body).toBe("a".repeat(1000));
    expect(r.size.body).toBeGreaterThanOrEqual(1000);
    expect(r.size.body).toBeLessThanOrEqual(100_000);
  });

  it("cuts a compressed body by its decoded size (a small gzip that inflates hugely)", async () => {
    const r = await sendHttp(prepared(`${s.url}/big-gzip`), { maxBodyBytes: 10_000 });
    expect(r.bodyTruncated).toBe(true);
    expect(r.body).toBe("a".repeat(10_000));
    expect(r.size.body).toBeLessThan(10_000);
  });

  it("cuts a body that never ends, and answers promptly", async () => {
    const started = Date.now();
    const r = await sendHttp(prepared(`${s.url}/endless`, { settings: { timeoutMs: 10_000 } }), { maxBodyBytes: 200_000 });
    expect(r.bodyTruncated).toBe(true);
    expect(Buffer.from(r.body, "base64").length).toBe(200_000);
    expect(r.size.body).toBeGreaterThanOrEqual(200_000);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe("sendHttp: TLS", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startHttpsServer(echoHandler);
    servers.push(s);
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

  it("a header value with a line break is refused before sending", async () => {
    const s = await serve(echoHandler);
    const err = await sendError(sendHttp(prepared(s.url, { headers: [{ key: "X-Bad", value: "a\r\nInjected: 1" }] })));
    expect(err.code).toBe("protocol");
  });
});
