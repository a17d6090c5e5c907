// MCP on the stub path: the Streamable HTTP transport (JSON answers, no SSE)
// at /stubs/<namespace> (mocks without pathPrefix) or /stubs/<namespace><pathPrefix>.
//   POST   JSON-RPC 2.0 message or batch → 200 JSON (202 when it held only
//          notifications or client responses); malformed JSON → 400 -32700.
//   GET    (the client's optional server-to-client stream) → 405.
//   DELETE (end of session) → 204.
// Sessions are not kept: `initialize` hands out an Mcp-Session-Id and any id
// (or none) is accepted afterwards, so a restart or another process serves
// the same client. tools/call, prompts/get and resources/read run the engine
// with the call's arguments as the request body (conditions, `$.req.<arg>`);
// the lists come from the mocks of the server path.
import { randomUUID } from "node:crypto";
import {
  listPrompts,
  listResources,
  listTools,
  mcpSelector,
  mcpServerAt,
  promptResult,
  resourceResult,
  toolOutputSchema,
  toolResult,
  type McpMockMethod,
  type McpServerCatalog,
} from "@/server/engine/protocols/mcp";
import { packageVersion } from "@/server/release";
import { addAfterSend, answered, recordMiss, serve } from "@/server/serving/serve";
import { httpCouldAnswer } from "./route-presence";
import { jsonOutput, type StubAdapter, type StubContext, type StubOutput } from "./stub-context";

/** Protocol versions this server speaks; an initialize asking for another gets the latest. */
export const MCP_PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"];

export const JSONRPC = { parseError: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, resourceNotFound: -32002 } as const;

/** Methods a client sends to an MCP server; anything else at a path that also has HTTP mocks is left to them. */
const MCP_METHODS = new Set([
  "initialize",
  "ping",
  "tools/list",
  "tools/call",
  "prompts/list",
  "prompts/get",
  "resources/list",
  "resources/read",
  "resources/templates/list",
  "resources/subscribe",
  "resources/unsubscribe",
  "logging/setLevel",
  "completion/complete",
]);
const isMcpMethod = (m: unknown) => typeof m === "string" && (MCP_METHODS.has(m) || m.startsWith("notifications/"));

type JsonRpcId = string | number;
interface JsonRpcMessage {
  jsonrpc?: unknown;
  id?: unknown;
  method?: unknown;
  params?: unknown;
  result?: unknown;
  error?: unknown;
}

interface Reply {
  message: Record<string, unknown>;
  delayMs: number;
  afterSend?: () => void;
  sessionId?: string;
}

export const mcpAdapter: StubAdapter = {
  protocol: "mcp",
  // Also consulted without mcp mocks: /stubs/<namespace> is the namespace's MCP server even when it offers nothing yet.
  always: true,
  // Only the namespace root and the paths of MCP servers are MCP endpoints.
  claims: (ctx) => ctx.path === "/" || (ctx.index.indexes.mcp !== undefined && mcpServerAt(ctx.index.indexes.mcp, ctx.path) !== undefined),
  async serve(ctx) {
    const index = ctx.index.indexes.mcp;
    const server = index ? mcpServerAt(index, ctx.path) : undefined;
    if (!server && ctx.path !== "/") return null;
    const method = ctx.input.method.toUpperCase();
    if (method === "POST") return post(ctx, server);
    if (method === "GET") {
      // The SDK opens a server-to-client stream with a GET; 405 says there is none.
      const wantsStream = ctx.input.headers.accept?.some((a) => a.includes("text/event-stream"));
      if (!wantsStream || (!server && httpCouldAnswer(ctx))) return null;
      return { status: 405, headers: { Allow: "POST, DELETE", "X-Request-Id": ctx.requestId }, body: "", delayMs: 0 };
    }
    if (method === "DELETE" && ctx.input.headers["mcp-session-id"]) {
      if (!server && httpCouldAnswer(ctx)) return null;
      return { status: 204, headers: { "X-Request-Id": ctx.requestId }, body: "", delayMs: 0 };
    }
    return null;
  },
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const validId = (id: unknown): id is JsonRpcId => typeof id === "string" || (typeof id === "number" && Number.isFinite(id));

function rpcError(id: JsonRpcId | null, code: number, message: string, data?: unknown): Record<string, unknown> {
  return { jsonrpc: "2.0", id, error: { code, message, ...(data === undefined ? {} : { data }) } };
}

function rpcOutput(status: number, body: unknown, ctx: StubContext, extra: Record<string, string> = {}): StubOutput {
  const out = jsonOutput(status, body, ctx.requestId);
  Object.assign(out.headers, extra);
  return out;
}

async function post(ctx: StubContext, server: McpServerCatalog | undefined): Promise<StubOutput | null> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(ctx.text);
  } catch {
    // At the namespace root without MCP mocks, only a body that claims to be JSON is taken as a broken MCP call.
    const claimsJson = (ctx.input.headers["content-type"]?.[0] ?? "").toLowerCase().includes("json");
    if (!server && (!claimsJson || httpCouldAnswer(ctx))) return null;
    return rpcOutput(400, rpcError(null, JSONRPC.parseError, "Parse error: the body is not JSON"), ctx);
  }
  const batch = Array.isArray(parsed);
  const messages = (batch ? parsed : [parsed]) as unknown[];
  const rpc = messages.filter((m): m is JsonRpcMessage => isObject(m) && m.jsonrpc === "2.0");
  if (batch && messages.length === 0) {
    if (!server) return null;
    return rpcOutput(400, rpcError(null, JSONRPC.invalidRequest, "Invalid Request: empty batch"), ctx);
  }
  // JSON that is not JSON-RPC is HTTP's. At the namespace root without MCP
  // mocks, an HTTP mock of POST / wins, and only MCP methods are taken; at an
  // MCP server path, other JSON-RPC methods go to HTTP mocks of the path if any.
  if (rpc.length === 0) return null;
  const mcpLike = rpc.some((m) => isMcpMethod(m.method) || (server !== undefined && m.method === undefined && (m.result !== undefined || m.error !== undefined)));
  if (!server ? !mcpLike || httpCouldAnswer(ctx) : !mcpLike && httpCouldAnswer(ctx)) return null;

  const replies: Reply[] = [];
  for (const m of messages) {
    if (!isObject(m) || m.jsonrpc !== "2.0") {
      replies.push({ message: rpcError(null, JSONRPC.invalidRequest, "Invalid Request: not a JSON-RPC 2.0 message"), delayMs: 0 });
      continue;
    }
    const msg = m as JsonRpcMessage;
    // Notifications (no id) and the client's answers to server requests get no reply.
    if (msg.method === undefined || msg.id === undefined) {
      if (typeof msg.method !== "string" && msg.method !== undefined) replies.push({ message: rpcError(null, JSONRPC.invalidRequest, "Invalid Request: method must be a string"), delayMs: 0 });
      continue;
    }
    if (!validId(msg.id) || typeof msg.method !== "string") {
      replies.push({ message: rpcError(validId(msg.id) ? msg.id : null, JSONRPC.invalidRequest, "Invalid Request: id must be a string or number and method a string"), delayMs: 0 });
      continue;
    }
    replies.push(await request(ctx, server, msg as JsonRpcMessage & { id: JsonRpcId; method: string }));
  }
  if (replies.length === 0) return { status: 202, headers: { "X-Request-Id": ctx.requestId }, body: "", delayMs: 0 };
  const sessionId = replies.find((r) => r.sessionId)?.sessionId;
  const out = rpcOutput(200, batch ? replies.map((r) => r.message) : replies[0].message, ctx, sessionId ? { "Mcp-Session-Id": sessionId } : {});
  out.delayMs = Math.max(...replies.map((r) => r.delayMs));
  // Every answered call's webhooks start once the batch's answer is sent.
  for (const r of replies) if (r.afterSend) addAfterSend(out, r.afterSend);
  return out;
}

async function request(ctx: StubContext, server: McpServerCatalog | undefined, msg: JsonRpcMessage & { id: JsonRpcId; method: string }): Promise<Reply> {
  const { id } = msg;
  const ok = (result: unknown): Reply => ({ message: { jsonrpc: "2.0", id, result }, delayMs: 0 });
  const fail = (code: number, message: string, data?: unknown): Reply => ({ message: rpcError(id, code, message, data), delayMs: 0 });
  if (msg.params !== undefined && !isObject(msg.params)) return fail(JSONRPC.invalidParams, "Invalid params: params must be an object");
  const params = (msg.params ?? {}) as Record<string, unknown>;
  switch (msg.method) {
    case "initialize": {
      const asked = params.protocolVersion;
      const protocolVersion = typeof asked === "string" && MCP_PROTOCOL_VERSIONS.includes(asked) ? asked : MCP_PROTOCOL_VERSIONS[0];
      const capabilities: Record<string, unknown> = { tools: { listChanged: false } };
      if (server?.prompts.size) capabilities.prompts = { listChanged: false };
      if (server?.resources.size) capabilities.resources = { subscribe: false, listChanged: false };
      const serverInfo = { name: `polymock ${ctx.namespace}${ctx.path === "/" ? "" : ctx.path}`, version: packageVersion() };
      return { ...ok({ protocolVersion, capabilities, serverInfo }), sessionId: randomUUID() };
    }
    case "ping":
      return ok({});
    case "tools/list":
      return ok({ tools: listTools(server) });
    case "prompts/list":
      return ok({ prompts: listPrompts(server) });
    case "resources/list":
      return ok({ resources: listResources(server) });
    case "resources/templates/list":
      return ok({ resourceTemplates: [] });
    case "tools/call":
    case "prompts/get": {
      const name = params.name;
      if (typeof name !== "string" || name === "") return fail(JSONRPC.invalidParams, "Invalid params: name must be a non-empty string");
      const args = params.arguments ?? {};
      if (!isObject(args)) return fail(JSONRPC.invalidParams, "Invalid params: arguments must be an object");
      return call(ctx, server, msg, msg.method, name, args);
    }
    case "resources/read": {
      const uri = params.uri;
      if (typeof uri !== "string" || uri === "") return fail(JSONRPC.invalidParams, "Invalid params: uri must be a non-empty string");
      return call(ctx, server, msg, "resources/read", uri, { uri });
    }
    default:
      return fail(JSONRPC.methodNotFound, `Method not found: ${msg.method}`);
  }
}

const KIND: Record<McpMockMethod, { label: string; list: "tools" | "prompts" | "resources" }> = {
  "tools/call": { label: "tool", list: "tools" },
  "prompts/get": { label: "prompt", list: "prompts" },
  "resources/read": { label: "resource", list: "resources" },
};

/** A call that selects a mock: the engine with the arguments as the request body. */
async function call(ctx: StubContext, server: McpServerCatalog | undefined, msg: JsonRpcMessage & { id: JsonRpcId }, method: McpMockMethod, name: string, args: Record<string, unknown>): Promise<Reply> {
  const { id } = msg;
  const result = await serve("mcp", ctx, { namespace: ctx.namespace, method: mcpSelector(method, name), path: ctx.path, headers: ctx.input.headers, query: ctx.query, body: args, rawBody: JSON.stringify(args) });
  if (!result.matched) {
    recordMiss(ctx, { protocol: "mcp", method: "POST", path: `${ctx.path} ${method} ${name}`, body: msg.params });
    const { label, list } = KIND[method];
    const known = server?.[list].has(name) ?? false;
    const code = method === "resources/read" && !known ? JSONRPC.resourceNotFound : JSONRPC.invalidParams;
    const message = known ? `No mock of ${label} '${name}' matches these arguments` : method === "resources/read" ? `Resource not found: ${name}` : `Unknown ${label}: ${name}`;
    return { message: rpcError(id, code, message, { namespace: ctx.namespace, nearest: result.nearest }), delayMs: 0 };
  }
  const { response, mock } = result;
  let value: unknown;
  if (method === "tools/call") value = toolResult(response.body, response.status >= 400 || response.mcpIsError === true, toolOutputSchema(server?.tools.get(name)) !== undefined);
  else if (method === "prompts/get") value = promptResult(response.body, mock.mcp?.description);
  else value = resourceResult(name, response.body, contentType(response.headers));
  // A call has no HTTP status of its own (the batch answers 200, as the log shows): `trigger` is judged on the mock's status.
  const reply: Reply = { message: { jsonrpc: "2.0", id, result: value }, delayMs: response.delayMs };
  return answered(ctx, result, 200, reply, { method: "POST", body: msg }, undefined, response.status);
}

function contentType(headers: Record<string, string[]>): string | undefined {
  for (const name in headers) if (name.toLowerCase() === "content-type") return headers[name][0];
  return undefined;
}
