// MCP mocks: each one is a tool (tools/call), a prompt (prompts/get) or a
// resource (resources/read) of the MCP server at `pathPrefix` ("/" when the
// mock has none, i.e. /stubs/<namespace>). The selector is "<method> <name>",
// so the route index picks among the mocks of one tool exactly as it picks
// among HTTP mocks of one route; conditions see the call's arguments.
//
// Also here, pure and per index version: the catalog of what each server path
// offers (for initialize, tools/list, prompts/list, resources/list), the
// tool input schema guessed from conditions, and the shaping of results.
import type { Condition, MockDefinition } from "@/server/contracts/mock";
import type { CompiledMock } from "../compiled-mock";
import { parsePath } from "../json-path";
import { normalizePath, routeFits, type CompiledRoute } from "../route";
import type { RouteIndex } from "../route-index";
import type { Placer } from "./placement";

export type McpMockMethod = NonNullable<MockDefinition["mcp"]>["method"];

/** The tool, prompt or resource URI a mock serves; undefined when its block lacks the field its method needs. */
export function mcpTarget(mcp: NonNullable<MockDefinition["mcp"]>): string | undefined {
  if (mcp.method === "tools/call") return mcp.tool;
  if (mcp.method === "prompts/get") return mcp.prompt;
  return mcp.resource;
}

export function mcpSelector(method: McpMockMethod, name: string): string {
  return `${method} ${name}`;
}

/** The server path of an MCP mock: its pathPrefix, or "/" (= /stubs/<namespace>). */
export function mcpServerPath(pathPrefix: string | undefined): string {
  return normalizePath(pathPrefix ?? "/");
}

export const placeMcp: Placer = (def) => {
  const mcp = def.mcp;
  if (!mcp) return null;
  const name = mcpTarget(mcp);
  // A tools/call mock without `tool` (etc.) names nothing a client could call.
  if (!name) return null;
  return { route: mcpServerPath(def.pathPrefix), selector: mcpSelector(mcp.method, name), conditions: { conditions: mcp.conditions, header: mcp.header, sortArray: mcp.sortArray } };
};

// ---------------------------------------------------------------------------
// Catalog: what the MCP server at a path offers.

export interface McpEntry {
  name: string;
  /** The entry's mocks in selection order (priority, conditions, newest). */
  mocks: CompiledMock[];
}

export interface McpServerCatalog {
  route: CompiledRoute;
  tools: Map<string, McpEntry>;
  prompts: Map<string, McpEntry>;
  resources: Map<string, McpEntry>;
}

const catalogs = new WeakMap<RouteIndex<CompiledMock>, McpServerCatalog[]>();

/** One catalog per server route of the index; computed once per index version (indexes are rebuilt, never mutated). */
export function mcpCatalogs(index: RouteIndex<CompiledMock>): McpServerCatalog[] {
  const cached = catalogs.get(index);
  if (cached) return cached;
  const byRoute = new Map<string, McpServerCatalog>();
  for (const mock of index.all()) {
    const mcp = mock.def.mcp;
    const name = mcp && mcpTarget(mcp);
    if (!mcp || !name) continue;
    let catalog = byRoute.get(mock.route.pattern);
    if (!catalog) byRoute.set(mock.route.pattern, (catalog = { route: mock.route, tools: new Map(), prompts: new Map(), resources: new Map() }));
    const map = mcp.method === "tools/call" ? catalog.tools : mcp.method === "prompts/get" ? catalog.prompts : catalog.resources;
    const entry = map.get(name);
    if (entry) entry.mocks.push(mock);
    else map.set(name, { name, mocks: [mock] });
  }
  const list = [...byRoute.values()];
  for (const c of list) for (const map of [c.tools, c.prompts, c.resources]) for (const e of map.values()) e.mocks.sort(bySelection);
  catalogs.set(index, list);
  return list;
}

function bySelection(a: CompiledMock, b: CompiledMock): number {
  return b.priority - a.priority || b.conditionCount - a.conditionCount || b.sequence - a.sequence;
}

/** What the server at `path` offers: the union of every catalog whose route fits (usually one). */
export function mcpServerAt(index: RouteIndex<CompiledMock> | undefined, path: string): McpServerCatalog | undefined {
  if (!index) return undefined;
  const fitting = mcpCatalogs(index).filter((c) => routeFits(c.route, path));
  if (fitting.length <= 1) return fitting[0];
  const merged: McpServerCatalog = { route: fitting[0].route, tools: new Map(), prompts: new Map(), resources: new Map() };
  for (const c of fitting) {
    for (const key of ["tools", "prompts", "resources"] as const) {
      for (const [name, e] of c[key]) {
        const into = merged[key].get(name);
        if (into) into.mocks = [...into.mocks, ...e.mocks].sort(bySelection);
        else merged[key].set(name, { name, mocks: [...e.mocks] });
      }
    }
  }
  return merged;
}

// ---------------------------------------------------------------------------
// Listing.

export interface McpTool {
  name: string;
  description?: string;
  /** JSON Schemas of type "object" (the contract checks the declared ones; guessed ones are built so). */
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
}

export interface McpPromptArgument {
  name: string;
  description?: string;
  required?: boolean;
}

function descriptionOf(entry: McpEntry): string | undefined {
  return entry.mocks.find((m) => m.def.mcp?.description)?.def.mcp?.description;
}

/** A tool's declared schema: the first mock (selection order) that gives one, like the description. */
function declaredSchema(entry: McpEntry, key: "inputSchema" | "outputSchema") {
  return entry.mocks.find((m) => m.def.mcp?.[key])?.def.mcp?.[key];
}

/** The tool's output schema, when one of its mocks declares it: its results then carry structuredContent. */
export function toolOutputSchema(entry: McpEntry | undefined) {
  return entry ? declaredSchema(entry, "outputSchema") : undefined;
}

/**
 * The JSON Schema type a condition says an argument has: the value's type for
 * comparisons with a scalar, number for gt/lt/gte/lte; undefined when the
 * condition does not tell (regex, any, empty…).
 */
function typeFromCondition(c: Condition): string | undefined {
  if (["gt", "lt", "gte", "lte"].includes(c.assertAction)) return "number";
  if (!["equals", "not_equals"].includes(c.assertAction) || c.valueFromFile !== undefined || c.decode) return undefined;
  const v = c.value;
  if (typeof v === "string") return "string";
  if (typeof v === "number") return "number";
  if (typeof v === "boolean") return "boolean";
  if (Array.isArray(v)) return "array";
  if (v !== null && typeof v === "object") return "object";
  return undefined;
}

/**
 * `{type: "object"}` with one property per top-level argument that a condition
 * of the tool's mocks looks at (`$.city`, `$.filter.kind` → `filter`); typed
 * when every condition on it agrees on a type. None is required: conditions
 * choose among mocks, they do not say which arguments a caller must send.
 */
export function toolInputSchema(mocks: readonly { def: MockDefinition }[]): { type: "object"; properties?: Record<string, { type?: string }> } {
  const types = new Map<string, Set<string | undefined>>();
  for (const m of mocks) {
    for (const c of m.def.mcp?.conditions ?? []) {
      const first = parsePath(c.path)[0];
      if (typeof first !== "string" || first === "") continue;
      const nested = parsePath(c.path).length > 1;
      const type = nested ? (typeof parsePath(c.path)[1] === "number" ? "array" : "object") : typeFromCondition(c);
      const set = types.get(first) ?? new Set();
      set.add(type);
      types.set(first, set);
    }
  }
  if (types.size === 0) return { type: "object" };
  const properties: Record<string, { type?: string }> = {};
  for (const [name, set] of types) properties[name] = set.size === 1 && [...set][0] !== undefined ? { type: [...set][0] } : {};
  return { type: "object", properties };
}

export function listTools(server: McpServerCatalog | undefined): McpTool[] {
  if (!server) return [];
  return [...server.tools.values()].map((e) => {
    const description = descriptionOf(e);
    const outputSchema = toolOutputSchema(e);
    return { name: e.name, ...(description ? { description } : {}), inputSchema: declaredSchema(e, "inputSchema") ?? toolInputSchema(e.mocks), ...(outputSchema ? { outputSchema } : {}) };
  });
}

/** The payload's `arguments` of every response of the prompt's mocks, merged by name (first seen wins). */
export function promptArguments(mocks: readonly { def: MockDefinition }[]): McpPromptArgument[] {
  const out = new Map<string, McpPromptArgument>();
  for (const m of mocks) {
    const responses = m.def.oneOf ? m.def.oneOf.responses : m.def.response ? [m.def.response] : [];
    for (const r of responses) {
      const args = (r.payload as { arguments?: unknown } | undefined)?.arguments;
      if (!r.payload || typeof r.payload !== "object" || !Array.isArray(args)) continue;
      for (const a of args) {
        if (!a || typeof a !== "object" || typeof (a as { name?: unknown }).name !== "string") continue;
        const { name, description, required } = a as { name: string; description?: unknown; required?: unknown };
        if (out.has(name)) continue;
        out.set(name, { name, ...(typeof description === "string" ? { description } : {}), ...(typeof required === "boolean" ? { required } : {}) });
      }
    }
  }
  return [...out.values()];
}

export function listPrompts(server: McpServerCatalog | undefined) {
  if (!server) return [];
  return [...server.prompts.values()].map((e) => {
    const description = descriptionOf(e);
    return { name: e.name, ...(description ? { description } : {}), arguments: promptArguments(e.mocks) };
  });
}

export function listResources(server: McpServerCatalog | undefined) {
  if (!server) return [];
  return [...server.resources.values()].map((e) => {
    const description = descriptionOf(e);
    const type = contentTypeOf(e.mocks[0].def.response?.headers);
    return { uri: e.name, name: e.name, ...(description ? { description } : {}), ...(type ? { mimeType: type } : {}) };
  });
}

function contentTypeOf(headers: Record<string, string[]> | undefined): string | undefined {
  for (const name in headers ?? {}) if (name.toLowerCase() === "content-type") return headers![name][0];
  return undefined;
}

// ---------------------------------------------------------------------------
// Results from a rendered payload.

/**
 * MCP rule 1: one text item holding the JSON of the payload (a missing payload
 * is `null`). A tool with an output schema (`structured`) also answers an
 * object payload as `structuredContent`, which MCP clients require of such a
 * tool and check against the schema; the text item stays for older clients.
 */
export function toolResult(payload: unknown, isError: boolean, structured = false) {
  const result: { content: { type: "text"; text: string }[]; isError: boolean; structuredContent?: Record<string, unknown> } = { content: [{ type: "text" as const, text: JSON.stringify(payload === undefined ? null : payload) }], isError };
  if (structured && !isError && payload !== null && typeof payload === "object" && !Array.isArray(payload)) result.structuredContent = payload as Record<string, unknown>;
  return result;
}

export type McpRole = "user" | "assistant";

/**
 * MCP rules 2 and 3: `messages` [{role, text}] or a plain string (one user
 * message). Another role is sent as "user"; a non-string text as its JSON;
 * an object payload without `messages` is one user message holding its JSON.
 * The payload's `arguments` is for prompts/list only; a payload `description`
 * (else the mock's) is the result's description.
 */
export function promptResult(payload: unknown, fallbackDescription: string | undefined) {
  const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v ?? null));
  const message = (role: unknown, t: unknown) => ({ role: (role === "assistant" ? "assistant" : "user") as McpRole, content: { type: "text" as const, text: text(t) } });
  let messages: ReturnType<typeof message>[];
  let description = fallbackDescription;
  if (typeof payload === "string") messages = [message("user", payload)];
  else if (payload && typeof payload === "object" && !Array.isArray(payload) && Array.isArray((payload as { messages?: unknown }).messages)) {
    const p = payload as { messages: unknown[]; description?: unknown };
    if (typeof p.description === "string") description = p.description;
    messages = p.messages.map((m) => {
      if (typeof m === "string") return message("user", m);
      const item = (m ?? {}) as { role?: unknown; text?: unknown; content?: { text?: unknown } };
      return message(item.role, item.text !== undefined ? item.text : item.content?.text);
    });
  } else if (payload === undefined) {
    messages = [];
  } else if (payload && typeof payload === "object" && !Array.isArray(payload)) {
    const { arguments: _shownByList, ...rest } = payload as Record<string, unknown>;
    messages = [message("user", rest)];
  } else {
    messages = [message("user", payload)];
  }
  return { ...(description ? { description } : {}), messages };
}

/** resources/read: a string payload is the text as is; anything else its JSON. */
export function resourceResult(uri: string, payload: unknown, contentType: string | undefined) {
  const isText = typeof payload === "string";
  return { contents: [{ uri, mimeType: contentType ?? (isText ? "text/plain" : "application/json"), text: isText ? (payload as string) : JSON.stringify(payload ?? null) }] };
}
