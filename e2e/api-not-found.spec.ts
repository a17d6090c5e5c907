// The real server (front + Next.js build): paths and methods the API does not
// have answer JSON in the error envelope, never Next.js's HTML page or an
// empty 405; Java's h2c upgrade offer is answered as plain HTTP/1.1.
import { expect, test } from "@playwright/test";
import { rawRequest } from "../server/testing/raw-http";

const port = () => Number(new URL(process.env.E2E_BASE_URL!).port);

test("unknown /api/v1, /swagger and /health paths are a JSON 404 not_found with request_id", async ({ request }) => {
  for (const [method, path] of [
    ["GET", "/api/v1/no-such-thing"],
    ["POST", "/api/v1/mocks/abc/nothing/here"],
    ["GET", "/api/v1/namespaces/sandbox/no-such-thing"],
    ["DELETE", "/swagger/doc.jsn"],
    ["GET", "/health/lve"],
  ]) {
    const res = await request.fetch(path, { method, headers: { "X-Request-Id": "e2e-not-found-1" } });
    expect(res.status(), `${method} ${path}`).toBe(404);
    expect(res.headers()["content-type"]).toMatch(/^application\/json/);
    expect(await res.json()).toMatchObject({ code: "not_found", request_id: "e2e-not-found-1" });
  }
});

test("a known path with a method its route does not have is a JSON 405 with Allow", async ({ request }) => {
  const res = await request.fetch("/api/v1/tags", { method: "DELETE" });
  expect(res.status()).toBe(405);
  expect(res.headers()["allow"]).toBe("GET, HEAD, OPTIONS, POST");
  const body = await res.json();
  expect(body).toMatchObject({ code: "method_not_allowed", details: { allow: ["GET", "HEAD", "OPTIONS", "POST"] } });
  expect(body.request_id).toBe(res.headers()["x-request-id"]);
});

test("malformed percent-encoding in an API path is a JSON 400", async () => {
  const res = await rawRequest(port(), "GET /api/v1/mocks/%zz HTTP/1.1\r\nHost: localhost\r\n\r\n");
  expect(res?.status).toBe(400);
  expect(JSON.parse(res!.body)).toMatchObject({ code: "validation" });
});

test("Java's h2c upgrade offer gets plain HTTP/1.1 answers from /health, /api/v1 and a stub", async () => {
  const java = (path: string) =>
    `GET ${path} HTTP/1.1\r\nConnection: Upgrade, HTTP2-Settings\r\nContent-Length: 0\r\nHost: localhost:${port()}\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\nUpgrade: h2c\r\nUser-Agent: Java-http-client/17.0.15\r\n\r\n`;
  const health = await rawRequest(port(), java("/health"));
  expect(health?.head).toMatch(/^HTTP\/1\.1 200 /);
  expect(JSON.parse(health!.body).status).toBe("up");
  const providers = await rawRequest(port(), java("/api/v1/auth/providers"));
  expect(providers?.head).toMatch(/^HTTP\/1\.1 200 /);
  const stub = await rawRequest(port(), java("/stubs/sandbox/nothing/here"));
  expect(stub?.status).toBe(404);
  expect(JSON.parse(stub!.body)).toMatchObject({ code: "not_found" });
});

test("headers over 16 KB are a 431 in the error envelope", async () => {
  const res = await rawRequest(port(), `GET /health HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"b".repeat(20_000)}\r\n\r\n`);
  expect(res?.status).toBe(431);
  expect(JSON.parse(res!.body)).toMatchObject({ code: "headers_too_large" });
});
