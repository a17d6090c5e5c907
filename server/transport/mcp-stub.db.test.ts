// MCP mocks served to the official SDK client (Client + StreamableHTTPClientTransport)
// over a real socket: an in-process node:http server running the stub fast path.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { db } from "@/server/db/client";
import { invalidateAll, stopListening } from "@/server/serving/mock-index";
import { saveMock } from "@/server/services/mocks";
import { createMockFromUndefinedRequest } from "@/server/services/undefined-requests";
import { resolveNamespace } from "@/server/services/namespace-access";
import { actorFor, makeNamespace, makeUser } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { handleStubRequest } from "./http-stub";
import { stubRecorder } from "@/server/serving/recorder";

useTestDatabase();

const server = http.createServer((req, res) => void handleStubRequest(req, res, randomUUID()));
let base = "";
let actor: ReturnType<typeof actorFor>;
const scopes: Record<string, Awaited<ReturnType<typeof resolveNamespace>>> = {};
const clients: Client[] = [];

beforeAll(async () => {
  const { user } = await makeUser();
  actor = actorFor(user);
  for (const name of ["mcp", "mcp-empty", "mcp-http"]) {
    await makeNamespace(name, { [user.id]: "owner" });
    scopes[name] = await resolveNamespace(actor, name);
  }
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  await save("mcp", { id: "weather-any", mcp: { method: "tools/call", tool: "get_weather", description: "Current weather for a city" }, response: { payload: { city: "$.req.city", temp: 21 } } });
  await save("mcp", {
    id: "weather-oslo",
    mcp: { method: "tools/call", tool: "get_weather", conditions: [{ path: "$.city", assertAction: "equals", value: "Oslo" }] },
    response: { payload: { city: "Oslo", temp: -3, sky: "snow" } },
  });
  await save("mcp", {
    id: "weather-hot",
    mcp: { method: "tools/call", tool: "get_weather", conditions: [{ path: "$.city", assertAction: "equals", value: "Cairo" }, { path: "$.days", assertAction: "gt", value: 1 }] },
    response: { payload: { city: "Cairo", forecast: "hot for $.req.days days" } },
  });
  await save("mcp", { id: "failing-tool", mcp: { method: "tools/call", tool: "flaky" }, response: { statusCode: 500, payload: { error: "upstream down" } } });
  await save("mcp", {
    id: "greeting",
    mcp: { method: "prompts/get", prompt: "greet", description: "Say hello" },
    response: {
      payload: {
        arguments: [{ name: "name", description: "Who to greet", required: true }, { name: "tone" }],
        messages: [
          { role: "user", text: "Please greet $.req.name in a $.req.tone tone." },
          { role: "assistant", text: "Hello, $.req.name!" },
        ],
      },
    },
  });
  await save("mcp", { id: "greeting-formal", mcp: { method: "prompts/get", prompt: "greet", conditions: [{ path: "$.tone", assertAction: "equals", value: "formal" }] }, response: { payload: "Good day, {{$.req.name}}." } });
  await save("mcp", { id: "readme", mcp: { method: "resources/read", resource: "file:///README.md", description: "The readme" }, response: { payload: "# Hello", headers: { "Content-Type": "text/markdown" } } });
  // A second MCP server in the same namespace, under a pathPrefix.
  await save("mcp", { id: "billing-tool", pathPrefix: "/agents/billing", mcp: { method: "tools/call", tool: "get_invoice", description: "An invoice" }, response: { payload: { invoice: "$.req.id", total: 42 } } });
  // An HTTP JSON-RPC mock at the root of a namespace without MCP mocks keeps its requests.
  await save("mcp-http", { http: { route: "/", httpMethod: "POST" }, response: { payload: { jsonrpc: "2.0", id: 1, result: "0x10" } } });
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await stubRecorder().drain();
  await stopListening();
  invalidateAll();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function save(ns: string, input: unknown) {
  const result = await saveMock(actor, scopes[ns], MockInput.parse(input));
  invalidateAll();
  return result;
}

async function connect(path: string) {
  const client = new Client({ name: "polymock-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}${path}`));
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

const textOf = (result: unknown) => JSON.parse((result as { content: { type: string; text: string }[] }).content[0].text);

async function rpc(path: string, body: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers }, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: text ? JSON.parse(text) : undefined };
}

describe("MCP over Streamable HTTP with the official SDK client", () => {
  it("initializes with a session id, advertises tools and prompts, and lists the tools with schemas from their conditions", async () => {
    const { client, transport } = await connect("/stubs/mcp");
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, prompts: {}, resources: {} });
    expect(client.getServerVersion()?.name).toBe("polymock mcp");
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(["flaky", "get_weather"]); // the pathPrefix server's tool is not here
    const weather = tools.find((t) => t.name === "get_weather")!;
    expect(weather.description).toBe("Current weather for a city");
    expect(weather.inputSchema).toEqual({ type: "object", properties: { city: { type: "string" }, days: { type: "number" } } });
    expect(await client.ping()).toEqual({});
  });

  it("calls a tool: the payload's JSON as one text item, selected by conditions on the arguments, templated", async () => {
    const { client } = await connect("/stubs/mcp");
    const any = await client.callTool({ name: "get_weather", arguments: { city: "Lima" } });
    expect(any.isError).toBe(false);
    expect(any.content).toHaveLength(1);
    expect(textOf(any)).toEqual({ city: "Lima", temp: 21 });
    expect(textOf(await client.callTool({ name: "get_weather", arguments: { city: "Oslo" } }))).toEqual({ city: "Oslo", temp: -3, sky: "snow" });
    expect(textOf(await client.callTool({ name: "get_weather", arguments: { city: "Cairo", days: 3 } }))).toEqual({ city: "Cairo", forecast: "hot for 3 days" });
    // Cairo with days 1 fails the second condition: the catch-all answers.
    expect(textOf(await client.callTool({ name: "get_weather", arguments: { city: "Cairo", days: 1 } }))).toEqual({ city: "Cairo", temp: 21 });
    const flaky = await client.callTool({ name: "flaky", arguments: {} });
    expect(flaky.isError).toBe(true);
    expect(textOf(flaky)).toEqual({ error: "upstream down" });

    await stubRecorder().drain();
    const logs = await db().requestLog.findMany({ where: { mockId: "weather-oslo" } });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ method: "POST", status: 200 });
  });

  it("lists prompts with their arguments and renders one with the call's arguments", async () => {
    const { client } = await connect("/stubs/mcp");
    const { prompts } = await client.listPrompts();
    expect(prompts).toEqual([
      {
        name: "greet",
        description: "Say hello",
        arguments: [{ name: "name", description: "Who to greet", required: true }, { name: "tone" }],
      },
    ]);
    const casual = await client.getPrompt({ name: "greet", arguments: { name: "Ada", tone: "warm" } });
    expect(casual).toEqual({
      description: "Say hello",
      messages: [
        { role: "user", content: { type: "text", text: "Please greet Ada in a warm tone." } },
        { role: "assistant", content: { type: "text", text: "Hello, Ada!" } },
      ],
    });
    expect(casual).not.toHaveProperty("arguments");
    const formal = await client.getPrompt({ name: "greet", arguments: { name: "Ada", tone: "formal" } });
    expect(formal.messages).toEqual([{ role: "user", content: { type: "text", text: "Good day, Ada." } }]);
  });

  it("lists and reads resources", async () => {
    const { client } = await connect("/stubs/mcp");
    expect((await client.listResources()).resources).toEqual([{ uri: "file:///README.md", name: "file:///README.md", description: "The readme", mimeType: "text/markdown" }]);
    expect(await client.readResource({ uri: "file:///README.md" })).toEqual({ contents: [{ uri: "file:///README.md", mimeType: "text/markdown", text: "# Hello" }] });
    await expect(client.readResource({ uri: "file:///nope" })).rejects.toMatchObject({ code: -32002 });
  });

  it("an unknown tool or prompt is a JSON-RPC error and an undefined request (protocol mcp)", async () => {
    const { client } = await connect("/stubs/mcp");
    await expect(client.callTool({ name: "no_such_tool", arguments: { q: 1 } })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool: no_such_tool") });
    await expect(client.getPrompt({ name: "no_such_prompt" })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Unknown prompt: no_such_prompt") });
    await stubRecorder().drain();
    const rows = await db().undefinedRequest.findMany({ where: { namespaceId: scopes.mcp.id, path: { contains: "no_such" } }, orderBy: { path: "asc" } });
    expect(rows.map((r) => ({ protocol: r.protocol, method: r.method, path: r.path }))).toEqual([
      { protocol: "mcp", method: "POST", path: "/ prompts/get no_such_prompt" },
      { protocol: "mcp", method: "POST", path: "/ tools/call no_such_tool" },
    ]);
    expect(rows[1].body).toEqual({ name: "no_such_tool", arguments: { q: 1 } });
  });

  it("serves the mocks of a pathPrefix at /stubs/<namespace><pathPrefix>, without prompts when it has none", async () => {
    const { client } = await connect("/stubs/mcp/agents/billing");
    expect(client.getServerCapabilities()?.prompts).toBeUndefined();
    expect((await client.listTools()).tools).toEqual([{ name: "get_invoice", description: "An invoice", inputSchema: { type: "object" } }]);
    expect(textOf(await client.callTool({ name: "get_invoice", arguments: { id: "INV-7" } }))).toEqual({ invoice: "INV-7", total: 42 });
    await expect(client.callTool({ name: "get_weather", arguments: { city: "Oslo" } })).rejects.toMatchObject({ code: -32602 });
  });

  it("a namespace without MCP mocks is an empty MCP server at its root; calls to it are captured", async () => {
    const { client } = await connect("/stubs/mcp-empty");
    expect((await client.listTools()).tools).toEqual([]);
    await expect(client.callTool({ name: "anything", arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await stubRecorder().drain();
    const rows = await db().undefinedRequest.findMany({ where: { namespaceId: scopes["mcp-empty"].id } });
    expect(rows).toEqual([expect.objectContaining({ protocol: "mcp", path: "/ tools/call anything" })]);
  });

  it("an undefined tool call becomes a tool mock of the same server path", async () => {
    const { client } = await connect("/stubs/mcp/agents/billing");
    await expect(client.callTool({ name: "refund", arguments: { id: "INV-7" } })).rejects.toMatchObject({ code: -32602 });
    await stubRecorder().drain();
    const row = await db().undefinedRequest.findFirstOrThrow({ where: { namespaceId: scopes.mcp.id, path: "/agents/billing tools/call refund" } });
    await createMockFromUndefinedRequest(actor, scopes.mcp, row.id, { id: "refund-tool", response: { payload: { refunded: "$.req.id" } } });
    invalidateAll();
    expect(await db().mock.findFirstOrThrow({ where: { id: "refund-tool" } })).toMatchObject({ protocol: "mcp", method: "tools/call", route: "refund" });
    expect(textOf(await client.callTool({ name: "refund", arguments: { id: "INV-7" } }))).toEqual({ refunded: "INV-7" });
  });

  it("duplicate detection: the same tool and conditions on one server path is a duplicate; another path or other conditions are not", async () => {
    await expect(save("mcp", { mcp: { method: "tools/call", tool: "get_weather", conditions: [{ path: "$.city", assertAction: "equals", value: "Oslo" }] }, response: { payload: 1 } })).rejects.toMatchObject({ code: "duplicate_entity" });
    await save("mcp", { pathPrefix: "/elsewhere", mcp: { method: "tools/call", tool: "get_weather", conditions: [{ path: "$.city", assertAction: "equals", value: "Oslo" }] }, response: { payload: 1 } });
    await save("mcp", { mcp: { method: "tools/call", tool: "get_weather", conditions: [{ path: "$.city", assertAction: "equals", value: "Rome" }] }, response: { payload: 1 } });
  });

  it("ends a session with DELETE and answers the client's stream GET with 405", async () => {
    const { transport } = await connect("/stubs/mcp");
    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();
    const get = await fetch(`${base}/stubs/mcp`, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST, DELETE");
  });
});

describe("MCP JSON-RPC edge cases (raw HTTP)", () => {
  it("malformed JSON is a -32700 parse error with HTTP 400", async () => {
    const out = await rpc("/stubs/mcp", '{"jsonrpc":"2.0",');
    expect(out.status).toBe(400);
    expect(out.json).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: expect.any(String) } });
  });

  it("an unknown method is -32601; notifications get 202 without a body; a batch gets an array", async () => {
    const unknown = await rpc("/stubs/mcp", JSON.stringify({ jsonrpc: "2.0", id: 7, method: "sampling/whatever" }));
    expect(unknown.status).toBe(200);
    expect(unknown.json).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32601 } });
    const note = await rpc("/stubs/mcp", JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    expect(note.status).toBe(202);
    expect(note.text).toBe("");
    const batch = await rpc(
      "/stubs/mcp",
      JSON.stringify([
        { jsonrpc: "2.0", id: "a", method: "ping" },
        { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1 } },
        { jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: "get_weather", arguments: { city: "Oslo" } } },
        { hello: "world" },
      ]),
    );
    expect(batch.status).toBe(200);
    expect(batch.json).toEqual([
      { jsonrpc: "2.0", id: "a", result: {} },
      { jsonrpc: "2.0", id: "b", result: { content: [{ type: "text", text: JSON.stringify({ city: "Oslo", temp: -3, sky: "snow" }) }], isError: false } },
      { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.any(String) } },
    ]);
  });

  it("negotiates the protocol version: a supported one is echoed, an unknown one gets the latest", async () => {
    const init = (v: string) => rpc("/stubs/mcp", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: v, capabilities: {}, clientInfo: { name: "x", version: "1" } } }));
    const old = await init("2025-03-26");
    expect(old.json.result.protocolVersion).toBe("2025-03-26");
    expect(old.headers.get("mcp-session-id")).toBeTruthy();
    expect((await init("1999-01-01")).json.result.protocolVersion).toBe("2025-11-25");
  });

  it("bad params are -32602, never a 500", async () => {
    const out = await rpc("/stubs/mcp", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5 } }));
    expect(out.json).toMatchObject({ id: 1, error: { code: -32602 } });
    const args = await rpc("/stubs/mcp", JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_weather", arguments: [1] } }));
    expect(args.json).toMatchObject({ id: 2, error: { code: -32602 } });
  });

  it("JSON that is not JSON-RPC, and JSON-RPC at a root with an HTTP mock, stay HTTP's", async () => {
    const plain = await rpc("/stubs/mcp", JSON.stringify({ hello: "world" }));
    expect(plain.status).toBe(404);
    expect(plain.json.code).toBe("not_found");
    const eth = await rpc("/stubs/mcp-http", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_blockNumber" }));
    expect(eth.json).toEqual({ jsonrpc: "2.0", id: 1, result: "0x10" });
    const init = await rpc("/stubs/mcp-http", JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: {} }));
    expect(init.json).toEqual({ jsonrpc: "2.0", id: 1, result: "0x10" });
  });
});

describe("response.mcpIsError", () => {
  it("makes a tools/call result an error result (isError: true) although the mock answers 200", async () => {
    await save("mcp", { id: "denied", pathPrefix: "/agents/guarded", mcp: { method: "tools/call", tool: "delete_repo" }, response: { payload: { reason: "not allowed" }, mcpIsError: true } });
    await save("mcp", { id: "allowed", pathPrefix: "/agents/guarded", mcp: { method: "tools/call", tool: "read_repo" }, response: { payload: { ok: true } } });
    const { client } = await connect("/stubs/mcp/agents/guarded");
    const denied = await client.callTool({ name: "delete_repo", arguments: {} });
    expect(denied.isError).toBe(true);
    expect(textOf(denied)).toEqual({ reason: "not allowed" });
    expect((await client.callTool({ name: "read_repo", arguments: {} })).isError).toBe(false);
  });
});
