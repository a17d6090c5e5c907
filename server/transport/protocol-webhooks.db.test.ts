// Webhook `trigger` and `async: false` through the serving core, for every
// protocol the stub front serves besides plain HTTP (server/transport/webhooks.db.test.ts
// covers HTTP): real clients' bytes on a real socket, a real receiver behind.
// Every webhook here is `async: false`, so when the answer arrives the
// receiver has already seen exactly the triggered ones, without waiting.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { once } from "node:events";
import { GraphQLClient, gql } from "graphql-request";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { drainWebhooks } from "@/server/services/webhooks";
import { useStubServer } from "@/server/testing/stub-server";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const clients: WebSocket[] = [];
const stub = useStubServer("proto-hooks", { requestId: "proto-hooks-request", webSockets: true, beforeClose: () => clients.forEach((c) => c.terminate()) });

const seen: string[] = [];
const receiver = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    seen.push(req.url!);
    res.writeHead(204);
    res.end();
  });
});
let hooks = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  hooks = (receiver.address() as AddressInfo).port;
});
afterAll(async () => {
  await drainWebhooks();
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
});

const TRIGGERS = ["on_success", "on_error", "always"] as const;
/** Three `async: false` webhooks, one per trigger, each to its own path. */
const withTriggers = (id: string) => TRIGGERS.map((trigger) => ({ url: `http://127.0.0.1:${hooks}/${id}/${trigger}`, trigger, async: false }));
/** The triggers whose webhook the receiver has seen for `id`. */
const delivered = (id: string) => TRIGGERS.filter((t) => seen.includes(`/${id}/${t}`));

/** After the answer: the triggered webhooks were delivered before it, and nothing else follows. */
async function expectDelivered(id: string, expected: string[]) {
  expect(delivered(id)).toEqual(expected);
  await drainWebhooks();
  expect(delivered(id)).toEqual(expected);
}

describe("GraphQL (graphql-request)", () => {
  const query = gql`
    query {
      hooked
    }
  `;

  it("a field answered 200 fires on_success and always, delivered before the answer", async () => {
    await stub.save({ graphql: { path: "/gql-ok", field: "hooked" }, response: { payload: { hooked: "yes" } }, webhooks: withTriggers("gql-ok") });
    expect(await new GraphQLClient(`${stub.base}/gql-ok`).request(query)).toEqual({ hooked: "yes" });
    await expectDelivered("gql-ok", ["on_success", "always"]);
  });

  it("a field whose mock answers 503 fires on_error and always", async () => {
    await stub.save({ graphql: { path: "/gql-down", field: "hooked" }, response: { statusCode: 503, payload: { hooked: null } }, webhooks: withTriggers("gql-down") });
    const res = await fetch(`${stub.base}/gql-down`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ query: "{ hooked }" }) });
    expect(res.status).toBe(503);
    await expectDelivered("gql-down", ["on_error", "always"]);
  });
});

describe("WebSocket (ws)", () => {
  async function reply(path: string, message: unknown): Promise<string> {
    const ws = new WebSocket(`${stub.origin.replace(/^http/, "ws")}/stubs/proto-hooks${path}`);
    clients.push(ws);
    await once(ws, "open");
    ws.send(JSON.stringify(message));
    const [data] = await once(ws, "message");
    ws.close();
    return String(data);
  }

  it("a mock of status 200 fires on_success and always before its reply frame", async () => {
    await stub.save({ socket: { serverName: "ws-ok", event: "ping" }, response: { payload: { pong: true } }, webhooks: withTriggers("ws-ok") });
    expect(JSON.parse(await reply("/ws-ok", { event: "ping", data: {} }))).toEqual({ pong: true });
    await expectDelivered("ws-ok", ["on_success", "always"]);
  });

  it("a mock of status 500 fires on_error and always (a message is judged on the mock's status)", async () => {
    await stub.save({ socket: { serverName: "ws-err", event: "ping" }, response: { statusCode: 500, payload: { failed: true } }, webhooks: withTriggers("ws-err") });
    expect(JSON.parse(await reply("/ws-err", { event: "ping", data: {} }))).toEqual({ failed: true });
    await expectDelivered("ws-err", ["on_error", "always"]);
  });
});

describe("SOAP", () => {
  const envelope = `<?xml version="1.0"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><GetUser xmlns="urn:users"><id>1</id></GetUser></soap:Body></soap:Envelope>`;
  const post = (path: string) => fetch(`${stub.base}${path}`, { method: "POST", headers: { "Content-Type": "text/xml; charset=utf-8", SOAPAction: '"urn:users#GetUser"' }, body: envelope });

  it("a Fault answer (500) fires on_error and always", async () => {
    await stub.save({ soap: { method: "GetUser", path: "/soap-fault" }, response: { soapFault: { faultString: "backend down" } }, webhooks: withTriggers("soap-fault") });
    const res = await post("/soap-fault");
    expect(res.status).toBe(500);
    expect(await res.text()).toContain("backend down");
    await expectDelivered("soap-fault", ["on_error", "always"]);
  });

  it("an envelope answer fires on_success and always", async () => {
    await stub.save({ soap: { method: "GetUser", path: "/soap-ok" }, response: { payload: "<GetUserResponse/>" }, webhooks: withTriggers("soap-ok") });
    expect((await post("/soap-ok")).status).toBe(200);
    await expectDelivered("soap-ok", ["on_success", "always"]);
  });
});

describe("SSE", () => {
  it("a stream answered 200 fires on_success and always before its headers", async () => {
    await stub.save({ sse: { eventPath: "/sse-hooked" }, response: { sseEventChain: { events: [{ data: "tick" }] } }, webhooks: withTriggers("sse-ok") });
    const res = await fetch(`${stub.base}/sse-hooked`, { headers: { Accept: "text/event-stream" } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("data: tick");
    await expectDelivered("sse-ok", ["on_success", "always"]);
  });
});

describe("S3", () => {
  it("is judged on the status the operation answers, not the mock's: a stored PUT fires on_success, a GET of a missing key on_error", async () => {
    await stub.save({ s3: { bucket: "hooked" }, webhooks: withTriggers("s3-put") });
    expect((await fetch(`${stub.base}/hooked/a.txt`, { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "hello" })).status).toBe(200);
    await expectDelivered("s3-put", ["on_success", "always"]);
    seen.length = 0;
    const missing = await fetch(`${stub.base}/hooked/missing.txt`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("NoSuchKey");
    // The same mock (same webhook paths), this time the answer is an error.
    await expectDelivered("s3-put", ["on_error", "always"]);
  });
});

describe("MCP (JSON-RPC over Streamable HTTP)", () => {
  const callTool = (name: string) =>
    fetch(stub.base, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }),
    });

  it("a tool whose mock answers 500 (an isError result) fires on_error and always", async () => {
    await stub.save({ mcp: { method: "tools/call", tool: "hooked_fail" }, response: { statusCode: 500, payload: { error: "down" } }, webhooks: withTriggers("mcp-err") });
    const res = await callTool("hooked_fail");
    expect(res.status).toBe(200);
    expect((await res.json()).result.isError).toBe(true);
    await expectDelivered("mcp-err", ["on_error", "always"]);
  });

  it("a tool answered normally fires on_success and always", async () => {
    await stub.save({ mcp: { method: "tools/call", tool: "hooked_ok" }, response: { payload: { ok: true } }, webhooks: withTriggers("mcp-ok") });
    expect((await (await callTool("hooked_ok")).json()).result.isError).toBeFalsy();
    await expectDelivered("mcp-ok", ["on_success", "always"]);
  });
});
