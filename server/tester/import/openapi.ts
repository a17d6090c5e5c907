// OpenAPI 3.0/3.1 and Swagger 2.0 → an API tester collection, read by the
// generators' one OpenAPI reader (server/generators/openapi.ts), mapped as
// Postman's importer does: a folder per operation's first tag (untagged
// operations at the top), a request per operation named by its summary,
// `{{baseUrl}}` from servers[0] (or host/basePath), path parameters as
// `{{name}}` collection variables holding their example, query parameters
// and headers with their examples (optional ones disabled), a body from the
// example or sampled from the schema, and the security scheme as auth
// (collection-wide for the document's security, per request where an
// operation differs).
import type { KeyValue, RequestAuth, RequestBody, RequestDefinitionInput, Variable } from "@/server/contracts/tester-request";
import { isObject, pointer, type Obj } from "@/server/generators/json-document";
import { METHODS, readOpenApi } from "@/server/generators/openapi";
import { sampleSchema } from "@/server/generators/schema-sample";
import { braceVariables, collectionDocument, folderItem, jsonText, requestItem, textValue, variable, type ConvertedCollection, type ImportWarning, type ItemInput } from "./common";

const JSONISH = /^application\/(.+\+)?json\b/i;

/** servers[0] (its variables at their defaults) or Swagger's scheme://host/basePath. */
function baseUrlOf(spec: Obj, v2: boolean, warnings: ImportWarning[]): string {
  if (v2) {
    const scheme = Array.isArray(spec.schemes) && typeof spec.schemes[0] === "string" ? spec.schemes[0] : "https";
    const host = typeof spec.host === "string" ? spec.host : undefined;
    const base = typeof spec.basePath === "string" ? spec.basePath.replace(/\/$/, "") : "";
    if (!host) warnings.push({ pointer: "/host", message: "the document names no host: set the baseUrl variable before sending" });
    return host ? `${scheme}://${host}${base}` : base;
  }
  const server = Array.isArray(spec.servers) && isObject(spec.servers[0]) ? spec.servers[0] : undefined;
  if (!server || typeof server.url !== "string") {
    warnings.push({ pointer: "/servers", message: "the document names no server: set the baseUrl variable before sending" });
    return "";
  }
  const vars = isObject(server.variables) ? server.variables : {};
  const url = server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const v = vars[name];
    return isObject(v) && v.default !== undefined ? String(v.default) : whole;
  });
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) warnings.push({ pointer: "/servers/0/url", message: `the server URL "${url}" is relative: put the host in front of it in the baseUrl variable` });
  return url.replace(/\/$/, "");
}

function exampleOf(p: Obj, spec: Obj): unknown {
  if (p.example !== undefined) return p.example;
  if (isObject(p.examples)) {
    const first = Object.values(p.examples)[0];
    if (isObject(first) && first.value !== undefined) return first.value;
  }
  const schema = isObject(p.schema) ? p.schema : p; // Swagger 2 keeps type/enum/default on the parameter itself
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (typeof schema.type === "string" || isObject(schema.items) || isObject(schema.properties)) return sampleSchema(schema, { spec, fake: false, direction: "request" });
  return "";
}

/** Path-item parameters overridden by the operation's of the same name and place. */
function parametersOf(item: Obj, op: Obj): Obj[] {
  const out = new Map<string, Obj>();
  for (const list of [item.parameters, op.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const p of list) if (isObject(p) && typeof p.name === "string") out.set(`${p.in}:${p.name}`, p);
  }
  return [...out.values()];
}

function v3Body(op: Obj, spec: Obj, headers: KeyValue[]): RequestBody | undefined {
  const rb = isObject(op.requestBody) ? op.requestBody : undefined;
  const content = rb && isObject(rb.content) ? rb.content : undefined;
  if (!content) return undefined;
  const types = Object.keys(content);
  const type = types.find((t) => JSONISH.test(t)) ?? types.find((t) => /x-www-form-urlencoded|multipart\/form-data/i.test(t)) ?? types[0];
  if (!type) return undefined;
  const media = isObject(content[type]) ? content[type] : {};
  let value: unknown = media.example;
  if (value === undefined && isObject(media.examples)) {
    const first = Object.values(media.examples)[0];
    if (isObject(first)) value = first.value;
  }
  if (value === undefined && isObject(media.schema)) value = media.schema.example ?? sampleSchema(media.schema, { spec, fake: false, direction: "request" });
  return bodyFor(type, value, headers);
}

function bodyFor(type: string, value: unknown, headers: KeyValue[]): RequestBody {
  const fields = (v: unknown) => (isObject(v) ? Object.entries(v).map(([key, x]) => ({ key, value: textValue(x), enabled: true })) : []);
  if (/x-www-form-urlencoded/i.test(type)) return { mode: "urlencoded", urlencoded: fields(value) };
  if (/multipart\/form-data/i.test(type)) return { mode: "formdata", formdata: fields(value).map((f) => ({ ...f, type: "text" as const })) };
  headers.push({ key: "Content-Type", value: type, enabled: true });
  if (JSONISH.test(type)) return { mode: "raw", language: "json", raw: value === undefined ? "" : jsonText(value) };
  const xml = /xml/i.test(type);
  return { mode: "raw", language: xml ? "xml" : "text", raw: typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value, null, 2) };
}

function v2Body(params: Obj[], op: Obj, spec: Obj, headers: KeyValue[]): RequestBody | undefined {
  const consumes = (Array.isArray(op.consumes) ? op.consumes : Array.isArray(spec.consumes) ? spec.consumes : []) as string[];
  const body = params.find((p) => p.in === "body");
  if (body) {
    const schema = isObject(body.schema) ? body.schema : {};
    const type = consumes.find((t) => JSONISH.test(t)) ?? consumes[0] ?? "application/json";
    return bodyFor(type, schema.example ?? sampleSchema(schema, { spec, fake: false, direction: "request" }), headers);
  }
  const form = params.filter((p) => p.in === "formData");
  if (!form.length) return undefined;
  const multipart = form.some((p) => p.type === "file") || consumes.some((t) => /multipart/i.test(t));
  if (multipart) return { mode: "formdata", formdata: form.map((p) => ({ key: String(p.name), type: p.type === "file" ? ("file" as const) : ("text" as const), value: p.type === "file" ? "" : textValue(exampleOf(p, spec)), enabled: p.required === true })) };
  return { mode: "urlencoded", urlencoded: form.map((p) => ({ key: String(p.name), value: textValue(exampleOf(p, spec)), enabled: p.required === true })) };
}

interface AuthContext {
  schemes: Obj;
  variables: Variable[];
  warnings: ImportWarning[];
}

/** The first scheme of the first requirement a client can meet, as the request's auth. */
function authOf(security: unknown, ctx: AuthContext, at: string): RequestAuth | undefined {
  if (!Array.isArray(security)) return undefined;
  if (security.length === 0 || security.some((r) => isObject(r) && Object.keys(r).length === 0)) return { type: "none" };
  const requirement = security.find(isObject);
  const name = requirement ? Object.keys(requirement)[0] : undefined;
  const scheme = name !== undefined && isObject(ctx.schemes[name]) ? ctx.schemes[name] : undefined;
  if (!scheme) return undefined;
  const type = String(scheme.type ?? "");
  const scheme3 = typeof scheme.scheme === "string" ? scheme.scheme.toLowerCase() : "";
  if (type === "basic" || (type === "http" && scheme3 === "basic")) {
    ctx.variables.push(variable("username", ""), variable("password", "", true));
    return { type: "basic", basic: { username: "{{username}}", password: "{{password}}" } };
  }
  if (type === "http" && scheme3 === "bearer") {
    ctx.variables.push(variable("bearerToken", "", true));
    return { type: "bearer", bearer: { token: "{{bearerToken}}" } };
  }
  if (type === "apiKey" && typeof scheme.name === "string") {
    if (scheme.in === "cookie") ctx.warnings.push({ pointer: at, message: `API key "${scheme.name}" goes in a cookie: sent as a Cookie header` });
    ctx.variables.push(variable("apiKey", "", true));
    if (scheme.in === "cookie") return { type: "apikey", apikey: { key: "Cookie", value: `${scheme.name}={{apiKey}}`, in: "header" } };
    return { type: "apikey", apikey: { key: scheme.name, value: "{{apiKey}}", in: scheme.in === "query" ? "query" : "header" } };
  }
  if (type === "oauth2") {
    const flows = isObject(scheme.flows) ? scheme.flows : undefined;
    const cc = flows && isObject(flows.clientCredentials) ? flows.clientCredentials : scheme.flow === "application" ? scheme : undefined;
    const tokenUrl = cc && typeof cc.tokenUrl === "string" ? cc.tokenUrl : undefined;
    if (tokenUrl) {
      ctx.variables.push(variable("clientId", ""), variable("clientSecret", "", true));
      const scopes = requirement && Array.isArray(requirement[name!]) ? (requirement[name!] as string[]).join(" ") : "";
      return { type: "oauth2", oauth2: { grantType: "client_credentials", accessTokenUrl: tokenUrl, clientId: "{{clientId}}", clientSecret: "{{clientSecret}}", ...(scopes ? { scope: scopes } : {}), clientAuthentication: "header" } };
    }
    ctx.warnings.push({ pointer: at, message: `OAuth 2 scheme "${name}" has no client-credentials flow (the only grant the tester runs): a bearer token in {{accessToken}} is sent instead` });
    ctx.variables.push(variable("accessToken", "", true));
    return { type: "bearer", bearer: { token: "{{accessToken}}" } };
  }
  ctx.warnings.push({ pointer: at, message: `security scheme "${name}" (${type}${scheme3 ? ` ${scheme3}` : ""}) has no equivalent auth: requests carry none` });
  return undefined;
}

export async function openapiToCollection(document: unknown): Promise<ConvertedCollection> {
  const { v2, spec, warnings } = await readOpenApi(document);
  const info = isObject(spec.info) ? spec.info : {};
  const variables: Variable[] = [variable("baseUrl", baseUrlOf(spec, v2, warnings))];
  const components = isObject(spec.components) ? spec.components : {};
  const schemes = (v2 ? spec.securityDefinitions : components.securitySchemes) ?? {};
  const ctx: AuthContext = { schemes: isObject(schemes) ? schemes : {}, variables, warnings };
  const collectionAuth = authOf(spec.security, ctx, "/security") ?? { type: "none" as const };

  const tagDescriptions = new Map<string, string>();
  if (Array.isArray(spec.tags)) for (const t of spec.tags) if (isObject(t) && typeof t.name === "string") tagDescriptions.set(t.name, typeof t.description === "string" ? t.description : "");
  const folders = new Map<string, ItemInput[]>([...tagDescriptions.keys()].map((t) => [t, []]));
  const top: ItemInput[] = [];
  const paths = isObject(spec.paths) ? spec.paths : {};
  for (const [path, item] of Object.entries(paths)) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const at = pointer("paths", path, method);
      if (method === "trace") {
        warnings.push({ pointer: at, message: "TRACE is not a method the tester sends: skipped" });
        continue;
      }
      const params = parametersOf(item, op);
      const headers: KeyValue[] = [];
      const query: KeyValue[] = [];
      for (const p of params) {
        const example = exampleOf(p, spec);
        // A list parameter's example as Swagger UI sends it by default (form style, comma-separated).
        const value = Array.isArray(example) ? example.map(textValue).join(",") : textValue(example);
        const kv = { key: String(p.name), value, enabled: p.required === true || p.in === "path", ...(typeof p.description === "string" ? { description: p.description.slice(0, 2000) } : {}) };
        if (p.in === "path") variables.push(variable(String(p.name), value));
        else if (p.in === "query") query.push(kv);
        else if (p.in === "header") headers.push(kv);
        else if (p.in === "cookie") headers.push({ ...kv, key: "Cookie", value: `${p.name}=${value}` });
      }
      const body = v2 ? v2Body(params, op, spec, headers) : v3Body(op, spec, headers);
      const auth = op.security !== undefined ? authOf(op.security, ctx, `${at}/security`) : undefined;
      const request: RequestDefinitionInput = {
        kind: "http",
        method: method.toUpperCase(),
        url: `{{baseUrl}}${braceVariables(path)}`,
        headers,
        params: query,
        ...(body ? { body } : {}),
        auth: auth ?? { type: "inherit" },
      };
      if (isObject(op.callbacks)) warnings.push({ pointer: `${at}/callbacks`, message: "callbacks are calls the API makes: not imported" });
      const name = (typeof op.summary === "string" && op.summary) || (typeof op.operationId === "string" && op.operationId) || `${method.toUpperCase()} ${path}`;
      const entry = requestItem(name, request);
      const tag = Array.isArray(op.tags) && typeof op.tags[0] === "string" ? op.tags[0] : undefined;
      if (tag === undefined) top.push(entry);
      else (folders.get(tag) ?? folders.set(tag, []).get(tag)!).push(entry);
    }
  }
  const items = [...[...folders].filter(([, list]) => list.length).map(([tag, list]) => folderItem(tag, list, { description: tagDescriptions.get(tag) ?? "" })), ...top];
  const description = typeof info.description === "string" ? info.description : "";
  const title = typeof info.title === "string" ? info.title : "OpenAPI";
  return { document: collectionDocument({ name: title, description, variables, auth: collectionAuth, items }), warnings };
}
