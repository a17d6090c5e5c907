// The outbound HTTP client against real servers: an exchange and its
// timings, keep-alive reuse, redirects and cookies. Bodies, TLS, the outbound
// policy and failures have their own files (http-client-*.test.ts). No network mocks.
import { CookieJar } from "tough-cookie";
import { beforeAll, describe, expect, it } from "vitest";
import { echoHandler, echoHeader, readAll, prepared, sendError, serverSet, type Echo, type TestServer } from "@/server/testing/http-test-servers";
import { ConnectionPool, sendHttp } from "./http-client";
import type { PreparedRequest } from "./prepared-request";

const { serve } = serverSet();
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
