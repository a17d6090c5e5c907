// A live MCP server as the MCP generator's document: connects with the
// official SDK client (Streamable HTTP, falling back to the older HTTP+SSE
// transport as the SDK's compatibility guide does), lists its tools, prompts
// and resources (those its capabilities announce, every page), and hands the
// lists to the pure mapping (server/generators/mcp.ts) as one combined
// document. Every HTTP request of the session goes through a fetch under the
// outbound policy (server/lib/guarded-fetch.ts): the URL is checked before
// connecting and each redirect the SDK follows is checked again; all answers
// together are capped in size, and the whole session in time.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AppError } from "@/server/errors";
import { checkedUserUrl, refuse } from "@/server/lib/fetch-document";
import { createGuardedFetch, type GuardedFetch } from "@/server/lib/guarded-fetch";
import { packageVersion } from "@/server/release";

const MAX_PAGES = 100;
type Listed = Record<string, unknown>[];

export interface McpServerLists {
  serverInfo?: { name: string; version?: string };
  tools?: Listed;
  prompts?: Listed;
  resources?: Listed;
}

const external = (message: string) => new AppError("external", message, { status: 502 });

/** The error a failed session is answered with: the policy's refusal or the size cap first, whatever the SDK made of them. */
function failure(guard: GuardedFetch, field: string, fallback: () => AppError, err: unknown): AppError {
  if (guard.blocked) return refuse(field, guard.blocked.message);
  if (guard.tooLarge) return new AppError("payload_too_large", `the MCP server's answers are larger than ${guard.tooLarge.limit} bytes`);
  if (err instanceof AppError) return err;
  return fallback();
}

function withDeadline<T>(work: Promise<T>, ms: number, host: string, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(external(`the MCP server at ${host} did not answer in time`));
    }, ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

async function connect(url: URL, guard: GuardedFetch, field: string, timeout: () => number): Promise<Client> {
  const attempt = async (transport: StreamableHTTPClientTransport | SSEClientTransport) => {
    const client = new Client({ name: "polymock-generator", version: packageVersion() });
    try {
      await client.connect(transport, { timeout: timeout() });
      return client;
    } catch (err) {
      await client.close().catch(() => {});
      throw err;
    }
  };
  try {
    return await attempt(new StreamableHTTPClientTransport(url, { fetch: guard.fetch }));
  } catch (streamable) {
    if (guard.blocked || guard.tooLarge) throw failure(guard, field, () => external(""), streamable);
    try {
      return await attempt(new SSEClientTransport(url, { fetch: guard.fetch }));
    } catch (sse) {
      throw failure(guard, field, () => external(`cannot connect to an MCP server at ${url.host}: Streamable HTTP: ${(streamable as Error).message}; HTTP+SSE: ${(sse as Error).message}`), sse);
    }
  }
}

/** Every page of one list (cursor after cursor). */
async function allPages(list: (cursor: string | undefined) => Promise<{ items: Listed; nextCursor?: string }>): Promise<Listed> {
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
  const field = opts.field ?? "url";
  const url = checkedUserUrl(text, field);
  const guard = createGuardedFetch({ maxBytes: opts.maxBytes });
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  const timeout = () => Math.max(1, deadline - Date.now());
  let client: Client | undefined;
  let timedOut = false;
  const session = async (): Promise<McpServerLists> => {
    const c = await connect(url, guard, field, timeout);
    client = c;
    if (timedOut) {
      await c.close().catch(() => {});
      throw external("too late");
    }
    const caps = c.getServerCapabilities() ?? {};
    if (!caps.tools && !caps.prompts && !caps.resources) throw refuse(field, `the MCP server at ${url.host} offers no tools, prompts or resources`);
    const info = c.getServerVersion();
    const lists: McpServerLists = info ? { serverInfo: { name: info.name, version: info.version } } : {};
    const options = () => ({ timeout: timeout() });
    try {
      if (caps.tools) lists.tools = await allPages(async (cursor) => ((r) => ({ items: r.tools, nextCursor: r.nextCursor }))(await c.listTools(cursor ? { cursor } : undefined, options())));
      if (caps.prompts) lists.prompts = await allPages(async (cursor) => ((r) => ({ items: r.prompts, nextCursor: r.nextCursor }))(await c.listPrompts(cursor ? { cursor } : undefined, options())));
      if (caps.resources) lists.resources = await allPages(async (cursor) => ((r) => ({ items: r.resources, nextCursor: r.nextCursor }))(await c.listResources(cursor ? { cursor } : undefined, options())));
    } catch (err) {
      throw failure(guard, field, () => external(`the MCP server at ${url.host} failed to list what it offers: ${(err as Error).message}`), err);
    }
    return lists;
  };
  try {
    return await withDeadline(session(), timeout(), url.host, () => {
      timedOut = true;
      guard.close();
    });
  } catch (err) {
    throw failure(guard, field, () => external(`cannot read the MCP server at ${url.host}: ${(err as Error).message}`), err);
  } finally {
    await (client as Client | undefined)?.close().catch(() => {});
    guard.close();
  }
}
