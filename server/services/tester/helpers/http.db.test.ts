// proxy/http through its route handler against a real node:http server: a
// one-off request (method, headers, body) answers status, headers, body and
// timings and leaves no history; the outbound policy refuses cloud-metadata
// targets, private ones when OUTBOUND_ALLOW_PRIVATE=0, and a redirect to a
// blocked address, each as a 400 naming the field; an unreachable target is 502.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as proxyHttpRoute from "@/app/api/v1/proxy/http/route";
import { db } from "@/server/db/client";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "helpers-http";
let cookie: string;
let outsider: string;
let base: string;
const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    if (req.url === "/to-metadata") return void res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    if (req.url === "/hop") return void res.writeHead(301, { location: "/echo?from=hop" }).end();
    res.writeHead(201, { "content-type": "application/json", "x-seen": req.headers["x-trace"] ?? "" });
    res.end(JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(chunks).toString() }));
  });
});

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  cookie = await sessionCookie(o.user.id);
  outsider = await sessionCookie((await makeUser({ namespaces: { elsewhere: "owner" } })).user.id);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));
afterEach(() => {
  delete process.env.OUTBOUND_ALLOW_PRIVATE;
});

const send = (body: Record<string, unknown>, who = cookie) => call(proxyHttpRoute.POST, "/api/v1/proxy/http", { method: "POST", cookie: who, body: { namespace: NS, ...body } });

describe("POST /api/v1/proxy/http", () => {
  it("sends the request and answers status, headers, body and timings, saving nothing", async () => {
    const before = await db().testerHistory.count();
    const res = await send({ method: "PUT", url: `${base}/echo?q=1`, headers: { "X-Trace": "t-1" }, body: "hello" });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(201);
    expect(JSON.parse(res.body.body)).toEqual({ method: "PUT", url: "/echo?q=1", body: "hello" });
    expect(res.body.headers).toEqual(expect.arrayContaining([{ key: "x-seen", value: "t-1" }]));
    expect(res.body.timings.totalMs).toBeGreaterThan(0);
    const after = await db().testerHistory.count();
    expect(after).toBe(before);
  });

  it("follows redirects and reports them; a header list keeps repeated names", async () => {
    const res = await send({ url: `${base}/hop`, headers: [{ key: "X-Trace", value: "a" }] });
    expect(res.status).toBe(200);
    expect(res.body.redirects).toEqual([{ status: 301, url: `${base}/hop` }]);
    expect(JSON.parse(res.body.body).url).toBe("/echo?from=hop");
  });

  it("refuses the cloud-metadata address, before and after a redirect, as a 400 naming url", async () => {
    const direct = await send({ url: "http://169.254.169.254/latest/meta-data/" });
    expect(direct.status).toBe(400);
    expect(direct.body.details[0].field).toBe("url");
    const redirected = await send({ url: `${base}/to-metadata` });
    expect(redirected.status).toBe(400);
    expect(redirected.body.error).toMatch(/169\.254\.169\.254/);
  });

  it("refuses private targets when OUTBOUND_ALLOW_PRIVATE=0", async () => {
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    const res = await send({ url: `${base}/echo` });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("OUTBOUND_ALLOW_PRIVATE=0");
  });

  it("answers 502 when the target does not answer, 400 for bad input, 404 for a namespace the caller cannot read, 401 without a session", async () => {
    const port = (server.address() as AddressInfo).port;
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    expect((await send({ url: `http://127.0.0.1:${deadPort}/` })).status).toBe(502);
    expect((await send({ url: "not a url" })).status).toBe(400);
    expect((await send({ url: `${base}/`, method: "G E T" })).status).toBe(400);
    expect((await send({ url: `http://127.0.0.1:${port}/` }, outsider)).status).toBe(404);
    expect((await call(proxyHttpRoute.POST, "/api/v1/proxy/http", { method: "POST", body: { url: base } })).status).toBe(401);
  });
});
