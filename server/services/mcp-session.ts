// One session with a live MCP server through the official SDK client, shared by
// the MCP generator (server/services/generators-mcp-source.ts) and the API
// tester's MCP helpers: Streamable HTTP first, then the older HTTP+SSE
// transport (the SDK's compatibility guide), every HTTP request through a
// fetch under the outbound policy (server/lib/guarded-fetch.ts) — the URL
// checked before connecting and each redirect the SDK follows checked again —
// all answers together capped in size and the whole session in time.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { AppError } from "@/server/errors";
import { checkedUserUrl, refuse } from "@/server/lib/fetch-document";
import { createGuardedFetch, type GuardedFetch } from "@/server/lib/guarded-fetch";
import { assertAllowedTarget, BlockedTargetError } from "@/server/lib/ssrf";
import { packageVersion } from "@/server/release";

export const mcpExternal = (message: string) => new AppError("external", message, { status: 502 });

/**
 * The SDK's transports refuse a redirect to another origin themselves
 * ("Redirect to <url> not followed"), before our fetch sees the new URL; when
 * that URL is one the policy refuses too, the caller hears the policy's reason.
 */
function refusedRedirect(err: unknown): BlockedTargetError | undefined {
  const target = /Redirect to (\S+) not followed/.exec(err instanceof Error ? err.message : String(err))?.[1];
  if (!target) return undefined;
  try {
    assertAllowedTarget(new URL(target));
  } catch (e) {
    if (e instanceof BlockedTargetError) return e;
  }
  return undefined;
}

/** The error a failed session is answered with: the policy's refusal or the size cap first, whatever the SDK made of them. */
export function mcpFailure(guard: GuardedFetch, field: string, fallback: () => AppError, err: unknown): AppError {
  if (guard.blocked) return refuse(field, guard.blocked.message);
  const redirect = refusedRedirect(err);
  if (redirect) return refuse(field, `${field} redirects to a target the outbound policy refuses: ${redirect.message}`);
  if (guard.tooLarge) return new AppError("payload_too_large", `the MCP server's answers are larger than ${guard.tooLarge.limit} bytes`);
  if (err instanceof AppError) return err;
  return fallback();
}

function withDeadline<T>(work: Promise<T>, ms: number, host: string, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(mcpExternal(`the MCP server at ${host} did not answer in time`));
    }, ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export type McpTransportKind = "streamable-http" | "sse";

interface ConnectOptions {
  field: string;
  timeout: () => number;
  headers?: Record<string, string>;
  clientName: string;
}

async function connect(url: URL, guard: GuardedFetch, opts: ConnectOptions): Promise<{ client: Client; transport: McpTransportKind }> {
  const requestInit = opts.headers && Object.keys(opts.headers).length ? { headers: opts.headers } : undefined;
  const attempt = async (transport: StreamableHTTPClientTransport | SSEClientTransport) => {
    const client = new Client({ name: opts.clientName, version: packageVersion() });
    try {
      await client.connect(transport, { timeout: opts.timeout() });
      return client;
    } catch (err) {
      await client.close().catch(() => {});
      throw err;
    }
  };
  try {
    return { client: await attempt(new StreamableHTTPClientTransport(url, { fetch: guard.fetch, requestInit })), transport: "streamable-http" };
  } catch (streamable) {
    if (guard.blocked || guard.tooLarge || refusedRedirect(streamable)) throw mcpFailure(guard, opts.field, () => mcpExternal(""), streamable);
    try {
      return { client: await attempt(new SSEClientTransport(url, { fetch: guard.fetch, requestInit })), transport: "sse" };
    } catch (sse) {
      throw mcpFailure(guard, opts.field, () => mcpExternal(`cannot connect to an MCP server at ${url.host}: Streamable HTTP: ${(streamable as Error).message}; HTTP+SSE: ${(sse as Error).message}`), sse);
    }
  }
}

export interface McpSession {
  client: Client;
  transport: McpTransportKind;
  url: URL;
  field: string;
  /** Per-request options: what is left of the session's time. */
  options(): { timeout: number };
  /** An error of a call in the session, as the API answers it. */
  fail(err: unknown, what: string): AppError;
}

export interface McpSessionOptions {
  field?: string;
  maxBytes: number;
  timeoutMs?: number;
  headers?: Record<string, string>;
  clientName?: string;
}

/** Connects to the MCP server at `text`, runs `work` in the session and closes it, whatever happens. */
export async function withMcpSession<T>(text: string, opts: McpSessionOptions, work: (s: McpSession) => Promise<T>): Promise<T> {
  const field = opts.field ?? "url";
  const url = checkedUserUrl(text, field);
  const guard = createGuardedFetch({ maxBytes: opts.maxBytes });
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  const timeout = () => Math.max(1, deadline - Date.now());
  let client: Client | undefined;
  let timedOut = false;
  const session = async (): Promise<T> => {
    const opened = await connect(url, guard, { field, timeout, headers: opts.headers, clientName: opts.clientName ?? "polymock" });
    client = opened.client;
    if (timedOut) {
      await opened.client.close().catch(() => {});
      throw mcpExternal("too late");
    }
    return work({
      client: opened.client,
      transport: opened.transport,
      url,
      field,
      options: () => ({ timeout: timeout() }),
      fail: (err, what) => mcpFailure(guard, field, () => mcpExternal(`the MCP server at ${url.host} failed to ${what}: ${(err as Error).message}`), err),
    });
  };
  try {
    return await withDeadline(session(), timeout(), url.host, () => {
      timedOut = true;
      guard.close();
    });
  } catch (err) {
    throw mcpFailure(guard, field, () => mcpExternal(`cannot read the MCP server at ${url.host}: ${(err as Error).message}`), err);
  } finally {
    await (client as Client | undefined)?.close().catch(() => {});
    guard.close();
  }
}
