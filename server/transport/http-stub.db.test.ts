// The node:http fast path on a real socket: request bodies (read with a
// callback, limited by STUB_MAX_BODY_BYTES) and the bodiless path.
import { describe, expect, it } from "vitest";
import { useStubServer } from "@/server/testing/stub-server";
import { useTestDatabase } from "@/server/testing/use-test-database";

// Read once per process, at the first request with a body: set before any.
process.env.STUB_MAX_BODY_BYTES = "1024";

useTestDatabase();
const stubs = useStubServer("httpstub", { requestId: "http-stub-test" });

describe("node:http stub path", () => {
  it("matches on a body sent in several chunks and answers a bodiless GET synchronously", async () => {
    await stubs.save({ http: { route: "/orders", httpMethod: "POST", conditions: [{ path: "$.type", assertAction: "equals", value: "express" }] }, response: { statusCode: 201, payload: { got: "$.req.type" } } });
    await stubs.save({ http: { route: "/ping", httpMethod: "GET" }, response: { payload: "pong" } });
    const body = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"type":'));
        c.enqueue(new TextEncoder().encode('"express"}'));
        c.close();
      },
    });
    const res = await fetch(`${stubs.base}/orders`, { method: "POST", headers: { "content-type": "application/json" }, body, duplex: "half" } as RequestInit);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ got: "express" });
    const ping = await fetch(`${stubs.base}/ping`);
    expect(await ping.text()).toBe("pong");
  });

  it("refuses a body over the limit with 413 in the error envelope, and keeps serving", async () => {
    const res = await fetch(`${stubs.base}/orders`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "x".repeat(2000) }) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: "payload_too_large", request_id: "http-stub-test" });
    const again = await fetch(`${stubs.base}/orders`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ type: "express" }) });
    expect(again.status).toBe(201);
  });
});
