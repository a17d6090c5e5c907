// The catch-all routes under /api/v1, /swagger and /health, called as Next.js
// calls a route handler: every method of a path no route file serves is a 404
// in the error envelope, never an HTML page.
import { describe, expect, it } from "vitest";
import * as api from "@/app/api/v1/[...path]/route";
import * as health from "@/app/health/[...path]/route";
import * as swagger from "@/app/swagger/[...path]/route";

const METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;

describe.each([
  ["/api/v1/no-such-thing/42", api],
  ["/swagger/doc.jsn", swagger],
  ["/health/lve", health],
])("%s", (path, route) => {
  it.each(METHODS)("%s is a 404 not_found in the envelope, with the request id", async (method) => {
    const handler = route[method];
    const res = await handler(new Request(`http://localhost:5770${path}?x=1`, { method, headers: { "X-Request-Id": "catch-all-test-1" } }));
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(res.headers.get("x-request-id")).toBe("catch-all-test-1");
    expect(await res.json()).toEqual({ error: `Endpoint ${method} ${path} not found`, code: "not_found", request_id: "catch-all-test-1" });
  });

  it("makes up a request id when the client sent none", async () => {
    const res = await route.GET(new Request(`http://localhost:5770${path}`));
    const body = await res.json();
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get("x-request-id")).toBe(body.request_id);
  });
});
