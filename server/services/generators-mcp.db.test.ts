// The MCP generator against real MCP servers and the real stub: a server
// built with the official SDK (McpServer over Streamable HTTP, answering in
// SSE streams; and one speaking only the older HTTP+SSE transport) is listed
// from its URL, and the generated mocks, called with the SDK client through
// our MCP stub, list the same tools with the same schemas and answer tools,
// prompts and resources (the client checks structured results against the
// output schema). The outbound policy applies to the live connection.
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as generateRoute from "@/app/api/v1/generators/mcp/route";
import * as previewRoute from "@/app/api/v1/generators/mcp/preview/route";
import { invalidateAll } from "@/server/serving/mock-index";
import { call, sessionCookie } from "@/server/testing/fixtures";
import { useStubServer } from "@/server/testing/stub-server";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();
const NS = "gen-mcp";
const stub = useStubServer(NS);
let cookie: string;

/** The MCP server under test: two tools (one with an output schema), a prompt with arguments, a resource. */
function weatherServer(): McpServer {
  const server = new McpServer({ name: "Weather Desk", version: "2.1.0" });
  server.registerTool(
    "get_weather",
    {
      description: "Current weather for a city",
      inputSchema: { city: z.string().describe("City name"), days: z.number().int().min(1).max(7).optional() },
      outputSchema: { temperature: z.number(), conditions: z.enum(["sunny", "cloudy", "rain"]), observedAt: z.iso.datetime(), station: z.object({ id: z.uuid(), name: z.string() }) },
    },
    async ({ city }) => {
      const out = { temperature: 3, conditions: "rain" as const, observedAt: new Date().toISOString(), station: { id: randomUUID(), name: city } };
      return { content: [{ type: "text", text: JSON.stringify(out) }], structuredContent: out };
    },
  );
  server.registerTool("search_docs", { description: "Full-text search of the manual", inputSchema: { query: z.string(), limit: z.number().optional() } }, async ({ query }) => ({ content: [{ type: "text", text: `results for ${query}` }] }));
  server.registerPrompt(
    "code_review",
    { description: "Review a piece of code", argsSchema: { code: z.string().describe("The code"), language: z.string().optional() } },
    ({ code }) => ({ messages: [{ role: "user", content: { type: "text", text: `Review: ${code}` } }] }),
  );
  server.registerResource("readme", "file:///docs/README.md", { description: "The manual's first page", mimeType: "text/markdown" }, async (uri) => ({ contents: [{ uri: uri.href, text: "# Manual" }] }));
  return server;
}

/** Streamable HTTP at /mcp (stateless: a server per request, answers streamed as SSE), /old redirects there, anything else 404. */
const live = http.createServer(async (req, res) => {
  if (req.url === "/old") return void res.writeHead(307, { location: "/mcp" }).end();
  if (req.url !== "/mcp") return void res.writeHead(404).end();
  const server = weatherServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => void transport.close().then(() => server.close()));
  await server.connect(transport);
  await transport.handleRequest(req, res);
});

/** Only the older HTTP+SSE transport: GET /sse opens the stream, POST /messages?sessionId= carries the client's messages. */
const sseTransports = new Map<string, SSEServerTransport>();
const legacy = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  if (req.method === "GET" && url.pathname === "/sse") {
    const transport = new SSEServerTransport("/messages", res);
    sseTransports.set(transport.sessionId, transport);
    res.on("close", () => sseTransports.delete(transport.sessionId));
    await weatherServer().connect(transport);
    return;
  }
  const transport = url.pathname === "/messages" ? sseTransports.get(url.searchParams.get("sessionId") ?? "") : undefined;
  if (req.method === "POST" && transport) return void (await transport.handlePostMessage(req, res));
  res.writeHead(405).end();
});

let origin = "";
let legacyOrigin = "";
const clients: Client[] = [];

beforeAll(async () => {
  cookie = await sessionCookie(stub.actor.user.id);
  await new Promise<void>((r) => live.listen(0, "127.0.0.1", r));
  await new Promise<void>((r) => legacy.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(live.address() as AddressInfo).port}`;
  legacyOrigin = `http://127.0.0.1:${(legacy.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  delete process.env.OUTBOUND_ALLOW_PRIVATE;
});

afterAll(async () => {
  for (const s of [live, legacy]) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const preview = (body: unknown) => call(previewRoute.POST, `/api/v1/generators/mcp/preview?namespace=${NS}`, { method: "POST", cookie, body });
const generate = (body: unknown) => call(generateRoute.POST, `/api/v1/generators/mcp?namespace=${NS}`, { method: "POST", cookie, body });

async function connect(url: string) {
  const client = new Client({ name: "polymock-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  clients.push(client);
  return client;
}

describe("POST /api/v1/generators/mcp from a live MCP server", () => {
  it("lists the server's tools, prompts and resources, and the mocks serve the same tools/list, tools/call and prompts/get", async () => {
    const before = await preview({ url: `${origin}/mcp` });
    expect(before.status, before.text).toBe(200);
    expect(before.body.mocks.map((m: { id: string; status: string }) => [m.id, m.status])).toEqual([
      ["weather-desk-tool-get_weather", "new"],
      ["weather-desk-tool-search_docs", "new"],
      ["weather-desk-prompt-code_review", "new"],
      ["weather-desk-resource-file-docs-readme.md", "new"],
    ]);

    const res = await generate({ url: `${origin}/mcp`, pathPrefix: "/agents/weather" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 4, updated: 0, skipped: 0, warnings: [] });
    invalidateAll();

    const original = await (await connect(`${origin}/mcp`)).listTools();
    const mocked = await connect(`${stub.base}/agents/weather`);
    const { tools } = await mocked.listTools();
    expect(tools.map((t) => t.name)).toEqual(["get_weather", "search_docs"]);
    for (const tool of tools) {
      const from = original.tools.find((t) => t.name === tool.name)!;
      expect(tool.inputSchema, tool.name).toEqual(from.inputSchema);
      expect(tool.outputSchema, tool.name).toEqual(from.outputSchema);
      expect(tool.description).toBe(from.description);
    }

    // The client checks structuredContent against the listed output schema (it throws when it does not fit).
    const weather = await mocked.callTool({ name: "get_weather", arguments: { city: "Oslo" } });
    expect(weather.isError).toBe(false);
    const structured = weather.structuredContent as { temperature: number; conditions: string; observedAt: string; station: { id: string } };
    expect(["sunny", "cloudy", "rain"]).toContain(structured.conditions);
    expect(Number.isNaN(Date.parse(structured.observedAt))).toBe(false);
    expect(structured.station.id).toMatch(/^[0-9a-f-]{36}$/);

    const search = await mocked.callTool({ name: "search_docs", arguments: { query: "install", limit: 3 } });
    expect(JSON.parse((search.content as { text: string }[])[0].text)).toEqual({ tool: "search_docs", message: "Mocked answer of search_docs: Full-text search of the manual", arguments: { query: "install", limit: 3 } });

    const { prompts } = await mocked.listPrompts();
    expect(prompts).toEqual([{ name: "code_review", description: "Review a piece of code", arguments: [{ name: "code", description: "The code", required: true }, { name: "language", required: false }] }]);
    const prompt = await mocked.getPrompt({ name: "code_review", arguments: { code: "x = 1", language: "python" } });
    expect(prompt.messages).toEqual([{ role: "user", content: { type: "text", text: "Review a piece of code\n\ncode: x = 1\nlanguage: python" } }]);

    const resource = await mocked.readResource({ uri: "file:///docs/README.md" });
    expect(resource.contents[0]).toMatchObject({ uri: "file:///docs/README.md", mimeType: "text/markdown", text: "Mocked contents of readme" });

    const again = await generate({ url: `${origin}/mcp`, pathPrefix: "/agents/weather" });
    expect(again.body).toMatchObject({ created: 0, updated: 0, skipped: 4 });
  });

  it("follows a same-origin redirect, and falls back to HTTP+SSE for a server that only speaks it", async () => {
    const redirected = await preview({ url: `${origin}/old` });
    expect(redirected.status, redirected.text).toBe(200);
    expect(redirected.body.mocks).toHaveLength(4);
    const sse = await preview({ url: `${legacyOrigin}/sse` });
    expect(sse.status, sse.text).toBe(200);
    expect(sse.body.mocks.map((m: { id: string }) => m.id)).toEqual(redirected.body.mocks.map((m: { id: string }) => m.id));
  });

  it("the outbound policy: a cloud-metadata address is a 400 on url; loopback by name is refused at connect time when private targets are off", async () => {
    const metadata = await preview({ url: "http://169.254.169.254/mcp" });
    expect(metadata.status).toBe(400);
    expect(metadata.body.details[0]).toMatchObject({ field: "url", message: expect.stringMatching(/cloud-metadata/) });
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    const port = new URL(origin).port;
    const byName = await preview({ url: `http://localhost:${port}/mcp` });
    expect(byName.status, byName.text).toBe(400);
    expect(byName.body.details[0]).toMatchObject({ field: "url", message: expect.stringMatching(/private or loopback address and OUTBOUND_ALLOW_PRIVATE=0/) });
  });

  it("an unreachable server, or a URL that is no MCP server, is a 502", async () => {
    const closed = http.createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const unreachable = await preview({ url: `http://127.0.0.1:${port}/mcp` });
    expect(unreachable.status, unreachable.text).toBe(502);
    expect(unreachable.body).toMatchObject({ code: "external", error: expect.stringMatching(/cannot connect to an MCP server at 127\.0\.0\.1/) });
    const notMcp = await preview({ url: `${origin}/nothing-here` });
    expect(notMcp.status, notMcp.text).toBe(502);
  });
});

describe("POST /api/v1/generators/mcp from a list", () => {
  it("generates from a tools/list JSON-RPC response in YAML", async () => {
    const yaml = "jsonrpc: '2.0'\nid: 1\nresult:\n  tools:\n    - name: ping_host\n      inputSchema: {type: object, properties: {host: {type: string}}}\n";
    const res = await generate({ document: yaml, idPrefix: "ops" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.mocks[0]).toMatchObject({ id: "ops-tool-ping_host", protocol: "mcp", status: "created" });
  });

  it("a malformed list is a 400 with a pointer to the entry", async () => {
    const res = await preview({ document: { tools: [{ inputSchema: { type: "object" } }] } });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ field: "document", pointer: "/tools/0/name" });
    const syntax = await preview({ document: '{"tools": [' });
    expect(syntax.status).toBe(400);
    expect(syntax.body.details[0]).toMatchObject({ field: "document", line: 1 });
  });
});
