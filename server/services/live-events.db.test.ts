// GET /api/v1/events streams the namespace's stub hits and misses and mock
// changes, from any process (PostgreSQL NOTIFY), and nothing of other namespaces.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as events from "@/app/api/v1/events/route";
import { MockInput } from "@/server/contracts/mock";
import { actorFor, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { resolveNamespace } from "@/server/services/namespace-access";
import { saveMock } from "@/server/services/mocks";
import { serveStub } from "@/server/transport/stub-core";
import { stubRecorder } from "@/server/serving/recorder";

useTestDatabase();

let cookie = "";
let actor: ReturnType<typeof actorFor>;
beforeAll(async () => {
  const { user } = await makeUser();
  await makeNamespace("sandbox", { [user.id]: "owner" });
  await makeNamespace("other", { [user.id]: "owner" });
  actor = actorFor(user);
  cookie = await sessionCookie(user.id);
});
afterAll(async () => {
  await stubRecorder().drain();
  await stopListening();
});

/** Reads server-sent events from a Response until `count` events arrived. */
async function collect(res: Response, count: number, timeoutMs = 5000) {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const got: { event: string; data: unknown }[] = [];
  let buffer = "";
  const deadline = Date.now() + timeoutMs;
  while (got.length < count && Date.now() < deadline) {
    const { value, done } = await Promise.race([reader.read(), new Promise<{ value: undefined; done: true }>((r) => setTimeout(() => r({ value: undefined, done: true }), deadline - Date.now()))]);
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let idx;
    while ((idx = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, idx);
      buffer = buffer.slice(idx + 2);
      const event = /^event: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (event && data) got.push({ event, data: JSON.parse(data) });
    }
  }
  await reader.cancel();
  return got;
}

describe("live events", () => {
  it("streams mock changes, hits and misses of the namespace only", async () => {
    const controller = new AbortController();
    const req = new Request("http://localhost/api/v1/events?namespace=sandbox", { headers: { cookie, "x-polymock-peer": "127.0.0.1" }, signal: controller.signal });
    const res = await events.GET(req, { params: Promise.resolve(undefined as never) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const received = collect(res, 3);
    await new Promise((r) => setTimeout(r, 300)); // LISTEN connection settles

    const other = await resolveNamespace(actor, "other");
    await saveMock(actor, other, MockInput.parse({ http: { route: "/elsewhere" } })); // must not appear
    const scope = await resolveNamespace(actor, "sandbox");
    await saveMock(actor, scope, MockInput.parse({ id: "live", http: { route: "/live" }, response: { payload: 1 } }));
    invalidateAll();
    await serveStub({ method: "GET", url: "/stubs/sandbox/live", headers: {}, rawBody: "", requestId: "r1" });
    await serveStub({ method: "GET", url: "/stubs/sandbox/nothing", headers: {}, rawBody: "", requestId: "r2" });
    await stubRecorder().drain();

    const got = await received;
    controller.abort();
    expect(got.map((e) => e.event)).toEqual(["mocks.changed", "stub.hit", "stub.miss"]);
    expect(got[1].data).toMatchObject({ mockId: "live", method: "GET", url: "/live", status: 200 });
    expect(got[2].data).toMatchObject({ method: "GET", path: "/nothing" });
  });

  it("a namespace the caller cannot read is 404", async () => {
    const { user } = await makeUser();
    const res = await events.GET(new Request("http://localhost/api/v1/events?namespace=sandbox", { headers: { cookie: await sessionCookie(user.id) } }), { params: Promise.resolve(undefined as never) });
    expect(res.status).toBe(404);
  });
});
