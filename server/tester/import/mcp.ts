// An MCP server's tools (and prompts and resources) → an API tester
// collection of JSON-RPC calls over Streamable HTTP, read by the generators'
// one MCP list reader (server/generators/mcp.ts; a live server is read by
// server/services/generators-mcp-source.ts under the outbound policy):
//   - "initialize" first: its test script keeps the server's Mcp-Session-Id in
//     a collection variable, which every later call sends (stateful servers
//     refuse calls without it);
//   - "tools/list", then a folder per kind: tools/call per tool with example
//     arguments sampled from its inputSchema, prompts/get per prompt,
//     resources/read per resource.
import { readMcpLists } from "@/server/generators/mcp";
import { sampleSchema } from "@/server/generators/schema-sample";
import { GeneratorInputError } from "@/server/generators/input-error";
import { collectionDocument, folderItem, jsonText, requestItem, variable, type ConvertedCollection, type ItemInput } from "./common";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

export const MCP_PROTOCOL_VERSION = "2025-06-18";

const SESSION_SCRIPT = `// Stateful MCP servers name the session in this header; later calls send it back.
const session = pm.response.headers.get("Mcp-Session-Id");
if (session) pm.collectionVariables.set("mcpSessionId", session);
pm.test("initialized", () => pm.expect(pm.response.code).to.equal(200));`;

type Call = (name: string, method: string, params: Json | undefined, extra?: { test?: string; session?: boolean }) => ItemInput;

/** A request maker numbering its JSON-RPC ids 1, 2, 3… in collection order. */
function calls(): Call {
  let nextId = 1;
  return (name, method, params, extra = {}) => jsonRpcCall(name, { jsonrpc: "2.0", id: nextId++, method, ...(params ? { params } : {}) }, extra);
}

function jsonRpcCall(name: string, body: Json, extra: { test?: string; session?: boolean }): ItemInput {
  return requestItem(name, {
    kind: "http",
    method: "POST",
    url: "{{mcpUrl}}",
    headers: [
      { key: "Content-Type", value: "application/json" },
      { key: "Accept", value: "application/json, text/event-stream" },
      ...(extra.session === false ? [] : [{ key: "Mcp-Session-Id", value: "{{mcpSessionId}}" }, { key: "MCP-Protocol-Version", value: MCP_PROTOCOL_VERSION }]),
    ],
    body: { mode: "raw", language: "json", raw: jsonText(body) },
    ...(extra.test ? { scripts: { test: extra.test } } : {}),
  });
}

/** `url`: the server's endpoint (the live URL, or given beside a document). */
export function mcpToCollection(document: unknown, opts: { name?: string; url?: string } = {}): ConvertedCollection {
  const call = calls();
  const lists = readMcpLists(document);
  const warnings = [...lists.warnings];
  const items: ItemInput[] = [
    call("initialize", "initialize", { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "polymock-api-tester", version: "1" } }, { test: SESSION_SCRIPT, session: false }),
    // A notification has no id.
    jsonRpcCall("notifications/initialized", { jsonrpc: "2.0", method: "notifications/initialized" }, {}),
  ];
  const folders: Record<string, ItemInput[]> = { tools: [], prompts: [], resources: [] };
  for (const list of lists.found) {
    list.items.forEach((entry, i) => {
      const at = `${list.pointer}/${i}`;
      if (!isObject(entry)) throw new GeneratorInputError("each entry must be an object", { pointer: at });
      if (list.key === "tools") {
        if (typeof entry.name !== "string" || !entry.name) throw new GeneratorInputError("name must be a non-empty string", { pointer: `${at}/name` });
        const args = isObject(entry.inputSchema) ? (sampleSchema({ type: "object", ...entry.inputSchema }, { spec: entry.inputSchema, fake: false, direction: "request" }) ?? {}) : {};
        folders.tools.push(call(entry.name, "tools/call", { name: entry.name, arguments: args }));
      } else if (list.key === "prompts") {
        if (typeof entry.name !== "string" || !entry.name) throw new GeneratorInputError("name must be a non-empty string", { pointer: `${at}/name` });
        const args = Array.isArray(entry.arguments) ? Object.fromEntries(entry.arguments.filter(isObject).map((a) => [String(a.name), String(a.name)])) : {};
        folders.prompts.push(call(entry.name, "prompts/get", { name: entry.name, arguments: args }));
      } else {
        if (typeof entry.uri !== "string" || !entry.uri) throw new GeneratorInputError("uri must be a non-empty string", { pointer: `${at}/uri` });
        folders.resources.push(call(typeof entry.name === "string" && entry.name ? entry.name : entry.uri, "resources/read", { uri: entry.uri }));
      }
    });
  }
  if (!folders.tools.length && !folders.prompts.length && !folders.resources.length) throw new GeneratorInputError("the lists hold no tools, prompts or resources", lists.found[0] ? { pointer: lists.found[0].pointer } : {});
  if (folders.tools.length) items.push(call("tools/list", "tools/list", {}));
  for (const [key, label] of [["tools", "Tools"], ["prompts", "Prompts"], ["resources", "Resources"]] as const) if (folders[key].length) items.push(folderItem(label, folders[key]));
  if (!opts.url) warnings.push({ message: "set the mcpUrl variable to the server's Streamable HTTP endpoint before sending" });
  const name = opts.name ?? lists.serverName ?? "MCP server";
  return { document: collectionDocument({ name, variables: [variable("mcpUrl", opts.url ?? ""), variable("mcpSessionId", "")], items }), warnings };
}
