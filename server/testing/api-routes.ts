// For tests that drive the whole documented API: every route handler under
// app/ keyed by "METHOD /openapi/path", the OpenAPI document, and a check of a
// real answer (status, media type, body) against that document with ajv.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { buildOpenApi } from "@/server/http/openapi";

export const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
const root = path.resolve(import.meta.dirname, "../..");

type Json = Record<string, any>;
export type RouteHandler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const p = path.join(dir, entry);
    if (statSync(p).isDirectory()) return routeFiles(p);
    return entry === "route.ts" ? [p] : [];
  });
}

export function toOpenApiPath(file: string): string {
  const rel = path.relative(path.join(root, "app"), path.dirname(file)).split(path.sep);
  return "/" + rel.filter((s) => !/^\(.*\)$/.test(s)).map((s) => s.replace(/^\[(.+)\]$/, "{$1}")).join("/");
}

/**
 * Route files of the documented API (not the UI's tRPC/next-auth plumbing, the
 * stub catch-all, the Swagger UI, or the catch-alls that answer unknown paths
 * with a JSON 404: server/http/unknown-endpoint.ts).
 */
export function apiRouteFiles(): string[] {
  return routeFiles(path.join(root, "app")).filter((f) => {
    const p = toOpenApiPath(f);
    if (p.includes("{...")) return false;
    return p.startsWith("/api/v1/") || p.startsWith("/health") || p === "/metrics" || p === "/swagger/doc.json";
  });
}

/** "GET /api/v1/mocks/{id}" → the exported handler. */
export async function loadHandlers(): Promise<Map<string, RouteHandler>> {
  const out = new Map<string, RouteHandler>();
  for (const file of apiRouteFiles()) {
    const mod = (await import(file)) as Record<string, unknown>;
    for (const m of METHODS) if (typeof mod[m] === "function") out.set(`${m} ${toOpenApiPath(file)}`, mod[m] as RouteHandler);
  }
  return out;
}

export const openApiDoc = buildOpenApi("test") as { openapi: string; paths: Record<string, Record<string, Json>>; components: { schemas: Record<string, Json> } };

/** Every documented operation as "METHOD /path". */
export function documentedOperations(): string[] {
  return Object.entries(openApiDoc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`));
}

export function operation(key: string): Json {
  const [method, p] = key.split(" ");
  const op = openApiDoc.paths[p]?.[method.toLowerCase()];
  if (!op) throw new Error(`${key} is not in the OpenAPI document`);
  return op;
}

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema({ $id: "doc", components: openApiDoc.components }, "doc");
const compiled = new Map<string, ValidateFunction>();

function validator(key: string, status: string, media: string, schema: Json): ValidateFunction {
  const id = `${key} ${status} ${media}`;
  let v = compiled.get(id);
  if (!v) {
    // The document's local refs (#/components/...) resolve against the registered "doc" schema.
    const rewritten = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
    v = ajv.compile(rewritten);
    compiled.set(id, v);
  }
  return v;
}

export interface Answer {
  status: number;
  contentType: string | null;
  text: string;
}

/** Problems of a real answer measured against the document; empty when it is true to it. */
export function checkAnswer(key: string, answer: Answer): string[] {
  const op = operation(key);
  const response = op.responses[String(answer.status)];
  if (!response) return [`${key} answered ${answer.status}, which the document does not list (${Object.keys(op.responses).join(", ")}); body: ${answer.text.slice(0, 300)}`];
  const content = response.content as Record<string, { schema: Json }> | undefined;
  if (!content) return answer.text === "" ? [] : [`${key} ${answer.status} has a body, but the document lists none`];
  const media = (answer.contentType ?? "").split(";")[0].trim().toLowerCase();
  const entry = content[media] ?? content["*/*"];
  if (!entry) return [`${key} ${answer.status} answered ${media || "no Content-Type"}; the document lists ${Object.keys(content).join(", ")}`];
  if (media !== "application/json") return [];
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`${key} ${answer.status} says JSON but the body is not: ${answer.text.slice(0, 200)}`];
  }
  const validate = validator(key, String(answer.status), media, entry.schema);
  if (validate(body)) return [];
  return [`${key} ${answer.status} body breaks the document: ${ajv.errorsText(validate.errors, { separator: "; " })}; body: ${answer.text.slice(0, 400)}`];
}
