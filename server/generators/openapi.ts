// OpenAPI 3.0/3.1 and Swagger 2.0 → HTTP mocks. One mock per operation and
// response example: the first 2xx response's first example answers by
// default; every other response and example is chosen with a `Prefer`
// header, as Prism does (`Prefer: code=404`, `Prefer: example=empty`, or
// both). Payloads come from the document's examples, else from the schema
// (server/generators/schema-sample.ts). Local $refs only: a document cannot
// make the server read files or fetch URLs. Rules: docs/decisions.md,
// "Generators".
import SwaggerParser from "@apidevtools/swagger-parser";
import type { MockInput } from "@/server/contracts/mock";
import { GeneratorInputError } from "./input-error";
import { mockId, slug, uniqueIds } from "./ids";
import { sampleSchema } from "./schema-sample";
import type { GeneratedMock, GeneratorOptions, GeneratorResult, GeneratorWarning } from "./types";
import { externalRef, isObject, pointer, type Obj } from "./json-document";

export const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** The header a client sends to pick a response other than the default. */
export const PREFER_HEADER = "Prefer";

/** A `Prefer` preference as an RE2 pattern: `code=404` among others, separated by commas, semicolons or spaces. */
export function preferPattern(name: "code" | "example" | "fault", value: string): string {
  const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return `(^|[\\s,;])${name}=${escaped}($|[\\s,;])`;
}

interface Example {
  name?: string;
  value: unknown;
}

interface ResponseChoice {
  status: number;
  /** The key in `responses` ("200", "2XX", "default"). */
  key: string;
  mediaType?: string;
  examples: Example[];
  headers: Record<string, string>;
  /** The example of the first choice is generated from the schema (no example in the document). */
  generated: boolean;
}

/** Which document this is, or why it is none. */
function versionOf(doc: unknown): "2" | "3" {
  if (!isObject(doc)) throw new GeneratorInputError("not an OpenAPI document: expected an object at the top level");
  if (typeof doc.openapi === "string") {
    if (!/^3\.[01]\./.test(doc.openapi)) throw new GeneratorInputError(`OpenAPI ${doc.openapi} is not supported (3.0.x, 3.1.x and Swagger 2.0 are)`, { pointer: "/openapi" });
    return "3";
  }
  if (typeof doc.openapi === "number" || typeof doc.swagger === "number") throw new GeneratorInputError(`the version must be a string ("3.0.3", "2.0"), not the number ${doc.openapi ?? doc.swagger}`, { pointer: doc.openapi !== undefined ? "/openapi" : "/swagger" });
  if (doc.swagger === "2.0") return "2";
  throw new GeneratorInputError("not an OpenAPI document: it has neither an `openapi` nor a `swagger: \"2.0\"` field");
}

const clone = <T>(v: T): T => structuredClone(v);

/** Problems the validator finds are warnings: a slightly wrong document still gives useful mocks. */
async function validationWarnings(doc: Obj): Promise<GeneratorWarning[]> {
  try {
    await SwaggerParser.validate(clone(doc) as never, { resolve: { external: false }, dereference: { circular: "ignore" } });
    return [];
  } catch (err) {
    const e = err as { details?: { message?: string; instancePath?: string; path?: (string | number)[] }[]; message: string };
    if (e.details?.length) return e.details.slice(0, 20).map((d) => ({ pointer: d.instancePath || (d.path ? pointer(...d.path.map(String)) : undefined), message: `not valid OpenAPI: ${d.message ?? e.message}` }));
    return [{ message: `not valid OpenAPI: ${e.message.split("\n")[0]}` }];
  }
}


async function dereference(doc: Obj): Promise<Obj> {
  const external = externalRef(doc);
  if (external) throw new GeneratorInputError(`cannot resolve the document: $ref "${external.ref}" points outside it (only local references, "#/…", are followed)`, { pointer: external.at });
  try {
    return (await SwaggerParser.dereference(clone(doc) as never, { resolve: { external: false }, dereference: { circular: "ignore" } })) as unknown as Obj;
  } catch (err) {
    const message = (err as Error).message.split("\n")[0];
    const ref = /"(#[^"]*)"/.exec(message)?.[1];
    throw new GeneratorInputError(`cannot resolve the document: ${message}`, ref ? { pointer: ref.slice(1) } : {});
  }
}

/** A status key as a number: "2XX" is 200, "default" is 500 (an error no other response names). */
function statusOf(key: string): number | undefined {
  if (/^[1-5]\d\d$/.test(key)) return Number(key);
  if (/^[1-5]XX$/i.test(key)) return Number(key[0]) * 100;
  if (key === "default") return 500;
  return undefined;
}

const JSONISH = /^application\/(.+\+)?json\b/i;

function pickMedia(types: string[]): string | undefined {
  return types.find((t) => JSONISH.test(t)) ?? types.find((t) => /^text\//i.test(t)) ?? types[0];
}

function headerValues(headers: unknown, spec: Obj, v2: boolean): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isObject(headers)) return out;
  for (const [name, h] of Object.entries(headers)) {
    if (!isObject(h) || name.toLowerCase() === "content-type") continue;
    const schema = v2 ? h : h.schema;
    const value = h.example ?? (isObject(schema) ? (schema.example ?? sampleSchema(schema, { spec, fake: true })) : undefined);
    if (value !== undefined && value !== null) out[name] = typeof value === "string" ? value : JSON.stringify(value);
  }
  return out;
}

function choicesOf(op: Obj, spec: Obj, v2: boolean, at: string, warnings: GeneratorWarning[]): ResponseChoice[] {
  const responses = isObject(op.responses) ? op.responses : {};
  const produces = (Array.isArray(op.produces) ? op.produces : Array.isArray(spec.produces) ? spec.produces : []) as string[];
  const out: ResponseChoice[] = [];
  for (const [key, r] of Object.entries(responses)) {
    const status = statusOf(key);
    if (status === undefined || !isObject(r)) {
      warnings.push({ pointer: `${at}/responses/${key}`, message: `response "${key}" is not a status code: skipped` });
      continue;
    }
    // "default" only stands for a status no other response of the operation has.
    if (key === "default" && Object.keys(responses).some((k) => statusOf(k) === status && k !== "default")) continue;
    const headers = headerValues(r.headers, spec, v2);
    let mediaType: string | undefined;
    let schema: unknown;
    const examples: Example[] = [];
    if (v2) {
      schema = r.schema;
      const ex = isObject(r.examples) ? r.examples : {};
      mediaType = pickMedia(Object.keys(ex)) ?? (schema ? (pickMedia(produces) ?? "application/json") : undefined);
      if (mediaType && ex[mediaType] !== undefined) examples.push({ value: ex[mediaType] });
    } else {
      const content = isObject(r.content) ? r.content : {};
      mediaType = pickMedia(Object.keys(content));
      const media = mediaType ? content[mediaType] : undefined;
      if (isObject(media)) {
        schema = media.schema;
        if (isObject(media.examples)) {
          for (const [name, e] of Object.entries(media.examples)) {
            if (!isObject(e)) continue;
            if (e.value !== undefined) examples.push({ name, value: e.value });
            else if (e.externalValue) warnings.push({ pointer: `${at}/responses/${key}/content/${mediaType}/examples/${name}`, message: `example "${name}" is an externalValue, which is not fetched: skipped` });
          }
        }
        if (!examples.length && media.example !== undefined) examples.push({ value: media.example });
      }
    }
    let generated = false;
    if (!examples.length && mediaType) {
      if (isObject(schema)) {
        const value = sampleSchema(schema, { spec, fake: JSONISH.test(mediaType) });
        if (!JSONISH.test(mediaType) && typeof value !== "string") {
          warnings.push({ pointer: `${at}/responses/${key}`, message: `no example for ${mediaType}, and only JSON bodies are generated from a schema: the mock answers without a body` });
          mediaType = undefined;
        } else {
          examples.push({ value });
          generated = true;
        }
      } else mediaType = undefined;
    }
    out.push({ status, key, mediaType, examples: examples.length ? examples : [{ value: undefined }], headers, generated });
  }
  return out;
}

/** Path template → route: `{petId}` becomes `:petId`; names the route syntax cannot hold are renamed (with a warning). */
function routeOf(path: string, at: string, warnings: GeneratorWarning[]): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const safe = name.replace(/[^A-Za-z0-9_]/g, "_");
    if (safe !== name) warnings.push({ pointer: at, message: `path parameter "${name}" is "${safe}" in the route ($.pathParam.${safe})` });
    return `:${safe}`;
  });
}

export interface OpenApiDocument {
  /** Swagger 2.0 (else OpenAPI 3.0/3.1). */
  v2: boolean;
  /** The document with its local $refs resolved. */
  spec: Obj;
  /** The validator's findings. */
  warnings: GeneratorWarning[];
}

/** The one read of an OpenAPI document (the mock generator and the API tester's import): version, validation, local $refs. */
export async function readOpenApi(document: unknown): Promise<OpenApiDocument> {
  const v2 = versionOf(document) === "2";
  const raw = document as Obj;
  if (!isObject(raw.paths) && !isObject(raw.webhooks)) throw new GeneratorInputError("the document has no paths", { pointer: "/paths" });
  const warnings = await validationWarnings(raw);
  const spec = await dereference(raw);
  const paths = isObject(spec.paths) ? spec.paths : {};
  if (!Object.keys(paths).length && !isObject(spec.webhooks)) throw new GeneratorInputError("the document has no operations under paths", { pointer: "/paths" });
  return { v2, spec, warnings };
}

export async function openapiToMocks(document: unknown, options: GeneratorOptions = {}): Promise<GeneratorResult> {
  const { v2, spec, warnings } = await readOpenApi(document);
  const info = isObject(spec.info) ? spec.info : {};
  const prefix = options.idPrefix ?? slug(typeof info.title === "string" ? info.title : "openapi", 40);
  const paths = isObject(spec.paths) ? spec.paths : {};
  if (isObject(spec.webhooks) && Object.keys(spec.webhooks).length) warnings.push({ pointer: "/webhooks", message: "webhooks describe calls the API makes, not requests it answers: no mocks for them" });

  const mocks: GeneratedMock[] = [];
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const at = pointer("paths", path, method);
      const route = routeOf(path, at, warnings);
      const opKey = typeof op.operationId === "string" && op.operationId ? op.operationId : `${method}-${path}`;
      if (isObject(op.callbacks)) warnings.push({ pointer: `${at}/callbacks`, message: "callbacks are not generated" });
      const choices = choicesOf(op, spec, v2, at, warnings);
      if (!choices.length) {
        warnings.push({ pointer: `${at}/responses`, message: "the operation has no responses: skipped" });
        continue;
      }
      // The default answer: the first 2xx, else the first response the operation lists.
      const first = choices.find((c) => c.status >= 200 && c.status < 300) ?? choices[0];
      const ordered = [first, ...choices.filter((c) => c !== first)];
      for (const choice of ordered) {
        choice.examples.forEach((example, i) => {
          const header: { path: string; assertAction: "matches"; value: string }[] = [];
          if (choice !== first) header.push({ path: PREFER_HEADER, assertAction: "matches", value: preferPattern("code", String(choice.status)) });
          if (i > 0 && example.name) header.push({ path: PREFER_HEADER, assertAction: "matches", value: preferPattern("example", example.name) });
          // A string payload goes out as is; a JSON string must carry its quotes.
          const payload = typeof example.value === "string" && choice.mediaType && JSONISH.test(choice.mediaType) ? JSON.stringify(example.value) : example.value;
          const mock: MockInput & { id: string } = {
            id: mockId(prefix, opKey, String(choice.status), i > 0 ? (example.name ?? String(i + 1)) : undefined),
            http: { route, httpMethod: method.toUpperCase() as never, ...(header.length ? { header } : {}) },
            response: {
              statusCode: choice.status,
              ...(payload !== undefined ? { payload } : {}),
              ...(choice.mediaType || Object.keys(choice.headers).length ? { headers: { ...(choice.mediaType ? { "Content-Type": choice.mediaType } : {}), ...choice.headers } } : {}),
            },
            // A more specific choice wins over the default when both match.
            ...(header.length ? { priority: header.length } : {}),
            ...(options.pathPrefix ? { pathPrefix: options.pathPrefix } : {}),
            ...(options.serverName ? { serverName: options.serverName } : {}),
            ...(options.tags?.length ? { tags: options.tags } : {}),
            ...(options.folderId !== undefined ? { folderId: options.folderId } : {}),
          };
          const name = example.name ? ` (example ${example.name})` : choice.generated ? " (from the schema)" : "";
          mocks.push({ mock, summary: `${method.toUpperCase()} ${path} → ${choice.status}${name}${choice === first && i === 0 ? ", default" : ""}` });
        });
      }
    }
  }
  uniqueIds(mocks);
  return { mocks, warnings };
}
