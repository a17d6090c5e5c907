// Response bodies through the HTTP client against a real server: gzip,
// deflate and brotli, text or base64, charsets, and the size cap (including a
// small gzip that inflates hugely and a body that never ends).
import zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { prepared, sendError, serverSet, type TestServer } from "@/server/testing/http-test-servers";
import { sendHttp } from "./http-client";

const { serve } = serverSet();

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
