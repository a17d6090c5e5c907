// The API tester's MCP helpers: connect (initialize: server info and
// capabilities), list tools, call a tool, list resources — each one short
// session with the official SDK client (server/services/mcp-session.ts), so
// the target is checked before the request, when the connection opens and
// after every redirect, and nothing stays open between the panel's clicks.
// A tool that fails answers isError: true — a result, not an API error.
import type { z } from "zod";
import { McpResource, McpResourceTemplate, McpTool, type HelperHeaders, type McpConnectInput, type McpToolsCallInput } from "@/server/contracts/tester-helpers";
import { allPages } from "../../generators-mcp-source";
import { withMcpSession, type McpSession } from "../../mcp-session";

const MAX_ANSWER_BYTES = 10 * 1024 * 1024;

function plainHeaders(headers: HelperHeaders | undefined): Record<string, string> {
  if (!headers) return {};
  if (!Array.isArray(headers)) return headers;
  return Object.fromEntries(headers.map((h) => [h.key, h.value]));
}

/** The documented fields of what the server listed (the answer's schema is closed); a field of the wrong shape is dropped rather than failing the list. */
function pick<T extends z.ZodObject>(schema: T, value: Record<string, unknown>): z.infer<T> {
  const out: Record<string, unknown> = {};
  for (const [k, field] of Object.entries(schema.shape)) {
    if (value[k] === undefined) continue;
    const parsed = (field as z.ZodType).safeParse(value[k]);
    if (parsed.success) out[k] = parsed.data;
  }
  return out as z.infer<T>;
}

function session<T>(input: McpConnectInput, work: (s: McpSession) => Promise<T>): Promise<T> {
  return withMcpSession(input.url, { maxBytes: MAX_ANSWER_BYTES, timeoutMs: input.timeout, headers: plainHeaders(input.headers), clientName: "polymock-api-tester" }, work);
}

export function mcpConnect(input: McpConnectInput) {
  return session(input, async ({ client, transport }) => {
    const info = client.getServerVersion();
    const instructions = client.getInstructions();
    return {
      transport,
      serverInfo: info ? { name: info.name, ...(info.version ? { version: info.version } : {}), ...(info.title ? { title: info.title } : {}) } : null,
      capabilities: (client.getServerCapabilities() ?? {}) as Record<string, unknown>,
      ...(instructions ? { instructions } : {}),
    };
  });
}

export function mcpListTools(input: McpConnectInput) {
  return session(input, async ({ client, options, fail }) => {
    if (!client.getServerCapabilities()?.tools) return { tools: [] };
    try {
      const tools = await allPages(async (cursor) => ((r) => ({ items: r.tools, nextCursor: r.nextCursor }))(await client.listTools(cursor ? { cursor } : undefined, options())));
      return { tools: tools.map((t) => pick(McpTool, t)) };
    } catch (err) {
      throw fail(err, "list its tools");
    }
  });
}

export function mcpCallTool(input: McpToolsCallInput) {
  return session(input, async ({ client, options, fail }) => {
    try {
      const result = await client.callTool({ name: input.name, arguments: input.arguments }, undefined, options());
      return {
        content: (result.content ?? []) as Record<string, unknown>[],
        ...(result.structuredContent ? { structuredContent: result.structuredContent as Record<string, unknown> } : {}),
        isError: result.isError === true,
        ...(result._meta ? { _meta: result._meta } : {}),
      };
    } catch (err) {
      throw fail(err, `call the tool "${input.name}"`);
    }
  });
}

export function mcpListResources(input: McpConnectInput) {
  return session(input, async ({ client, options, fail }) => {
    if (!client.getServerCapabilities()?.resources) return { resources: [], resourceTemplates: [] };
    try {
      const resources = await allPages(async (cursor) => ((r) => ({ items: r.resources, nextCursor: r.nextCursor }))(await client.listResources(cursor ? { cursor } : undefined, options())));
      // Templates are optional in the protocol: a server without them may answer "method not found".
      const resourceTemplates = await allPages(async (cursor) => ((r) => ({ items: r.resourceTemplates, nextCursor: r.nextCursor }))(await client.listResourceTemplates(cursor ? { cursor } : undefined, options()))).catch((err: { code?: number }) => {
        if (err?.code === -32601) return [];
        throw err;
      });
      return { resources: resources.map((r) => pick(McpResource, r)), resourceTemplates: resourceTemplates.map((r) => pick(McpResourceTemplate, r)) };
    } catch (err) {
      throw fail(err, "list its resources");
    }
  });
}
