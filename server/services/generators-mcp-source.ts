// A live MCP server as the MCP generator's document: connects (server/services/mcp-session.ts) with the
// official SDK client (Streamable HTTP, falling back to the older HTTP+SSE
// transport as the SDK's compatibility guide does), lists its tools, prompts
// and resources (those its capabilities announce, every page), and hands the
// lists to the pure mapping (server/generators/mcp.ts) as one combined
// document. Every HTTP request of the session goes through a fetch under the
// outbound policy (server/lib/guarded-fetch.ts): the URL is checked before
// connecting and each redirect the SDK follows is checked again; all answers
// together are capped in size, and the whole session in time.
import { refuse } from "@/server/lib/fetch-document";
import { mcpExternal as external, withMcpSession } from "./mcp-session";

const MAX_PAGES = 100;
type Listed = Record<string, unknown>[];

export interface McpServerLists {
  serverInfo?: { name: string; version?: string };
  tools?: Listed;
  prompts?: Listed;
  resources?: Listed;
}

/** Every page of one list (cursor after cursor). */
export async function allPages(list: (cursor: string | undefined) => Promise<{ items: Listed; nextCursor?: string }>): Promise<Listed> {
  const out: Listed = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const { items, nextCursor } = await list(cursor);
    out.push(...items);
    if (!nextCursor) return out;
    cursor = nextCursor;
  }
  throw external(`the MCP server's list goes on for more than ${MAX_PAGES} pages`);
}

export async function readMcpServer(text: string, opts: { field?: string; maxBytes: number; timeoutMs?: number }): Promise<McpServerLists> {
  return withMcpSession(text, { ...opts, clientName: "polymock-generator" }, async ({ client: c, url, field, options, fail }) => {
    const caps = c.getServerCapabilities() ?? {};
    if (!caps.tools && !caps.prompts && !caps.resources) throw refuse(field, `the MCP server at ${url.host} offers no tools, prompts or resources`);
    const info = c.getServerVersion();
    const lists: McpServerLists = info ? { serverInfo: { name: info.name, version: info.version } } : {};
    try {
      if (caps.tools) lists.tools = await allPages(async (cursor) => ((r) => ({ items: r.tools, nextCursor: r.nextCursor }))(await c.listTools(cursor ? { cursor } : undefined, options())));
      if (caps.prompts) lists.prompts = await allPages(async (cursor) => ((r) => ({ items: r.prompts, nextCursor: r.nextCursor }))(await c.listPrompts(cursor ? { cursor } : undefined, options())));
      if (caps.resources) lists.resources = await allPages(async (cursor) => ((r) => ({ items: r.resources, nextCursor: r.nextCursor }))(await c.listResources(cursor ? { cursor } : undefined, options())));
    } catch (err) {
      throw fail(err, "list what it offers");
    }
    return lists;
  });
}
