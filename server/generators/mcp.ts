// MCP tools, prompts and resources lists → MCP mocks, one per entry, served
// by the namespace's MCP server (or the one at pathPrefix). Reads what MCP
// itself sends: a `tools/list`, `prompts/list` or `resources/list` result, the
// three combined (what server/services/generators-mcp-source.ts reads from a
// live server), a JSON-RPC response carrying one of them, or an array of such.
//   - a tool keeps its input and output schemas (tools/list shows them as
//     given); with an output schema it answers a sample of it (structured
//     content), else a text naming the tool and echoing the call's arguments;
//   - a prompt answers one user message built from its description and its
//     arguments, templated (`{{$.req.<argument>}}`), and lists its arguments;
//   - a resource answers placeholder contents of its MIME type.
import type { z } from "zod";
import type { McpBlock as McpBlockSchema, MockInput } from "@/server/contracts/mock";
import { mockId, slug, uniqueIds } from "./ids";
import { GeneratorInputError } from "./input-error";
import { sampleSchema } from "./schema-sample";
import type { GeneratedMock, GeneratorOptions, GeneratorResult, GeneratorWarning } from "./types";

type Json = Record<string, unknown>;
type Mock = MockInput & { id: string };
type McpBlock = z.input<typeof McpBlockSchema>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const LIST_KEYS = ["tools", "prompts", "resources"] as const;
type ListKey = (typeof LIST_KEYS)[number];

/** One list found in the document, with the JSON pointer of its array. */
export interface Found {
  key: ListKey;
  items: unknown[];
  pointer: string;
}

export interface Lists {
  found: Found[];
  serverName?: string;
  warnings: GeneratorWarning[];
}

const NOT_A_LIST = 'not an MCP list: give a tools/list, prompts/list or resources/list result ({"tools": [...]}, {"prompts": [...]}, {"resources": [...]}, or them combined), or a JSON-RPC response carrying one';

/** Walks the shapes MCP sends down to the lists, keeping pointers into the document as given. */
function collect(value: unknown, pointer: string, into: Lists, depth = 0): void {
  if (Array.isArray(value) && depth === 0) {
    value.forEach((v, i) => collect(v, `${pointer}/${i}`, into, depth + 1));
    return;
  }
  if (!isObject(value)) throw new GeneratorInputError(NOT_A_LIST, { pointer: pointer || undefined });
  if ("jsonrpc" in value && !LIST_KEYS.some((k) => k in value)) {
    if (value.error !== undefined) {
      const message = isObject(value.error) && typeof value.error.message === "string" ? value.error.message : JSON.stringify(value.error);
      throw new GeneratorInputError(`the JSON-RPC response is an error: ${message}`, { pointer: `${pointer}/error` });
    }
    collect(value.result, `${pointer}/result`, into, depth + 1);
    return;
  }
  const keys = LIST_KEYS.filter((k) => value[k] !== undefined);
  if (!keys.length) throw new GeneratorInputError(NOT_A_LIST, { pointer: pointer || undefined });
  for (const key of keys) {
    const items = value[key];
    if (!Array.isArray(items)) throw new GeneratorInputError(`${key} must be an array`, { pointer: `${pointer}/${key}` });
    into.found.push({ key, items, pointer: `${pointer}/${key}` });
  }
  const info = value.serverInfo;
  if (isObject(info) && typeof info.name === "string" && info.name.trim()) into.serverName ??= info.name;
  if (typeof value.nextCursor === "string") into.warnings.push({ pointer: `${pointer}/nextCursor`, message: "the list continues on another page (nextCursor): only the entries given here are generated" });
  if (value.resourceTemplates !== undefined) into.warnings.push({ pointer: `${pointer}/resourceTemplates`, message: "resource templates are not generated (a mock serves one resource URI)" });
}

/** A required non-empty string field of an entry, else a 400 pointing at it. */
function requiredString(entry: Json, field: string, pointer: string, max: number): string {
  const v = entry[field];
  if (typeof v !== "string" || v.trim() === "") throw new GeneratorInputError(`${field} must be a non-empty string`, { pointer: `${pointer}/${field}` });
  if (v.length > max) throw new GeneratorInputError(`${field} is longer than ${max} characters`, { pointer: `${pointer}/${field}` });
  return v;
}

function optionalString(entry: Json, field: string, pointer: string, warnings: GeneratorWarning[], max = 4000): string | undefined {
  const v = entry[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") {
    warnings.push({ pointer: `${pointer}/${field}`, message: `${field} is not a string: left out` });
    return undefined;
  }
  if (v.length > max) {
    warnings.push({ pointer: `${pointer}/${field}`, message: `${field} is cut to ${max} characters` });
    return v.slice(0, max);
  }
  return v || undefined;
}

/** A tool schema: a JSON Schema object whose type is "object" (MCP's rule; a schema without `type` gets it). */
function toolSchema(entry: Json, field: "inputSchema" | "outputSchema", pointer: string): McpBlock["inputSchema"] {
  const v = entry[field];
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw new GeneratorInputError(`${field} must be a JSON Schema object`, { pointer: `${pointer}/${field}` });
  if (v.type !== undefined && v.type !== "object") throw new GeneratorInputError(`${field} must describe an object (type "object"), as MCP requires`, { pointer: `${pointer}/${field}/type` });
  return { ...v, type: "object" };
}

function entryAt(items: unknown[], i: number, pointer: string): Json {
  const entry = items[i];
  if (!isObject(entry)) throw new GeneratorInputError("each entry must be an object", { pointer: `${pointer}/${i}` });
  return entry;
}

/** A template reading one argument, or undefined for a name the placeholder syntax cannot hold. */
export function argumentPlaceholder(name: string): string | undefined {
  if (/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) return `{{$.req.${name}}}`;
  if (!/['}\]\\]/.test(name)) return `{{$.req['${name}']}}`;
  return undefined;
}

interface Context {
  prefix: string;
  common: Partial<Mock>;
  warnings: GeneratorWarning[];
  mocks: GeneratedMock[];
  seen: Record<ListKey, Set<string>>;
}

function firstSeen(ctx: Context, key: ListKey, name: string, pointer: string): boolean {
  if (!ctx.seen[key].has(name)) {
    ctx.seen[key].add(name);
    return true;
  }
  ctx.warnings.push({ pointer, message: `${key.slice(0, -1)} "${name}" is listed again: the first one is generated` });
  return false;
}

function addTool(ctx: Context, entry: Json, pointer: string) {
  const name = requiredString(entry, "name", pointer, 200);
  if (!firstSeen(ctx, "tools", name, pointer)) return;
  const description = optionalString(entry, "description", pointer, ctx.warnings);
  let inputSchema = toolSchema(entry, "inputSchema", pointer);
  if (!inputSchema) {
    ctx.warnings.push({ pointer, message: `tool "${name}" has no inputSchema (MCP requires one): {"type": "object"} is listed` });
    inputSchema = { type: "object" };
  }
  const outputSchema = toolSchema(entry, "outputSchema", pointer);
  const id = mockId(ctx.prefix, "tool", name);
  let payload: unknown;
  if (outputSchema) {
    try {
      payload = sampleSchema(outputSchema, { spec: outputSchema });
    } catch (err) {
      ctx.warnings.push({ pointer: `${pointer}/outputSchema`, mockId: id, message: `no sample of the output schema (${(err as Error).message}): the answer is {}, edit it to fit` });
    }
    if (!isObject(payload)) payload = {};
  } else {
    payload = { tool: name, message: `Mocked answer of ${name}${description ? `: ${description.split("\n")[0]}` : ""}`, arguments: "$.req" };
  }
  const mcp: McpBlock = { method: "tools/call", tool: name, ...(description ? { description } : {}), inputSchema, ...(outputSchema ? { outputSchema } : {}) };
  ctx.mocks.push({ mock: { id, mcp, response: { payload }, ...ctx.common }, summary: `tool ${name}${outputSchema ? " → structured content sampled from its output schema" : " → text echoing the arguments"}` });
}

function addPrompt(ctx: Context, entry: Json, pointer: string) {
  const name = requiredString(entry, "name", pointer, 200);
  if (!firstSeen(ctx, "prompts", name, pointer)) return;
  const description = optionalString(entry, "description", pointer, ctx.warnings);
  const given = entry.arguments ?? [];
  if (!Array.isArray(given)) throw new GeneratorInputError("arguments must be an array", { pointer: `${pointer}/arguments` });
  const id = mockId(ctx.prefix, "prompt", name);
  const args = given.map((_, j) => {
    const at = `${pointer}/arguments/${j}`;
    const a = entryAt(given, j, `${pointer}/arguments`);
    const argName = requiredString(a, "name", at, 200);
    const argDescription = optionalString(a, "description", at, ctx.warnings);
    return { name: argName, ...(argDescription ? { description: argDescription } : {}), ...(typeof a.required === "boolean" ? { required: a.required } : {}) };
  });
  const lines = args.map((a) => {
    const placeholder = argumentPlaceholder(a.name);
    if (!placeholder) ctx.warnings.push({ pointer, mockId: id, message: `argument "${a.name}" cannot be written as a placeholder: its value is not inserted` });
    return `${a.name}: ${placeholder ?? "(not inserted)"}`;
  });
  const text = [description ?? `Prompt ${name}.`, ...(lines.length ? ["", ...lines] : [])].join("\n");
  const mcp: McpBlock = { method: "prompts/get", prompt: name, ...(description ? { description } : {}) };
  const payload = { ...(args.length ? { arguments: args } : {}), messages: [{ role: "user", text }] };
  ctx.mocks.push({ mock: { id, mcp, response: { payload }, ...ctx.common }, summary: `prompt ${name}${args.length ? `(${args.map((a) => a.name).join(", ")})` : ""} → one user message` });
}

function addResource(ctx: Context, entry: Json, pointer: string) {
  const uri = requiredString(entry, "uri", pointer, 2000);
  if (!firstSeen(ctx, "resources", uri, pointer)) return;
  const name = optionalString(entry, "name", pointer, ctx.warnings);
  const description = optionalString(entry, "description", pointer, ctx.warnings) ?? name;
  const mimeType = optionalString(entry, "mimeType", pointer, ctx.warnings, 200);
  const json = mimeType !== undefined && /[/+]json\b/i.test(mimeType);
  const payload = json ? { uri } : `Mocked contents of ${name ?? uri}`;
  if (mimeType && !json && !/^text\//i.test(mimeType)) ctx.warnings.push({ pointer: `${pointer}/mimeType`, message: `${mimeType} contents are served as text: edit the mock's payload` });
  const mcp: McpBlock = { method: "resources/read", resource: uri, ...(description ? { description } : {}) };
  ctx.mocks.push({ mock: { id: mockId(ctx.prefix, "resource", uri), mcp, response: { payload, ...(mimeType ? { headers: { "Content-Type": [mimeType] } } : {}) }, ...ctx.common }, summary: `resource ${uri}${mimeType ? ` (${mimeType})` : ""}` });
}

const ADD: Record<ListKey, (ctx: Context, entry: Json, pointer: string) => void> = { tools: addTool, prompts: addPrompt, resources: addResource };

/** The one read of MCP lists (the mock generator and the API tester's import): each list found, with its JSON pointer. */
export function readMcpLists(document: unknown): Lists {
  const lists: Lists = { found: [], warnings: [] };
  collect(document, "", lists);
  return lists;
}

export async function mcpToMocks(document: unknown, options: GeneratorOptions = {}): Promise<GeneratorResult> {
  const lists = readMcpLists(document);
  const ctx: Context = {
    prefix: options.idPrefix ?? (lists.serverName ? slug(lists.serverName) : "mcp"),
    common: {
      ...(options.pathPrefix ? { pathPrefix: options.pathPrefix } : {}),
      ...(options.serverName ? { serverName: options.serverName } : {}),
      ...(options.tags?.length ? { tags: options.tags } : {}),
      ...(options.folderId !== undefined ? { folderId: options.folderId } : {}),
    },
    warnings: lists.warnings,
    mocks: [],
    seen: { tools: new Set(), prompts: new Set(), resources: new Set() },
  };
  for (const list of lists.found) {
    for (let i = 0; i < list.items.length; i++) ADD[list.key](ctx, entryAt(list.items, i, list.pointer), `${list.pointer}/${i}`);
  }
  if (!ctx.mocks.length) throw new GeneratorInputError("the lists hold no tools, prompts or resources", lists.found[0] ? { pointer: lists.found[0].pointer } : {});
  // Ids differ by construction (kind + unique name) unless two names slug alike; then -2, -3…
  uniqueIds(ctx.mocks);
  return { mocks: ctx.mocks, warnings: ctx.warnings };
}
