// The OpenAPI 3.0 document, generated from the endpoint contracts. It lists
// every status an operation can answer with its real media types; response
// objects are closed (additionalProperties: false), so a test validating real
// answers against this document fails on any field a handler leaks.
import { z } from "zod";
import { allEndpoints } from "@/server/contracts/api";
import { ErrorEnvelopeSchema } from "@/server/contracts/common";
import type { Endpoint } from "@/server/contracts/endpoint";

type Json = Record<string, unknown>;

/** Named schemas of the document being built (recursive ones: zod gives them a `.meta({id})`). */
let components: Record<string, Json> = {};

/**
 * A zod schema as OpenAPI 3.0. A recursive schema comes out of zod with its
 * own `definitions` and `#/definitions/…` refs, which would not resolve in
 * the document: they move to components/schemas (input shapes get an
 * `Input` suffix, since defaults make them differ from the output).
 */
function schemaOf(s: z.ZodType, io: "input" | "output"): Json {
  const json = z.toJSONSchema(s, { target: "openapi-3.0", io, unrepresentable: "any" }) as Json;
  delete json.$schema;
  const defs = (json.definitions ?? {}) as Record<string, Json>;
  delete json.definitions;
  const names = new Map(Object.keys(defs).map((name) => [name, `${name}${io === "input" ? "Input" : ""}`]));
  const relink = (node: Json): Json =>
    JSON.parse(JSON.stringify(node).replace(/"#\/definitions\/([^"]+)"/g, (_, name: string) => {
      if (name.startsWith("__")) throw new Error(`A recursive schema needs .meta({ id }) to be named in the OpenAPI document (${name})`);
      return JSON.stringify(`#/components/schemas/${names.get(name) ?? name}`);
    }));
  for (const [name, def] of Object.entries(defs)) {
    const component = openApi30(relink(def)) as Json;
    const key = names.get(name)!;
    if (components[key] && JSON.stringify(components[key]) !== JSON.stringify(component)) throw new Error(`Two different schemas are named ${key} in the OpenAPI document`);
    components[key] = component;
  }
  return openApi30(relink(json)) as Json;
}

/**
 * OpenAPI 3.0.3 `nullable` only qualifies a `type` and does not widen an
 * `enum`: a nullable enum lists null itself, and a typeless schema (any
 * value, null included) drops the keyword validators reject.
 */
function openApi30(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(openApi30);
  if (!node || typeof node !== "object") return node;
  const out: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, openApi30(v)]));
  if (out.nullable === true && Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  if (out.nullable === true && out.type === undefined && !["anyOf", "oneOf", "allOf", "$ref", "enum"].some((k) => k in out)) delete out.nullable;
  return out;
}

function parametersOf(e: Endpoint): Json[] {
  const out: Json[] = [];
  const add = (s: z.ZodType | undefined, where: "path" | "query") => {
    if (!s) return;
    const json = schemaOf(s, "input") as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      out.push({ name, in: where, required: where === "path" || (json.required ?? []).includes(name), schema, ...(schema.description ? { description: schema.description } : {}) });
    }
  };
  add(e.params, "path");
  add(e.query, "query");
  if (e.namespaced) {
    const fallback = e.namespaceFallback ?? "default sandbox";
    const description = `namespace (or header X-Service-Namespace, path form /api/v1/namespaces/<ns>/..., or \`namespace\` in a JSON body that has it); ${fallback}`;
    // A query contract that declares `namespace` itself gets the description instead of a second parameter of that name.
    const declared = out.find((p) => p.name === "namespace" && p.in === "query");
    if (declared) declared.description = description;
    else out.push({ name: "namespace", in: "query", required: false, schema: { type: "string" }, description });
  }
  return out;
}

/** The errors an operation has because of what it is (define-route.ts raises them before the handler runs). */
function implicitErrors(e: Endpoint): Record<string, string> {
  const out: Record<string, string> = {
    "400": "Invalid input (error envelope, code validation; details name the fields)",
    "401":
      e.auth === "none"
        ? "An invalid bearer token (a stale session cookie is ignored here)"
        : "Missing, invalid, expired or revoked credential",
  };
  if (e.auth === "admin" || e.permission) out["403"] = e.auth === "admin" ? "Authenticated without the admin role" : "Authenticated but not allowed";
  if (e.params || e.namespaced) out["404"] = e.namespaced ? "Not found, or a namespace the caller cannot read" : "Not found";
  if (e.body) out["413"] = "Request body larger than the limit (MAX_BODY_BYTES)";
  out["429"] = e.rateLimit === "auth" ? "Too many attempts from this address; see Retry-After" : "Rate limited (per API credential); see Retry-After";
  return out;
}

const ERROR_CONTENT = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };

function successContent(e: Endpoint): Json | undefined {
  if (e.response) return { "application/json": { schema: schemaOf(e.response, "output") } };
  if (!e.produces) return undefined;
  const types = typeof e.produces === "string" ? [e.produces] : e.produces;
  const schemaFor = (t: string) => (t === "*/*" ? { type: "string", format: "binary" } : t === "application/json" ? { type: "object" } : { type: "string" });
  return Object.fromEntries(types.map((t) => [t, { schema: schemaFor(t) }]));
}

function responsesOf(e: Endpoint): Record<string, Json> {
  const content = successContent(e);
  const success = (description: string): Json => ({ description, ...(content ? { content } : {}) });
  const responses: Record<string, Json> = { [String(e.successStatus ?? 200)]: success("Success") };
  for (const [code, description] of Object.entries(implicitErrors(e))) responses[code] = { description, content: ERROR_CONTENT };
  for (const [code, declared] of Object.entries(e.statuses ?? {})) {
    if (typeof declared !== "string") responses[code] = success(declared.description);
    else responses[code] = Number(code) < 300 ? success(declared) : { description: declared, content: ERROR_CONTENT };
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

export function buildOpenApi(releaseId: string): Json {
  components = {};
  const paths: Record<string, Record<string, Json>> = {};
  for (const e of allEndpoints) {
    const op: Json = {
      summary: e.summary,
      tags: [e.tag],
      operationId: `${e.method.toLowerCase()}${e.path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
      parameters: parametersOf(e),
      security: e.auth === "none" ? [] : [{ apiKey: [] }, { bearer: [] }, { session: [] }],
    };
    if (e.auth === "admin") op.description = "Admin role required.";
    if (e.permission) op.description = `${op.description ?? ""} Needs '${e.permission}' permission${e.namespaced ? " in the namespace" : ""}.`.trim();
    if (e.body) op.requestBody = { required: true, content: { "application/json": { schema: schemaOf(e.body, "input") } } };
    op.responses = responsesOf(e);
    (paths[e.path] ??= {})[e.method.toLowerCase()] = op;
  }
  return {
    openapi: "3.0.3",
    info: {
      title: "Polymock API",
      version: releaseId,
      description: "Management API of the Polymock multi-protocol mock service. Errors use one envelope: {error, code, request_id, details}.",
    },
    servers: [{ url: "/" }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "X-API-Key" },
        bearer: { type: "http", scheme: "bearer" },
        session: { type: "apiKey", in: "cookie", name: "polymock_session" },
      },
      // Open on purpose: some codes add documented top-level fields (duplicate_entity's matchLevel, …).
      schemas: { Error: { ...schemaOf(ErrorEnvelopeSchema, "output"), additionalProperties: true }, ...components },
    },
  };
}
