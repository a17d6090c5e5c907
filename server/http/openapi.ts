// The OpenAPI 3.0 document, generated from the endpoint contracts.
import { z } from "zod";
import { allEndpoints } from "@/server/contracts/api";
import { ErrorEnvelopeSchema } from "@/server/contracts/common";
import type { Endpoint } from "@/server/contracts/endpoint";

type Json = Record<string, unknown>;

function schemaOf(s: z.ZodType, io: "input" | "output"): Json {
  const json = z.toJSONSchema(s, { target: "openapi-3.0", io, unrepresentable: "any" }) as Json;
  delete json.$schema;
  return json;
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

const ERROR_RESPONSES: Record<string, string> = {
  "400": "Invalid input (error envelope, code validation; details name the fields)",
  "401": "Missing, invalid, expired or revoked credential",
  "403": "Authenticated but not allowed",
  "404": "Not found, or a namespace the caller cannot read",
  "429": "Rate limited; see Retry-After",
};

export function buildOpenApi(releaseId: string): Json {
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
    const ok = String(e.successStatus ?? 200);
    const responses: Record<string, Json> = {
      [ok]: e.response
        ? { description: "Success", content: { "application/json": { schema: schemaOf(e.response, "output") } } }
        : { description: "Success", ...(e.produces ? { content: { [e.produces]: { schema: { type: "string" } } } } : {}) },
    };
    for (const [code, description] of Object.entries(ERROR_RESPONSES)) {
      if (code === "401" || code === "403") {
        if (e.auth === "none") continue;
      }
      responses[code] = { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
    }
    for (const [code, description] of Object.entries(e.errorStatuses ?? {})) {
      responses[code] = { description, content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
    }
    op.responses = responses;
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
      schemas: { Error: schemaOf(ErrorEnvelopeSchema, "output") },
    },
  };
}
