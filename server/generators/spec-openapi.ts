// HTTP mocks → an OpenAPI 3.0 document, which the OpenAPI generator
// (openapi.ts) reads back into mocks of the same method, path, status and
// payload. Mocks of one method and path (told apart by their conditions)
// become one operation: each status is a response, and each mock of a status
// an example of it, named by the mock id and described by its conditions;
// the mock without conditions comes first, so it is the default answer the
// generator makes again. Payload schemas are inferred from the examples.
// Rules: docs/decisions.md, "Generators".
import { STATUS_CODES } from "node:http";
import { protocolOf, type MockResponse } from "@/server/contracts/mock";
import { joinRoute } from "@/server/engine/route";
import { slug } from "./ids";
import { inferSchema } from "./infer-schema";
import { describeConditions, type SpecMock, type SpecOptions, type SpecResult, type SpecWarning } from "./spec-common";

type Obj = Record<string, unknown>;
type Response = Pick<MockResponse, "statusCode" | "payload" | "headers" | "decode">;
const METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"]);

interface Entry {
  mock: SpecMock;
  response: Response;
  name: string;
  conditions?: string;
}

interface Operation {
  path: string;
  method: string;
  params: string[];
  entries: Entry[];
  extra: Map<string, Obj>;
}

/** `/users/:id` → `/users/{id}` and its parameter names; undefined for a rest wildcard (`*`), which OpenAPI cannot say. */
function pathOf(route: string): { path: string; params: string[] } | undefined {
  const params: string[] = [];
  const segments = route === "/" ? [] : route.slice(1).split("/");
  const out: string[] = [];
  for (const s of segments) {
    if (s === "*" || s.includes("{") || s.includes("}")) return undefined;
    if (s.startsWith(":") && s.length > 1) {
      params.push(s.slice(1));
      out.push(`{${s.slice(1)}}`);
    } else out.push(s);
  }
  return { path: "/" + out.join("/"), params };
}

function mediaTypeOf(r: Response): { mediaType?: string; example?: unknown; binary: boolean } {
  const given = Object.entries(r.headers ?? {}).find(([h]) => h.toLowerCase() === "content-type")?.[1][0];
  const payload = r.payload;
  if (payload === undefined) return { mediaType: given, binary: false };
  if (r.decode === "base64") return { mediaType: given ?? "application/octet-stream", binary: true };
  const json = (t: string | undefined) => !!t && /^application\/(.+\+)?json\b/i.test(t);
  if (typeof payload === "string") {
    // A string for a JSON media type is JSON text: its value is the example.
    if (json(given)) {
      try {
        return { mediaType: given, example: JSON.parse(payload), binary: false };
      } catch {
        return { mediaType: "text/plain", example: payload, binary: false };
      }
    }
    return { mediaType: given ?? (payload.trimStart().startsWith("<") ? "application/xml" : "text/plain"), example: payload, binary: false };
  }
  return { mediaType: given && json(given) ? given : "application/json", example: payload, binary: false };
}

const hasConditions = (m: SpecMock) => !!(m.def.http?.conditions?.length || m.def.http?.queryParams?.length || m.def.http?.header?.length);

/** The default answer first (no conditions), then by priority, then by id: the order a client reads and the OpenAPI generator keeps. */
function order(a: Entry, b: Entry): number {
  return Number(hasConditions(a.mock)) - Number(hasConditions(b.mock)) || b.mock.def.priority - a.mock.def.priority || a.mock.id.localeCompare(b.mock.id);
}

function parametersOf(op: Operation): Obj[] {
  const out: Obj[] = op.params.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
  for (const [key, p] of op.extra) if (!out.some((o) => `${o.in}:${o.name}` === key)) out.push(p);
  return out;
}

function responsesOf(op: Operation): Obj {
  const responses: Obj = {};
  const byStatus = new Map<number, Entry[]>();
  for (const e of [...op.entries].sort(order)) {
    const status = e.response.statusCode ?? 200;
    byStatus.set(status, [...(byStatus.get(status) ?? []), e]);
  }
  for (const [status, entries] of byStatus) {
    const content: Record<string, { schema: Obj; examples: Obj }> = {};
    const headers: Obj = {};
    for (const e of entries) {
      const { mediaType, example, binary } = mediaTypeOf(e.response);
      for (const [h, v] of Object.entries(e.response.headers ?? {})) if (h.toLowerCase() !== "content-type" && !(h in headers)) headers[h] = { schema: { type: "string" }, example: v.join(", ") };
      if (!mediaType) continue;
      const media = (content[mediaType] ??= { schema: binary ? { type: "string", format: "binary" } : example === undefined ? {} : inferSchema(example, "openapi"), examples: {} });
      if (example !== undefined) media.examples[e.name] = { summary: `mock ${e.mock.id}`, ...(e.conditions ? { description: e.conditions } : {}), value: example };
    }
    const media = Object.fromEntries(
      Object.entries(content).map(([type, m]) => {
        const names = Object.keys(m.examples);
        // One example: `example`, which every reader understands; several: named `examples`.
        return [type, { schema: m.schema, ...(names.length === 1 ? { example: (m.examples[names[0]!] as Obj).value } : names.length ? { examples: m.examples } : {}) }];
      }),
    );
    responses[String(status)] = {
      description: `${STATUS_CODES[status] ?? "Status"} (mock ${entries.map((e) => e.mock.id).filter((v, i, a) => a.indexOf(v) === i).join(", ")})`,
      ...(Object.keys(headers).length ? { headers } : {}),
      ...(Object.keys(media).length ? { content: media } : {}),
    };
  }
  return responses;
}

export function mocksToOpenapi(mocks: SpecMock[], options: SpecOptions): SpecResult {
  const warnings: SpecWarning[] = [];
  const ops = new Map<string, Operation>();
  let exported = 0;
  const skip = (m: SpecMock, reason: string) => warnings.push({ mockId: m.id, route: m.route, reason });

  for (const m of mocks) {
    const protocol = protocolOf(m.def);
    const http = m.def.http;
    if (protocol !== "http" || !http) {
      skip(m, `a ${protocol} mock cannot be expressed in OpenAPI (HTTP mocks only)`);
      continue;
    }
    if (!http.route) {
      skip(m, "a route pattern (regular expression) cannot be expressed as an OpenAPI path");
      continue;
    }
    const parsed = pathOf(joinRoute(m.def.pathPrefix, http.route));
    if (!parsed) {
      skip(m, "a route with a * wildcard (or braces) cannot be expressed as an OpenAPI path");
      continue;
    }
    let method = http.httpMethod?.toLowerCase() ?? "get";
    if (!METHODS.has(method)) {
      skip(m, `the method ${http.httpMethod} cannot be expressed in OpenAPI`);
      continue;
    }
    const responses: Response[] = m.def.oneOf?.responses ?? (m.def.response ? [m.def.response] : []);
    if (!responses.length) {
      skip(m, m.def.proxy ? `it proxies to ${m.def.proxy.target}: no response to describe` : "it has no response to describe");
      continue;
    }
    const bad = responses.find((r) => r.statusCode !== undefined && r.statusCode < 100);
    if (bad) {
      skip(m, `status ${bad.statusCode} is not an HTTP status`);
      continue;
    }
    if (!http.httpMethod) {
      warnings.push({ mockId: m.id, route: m.route, reason: "it answers any method: exported as GET" });
      method = "get";
    }
    const losses = [m.def.response?.payloadTemplatePath ? "payloadTemplatePath" : "", responses.some((r) => r.decode === "base64") ? "its binary payload's example" : "", m.def.proxy ? "proxy" : "", http.routePattern ? "routePattern" : ""].filter(Boolean);
    if (losses.length) warnings.push({ mockId: m.id, route: m.route, reason: `exported without ${losses.join(", ")} (OpenAPI has no field for it)` });
    const key = `${method} ${parsed.path}`;
    const op: Operation = ops.get(key) ?? { ...parsed, method, entries: [], extra: new Map() };
    ops.set(key, op);
    const conditions = describeConditions([
      ["body", http.conditions],
      ["query", http.queryParams],
      ["header", http.header],
    ]);
    // Query and header conditions name parameters the operation takes.
    for (const [where, list] of [["query", http.queryParams], ["header", http.header]] as const) {
      for (const c of list ?? []) {
        const k = `${where}:${c.path}`;
        if (!op.extra.has(k)) op.extra.set(k, { name: c.path, in: where, required: false, schema: { type: "string" }, ...(c.assertAction === "equals" && typeof c.value === "string" ? { example: c.value } : {}) });
      }
    }
    responses.forEach((response, i) => op.entries.push({ mock: m, response, name: responses.length > 1 ? `${m.id}-${i + 1}` : m.id, conditions }));
    exported++;
  }

  const paths: Record<string, Obj> = {};
  const usedIds = new Set<string>();
  for (const op of [...ops.values()].sort((a, b) => a.path.localeCompare(b.path))) {
    let operationId = slug(`${op.method}-${op.path.replace(/[{}]/g, "")}`, 80);
    for (let n = 2; usedIds.has(operationId); n++) operationId = `${operationId}-${n}`;
    usedIds.add(operationId);
    const ids = [...new Set(op.entries.map((e) => e.mock.id))];
    const tags = [...new Set(op.entries.flatMap((e) => e.mock.def.tags ?? []))];
    const parameters = parametersOf(op);
    (paths[op.path] ??= {})[op.method] = {
      operationId,
      summary: `Mocked by ${ids.join(", ")}`,
      ...(tags.length ? { tags } : {}),
      ...(parameters.length ? { parameters } : {}),
      responses: responsesOf(op),
    };
  }
  const spec = {
    openapi: "3.0.3",
    info: { title: options.title ?? `${options.namespace} HTTP mocks`, version: options.version ?? "1.0.0", description: `HTTP mocks of the namespace ${options.namespace}.` },
    servers: [{ url: options.serverUrl ?? `/stubs/${options.namespace}` }],
    paths,
  };
  return { spec, warnings, exported };
}
