// MCP helpers through their route handlers against servers built with the
// official SDK: McpServer over Streamable HTTP (stateless) and one speaking
// only the older HTTP+SSE transport. connect answers server info and
// capabilities, tools/list the tools with their input schemas, tools/call a
// tool's result (a failing tool as isError), resources/list the resources
// and templates; the caller's headers reach the server; the target is checked
// before connecting and after a redirect (cloud metadata always refused,
// private targets as OUTBOUND_ALLOW_PRIVATE says).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as connectRoute from "@/app/api/v1/api-tester/mcp/connect/route";
import * as resourcesRoute from "@/app/api/v1/api-tester/mcp/resources/list/route";
import * as callRoute from "@/app/api/v1/api-tester/mcp/tools/call/route";
import * as toolsRoute from "@/app/api/v1/api-tester/mcp/tools/list/route";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useStubServer } from "@/server/testing/stub-server";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();
const stub = useStubServer("helpers-mcp-stub");

const NS = "helpers-mcp";
let cookie: string;
const authSeen: string[] = [];

function deskServer(): McpServer {
  const server = new McpServer({ name: "Help Desk", version: "1.4.0" }, { instructions: "Ask about tickets." });
  server.registerTool(
    "open_ticket",
    { description: "Open a ticket", inputSchema: { title: z.string().describe("Short title"), priority: z.enum(["low", "high"]), urgent: z.boolean().optional(), count: z.number().int().optional() } },
    async ({ title, priority }) => ({ content: [{ type: "text", text: `opened ${title} (${priority})` }], structuredContent: { id: 42, title } }),
  );
  server.registerTool("explode", { description: "Always fails", inputSchema: {} }, async () => {
    throw new Error("boom");
  });
  server.registerResource("faq", "file:///faq.md", { description: "Frequently asked", mimeType: "text/markdown" }, async (uri) => ({ contents: [{ uri: uri.href, text: "# FAQ" }] }));
  server.registerResource("ticket", new ResourceTemplate("tickets://{id}", { list: undefined }), { description: "One ticket" }, async (uri) => ({ contents: [{ uri: uri.href, text: "t" }] }));
  return server;
}

const live = http.createServer(async (req, res) => {
  authSeen.push(String(req.headers.authorization ?? ""));
  if (req.url === "/to-metadata") return void res.writeHead(307, { location: "http://169.254.169.254/mcp" }).end();
  if (req.url === "/old") return void res.writeHead(307, { location: "/mcp" }).end();
  if (req.url !== "/mcp") return void res.writeHead(404).end();
  const server = deskServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => void transport.close().then(() => server.close()));
  await server.connect(transport);
  await transport.handleRequest(req, res);
});

const sseTransports = new Map<string, SSEServerTransport>();
const legacy = http.createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://x");
  if (req.method === "GET" && url.pathname === "/sse") {
    const transport = new SSEServerTransport("/messages", res);
    sseTransports.set(transport.sessionId, transport);
    res.on("close", () => sseTransports.delete(transport.sessionId));
    await deskServer().connect(transport);
    return;
  }
  const transport = url.pathname === "/messages" ? sseTransports.get(url.searchParams.get("sessionId") ?? "") : undefined;
  if (req.method === "POST" && transport) return void (await transport.handlePostMessage(req, res));
  res.writeHead(405).end();
});

let origin = "";
let legacyOrigin = "";

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  cookie = await sessionCookie(o.user.id);
  await new Promise<void>((r) => live.listen(0, "127.0.0.1", r));
  await new Promise<void>((r) => legacy.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(live.address() as AddressInfo).port}`;
  legacyOrigin = `http://127.0.0.1:${(legacy.address() as AddressInfo).port}`;
});
afterEach(() => {
  delete process.env.OUTBOUND_ALLOW_PRIVATE;
});
afterAll(async () => {
  for (const s of [live, legacy]) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

type Route = { POST: Parameters<typeof call>[0] };
const post = (route: Route, url: string, body: Record<string, unknown>) => call(route.POST, url, { method: "POST", cookie, body: { namespace: NS, ...body } });

describe("MCP helpers", () => {
  it("connect: server info, capabilities and instructions over Streamable HTTP, with the caller's headers", async () => {
    const res = await post(connectRoute, "/api/v1/api-tester/mcp/connect", { url: `${origin}/mcp`, headers: { Authorization: "Bearer mcp-1" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ transport: "streamable-http", serverInfo: { name: "Help Desk", version: "1.4.0" }, instructions: "Ask about tickets." });
    expect(Object.keys(res.body.capabilities)).toEqual(expect.arrayContaining(["tools", "resources"]));
    expect(authSeen.at(-1)).toBe("Bearer mcp-1");
  });

  it("connect falls back to HTTP+SSE", async () => {
    const res = await post(connectRoute, "/api/v1/api-tester/mcp/connect", { url: `${legacyOrigin}/sse` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ transport: "sse", serverInfo: { name: "Help Desk" } });
  });

  it("tools/list: every tool with its input schema", async () => {
    const res = await post(toolsRoute, "/api/v1/api-tester/mcp/tools/list", { url: `${origin}/mcp` });
    expect(res.status).toBe(200);
    expect(res.body.tools.map((t: { name: string }) => t.name)).toEqual(["open_ticket", "explode"]);
    const open = res.body.tools[0];
    expect(open.description).toBe("Open a ticket");
    expect(open.inputSchema.properties.priority).toMatchObject({ type: "string", enum: ["low", "high"] });
    expect(open.inputSchema.required).toEqual(["title", "priority"]);
  });

  it("tools/call: the tool's result; a failing tool is a result with isError; bad arguments too", async () => {
    const ok = await post(callRoute, "/api/v1/api-tester/mcp/tools/call", { url: `${origin}/mcp`, name: "open_ticket", arguments: { title: "Printer", priority: "high" } });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ content: [{ type: "text", text: "opened Printer (high)" }], structuredContent: { id: 42, title: "Printer" }, isError: false });
    const failing = await post(callRoute, "/api/v1/api-tester/mcp/tools/call", { url: `${origin}/mcp`, name: "explode" });
    expect(failing.status).toBe(200);
    expect(failing.body.isError).toBe(true);
    expect(JSON.stringify(failing.body.content)).toContain("boom");
    const invalid = await post(callRoute, "/api/v1/api-tester/mcp/tools/call", { url: `${origin}/mcp`, name: "open_ticket", arguments: { title: 1 } });
    expect(invalid.status).toBe(200);
    expect(invalid.body.isError).toBe(true);
  });

  it("resources/list: resources and resource templates", async () => {
    const res = await post(resourcesRoute, "/api/v1/api-tester/mcp/resources/list", { url: `${origin}/mcp` });
    expect(res.status).toBe(200);
    expect(res.body.resources).toEqual([expect.objectContaining({ uri: "file:///faq.md", name: "faq", mimeType: "text/markdown" })]);
    expect(res.body.resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: "tickets://{id}", name: "ticket" })]);
  });

  it("follows a redirect to an allowed server, but refuses one to the cloud-metadata address", async () => {
    const redirected = await post(toolsRoute, "/api/v1/api-tester/mcp/tools/list", { url: `${origin}/old` });
    expect(redirected.status).toBe(200);
    expect(redirected.body.tools).toHaveLength(2);
    const blocked = await post(connectRoute, "/api/v1/api-tester/mcp/connect", { url: `${origin}/to-metadata` });
    expect(blocked.status).toBe(400);
    expect(blocked.body.error).toMatch(/169\.254\.169\.254/);
  });

  it("refuses the cloud-metadata address before connecting, and private targets when OUTBOUND_ALLOW_PRIVATE=0", async () => {
    const meta = await post(connectRoute, "/api/v1/api-tester/mcp/connect", { url: "http://169.254.169.254/mcp" });
    expect(meta.status).toBe(400);
    expect(meta.body.details[0].field).toBe("url");
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    const priv = await post(toolsRoute, "/api/v1/api-tester/mcp/tools/list", { url: `${origin}/mcp` });
    expect(priv.status).toBe(400);
    expect(priv.body.error).toContain("OUTBOUND_ALLOW_PRIVATE=0");
  });

  it("works against our own MCP mock: the tool from the mock, its form schema, and the mock's answer", async () => {
    await stub.save({
      pathPrefix: "/desk",
      mcp: {
        method: "tools/call",
        tool: "open_ticket",
        description: "Open a support ticket",
        inputSchema: { type: "object", properties: { title: { type: "string" }, priority: { type: "string", enum: ["low", "high"] } }, required: ["title", "priority"] },
      },
      response: { payload: { opened: "ticket-42" } },
    });
    const url = `${stub.base}/desk`;
    const connected = await post(connectRoute, "/api/v1/api-tester/mcp/connect", { url });
    expect(connected.status, connected.text).toBe(200);
    expect(connected.body.capabilities.tools).toBeDefined();
    const listed = await post(toolsRoute, "/api/v1/api-tester/mcp/tools/list", { url });
    expect(listed.body.tools).toEqual([expect.objectContaining({ name: "open_ticket", description: "Open a support ticket", inputSchema: expect.objectContaining({ required: ["title", "priority"] }) })]);
    const called = await post(callRoute, "/api/v1/api-tester/mcp/tools/call", { url, name: "open_ticket", arguments: { title: "Printer", priority: "high" } });
    expect(called.status).toBe(200);
    expect(called.body.isError).toBe(false);
    expect(JSON.stringify(called.body.content)).toContain("ticket-42");
    // What the panel does next when the server announces resources.
    if (connected.body.capabilities.resources) expect((await post(resourcesRoute, "/api/v1/api-tester/mcp/resources/list", { url })).status).toBe(200);
  });

  it("answers 502 when nothing speaks MCP at the URL", async () => {
    const res = await post(connectRoute, "/api/v1/api-tester/mcp/connect", { url: `${origin}/nothing`, timeout: 5000 });
    expect(res.status).toBe(502);
  });
});
