// Postman collection v2.0 / v2.1 → the native collection document, so the
// one import service (server/services/tester/import-collection.ts) saves it.
// Pure: no database. What the tester has no place for (digest, hawk, oauth1
// auth; files a form part points at; saved example responses…) is reported
// as a warning naming where it was, never dropped in silence. An item that
// does not convert (a method with a space, a name of 300 characters…) is a
// failure naming its Postman path; the rest is imported (the 207 rule).
//
// v2.0 and v2.1 differ in small ways handled side by side here: auth
// parameters are an object {username: "x"} in 2.0 and a list
// [{key, value, type}] in 2.1; list entries are switched off with
// `enabled: false` in 2.0 and `disabled: true` in 2.1; 2.0 allows headers as
// one "Key: value\n" string. Both allow a URL as a string or an object, a
// request as a bare URL string, and `event` as one object or a list.
import {
  MAX_FOLDER_DEPTH,
  NATIVE_COLLECTION_FORMAT,
  NATIVE_COLLECTION_VERSION,
  NativeFolderItem,
  NativeRequestItem,
  type NativeCollectionDocument,
  type NativeItem,
} from "@/server/contracts/tester-native-format";
import { MAX_COLLECTION_VARIABLES } from "@/server/contracts/tester-collections";
import type { ImportFailure, ImportWarning } from "@/server/contracts/tester-import";
import { RAW_LANGUAGES, type FormDataPart, type KeyValue, type RequestAuth, type RequestBody, type Scripts, type Variable } from "@/server/contracts/tester-request";
import { errors } from "@/server/errors";

export interface PostmanConversion {
  document: NativeCollectionDocument;
  version: "2.0" | "2.1";
  warnings: ImportWarning[];
  failures: ImportFailure[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === "string" ? v : v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined || v === null ? [] : [v]);

/** Postman's description: a string or {content, type}. */
function descriptionOf(v: unknown): string {
  return (isObject(v) ? text(v.content) : text(v)).slice(0, 10_000);
}

/** On unless switched off: `disabled: true` (2.1) or `enabled: false` (2.0). */
const enabledOf = (entry: Json) => entry.disabled !== true && entry.enabled !== false;

class Converter {
  readonly warnings: ImportWarning[] = [];
  readonly failures: ImportFailure[] = [];
  private requestDescriptions = 0;
  private examples = 0;

  warn(path: string, message: string) {
    this.warnings.push({ path, message });
  }

  /** Auth parameters as a map, from 2.1's list or 2.0's object. */
  private params(auth: Json, type: string): Record<string, unknown> {
    const raw = auth[type];
    if (Array.isArray(raw)) return Object.fromEntries(raw.filter(isObject).map((p) => [text(p.key), p.value]));
    return isObject(raw) ? raw : {};
  }

  auth(raw: unknown, path: string, absent: "inherit" | "none"): RequestAuth {
    if (raw === undefined || raw === null) return { type: absent };
    if (!isObject(raw)) {
      this.warn(path, "auth is not an object; ignored");
      return { type: absent };
    }
    const type = text(raw.type);
    const p = this.params(raw, type);
    switch (type) {
      case "noauth":
        return { type: "none" };
      case "inherit":
        return { type: "inherit" };
      case "bearer":
        return { type: "bearer", bearer: { token: text(p.token) } };
      case "basic":
        return { type: "basic", basic: { username: text(p.username), password: text(p.password) } };
      case "apikey":
        return { type: "apikey", apikey: { key: text(p.key), value: text(p.value), in: p.in === "query" ? "query" : "header" } };
      case "oauth2":
        return this.oauth2(p, path);
      default:
        this.warn(path, `${type || "unnamed"} auth is not supported by the tester; the request is sent without it (set a header or a pre-request script instead)`);
        return { type: "none" };
    }
  }

  private oauth2(p: Record<string, unknown>, path: string): RequestAuth {
    const grant = text(p.grant_type ?? p.grantType) || "authorization_code";
    if (grant === "client_credentials" && text(p.accessTokenUrl)) {
      const audience = text(p.audience);
      return {
        type: "oauth2",
        oauth2: {
          grantType: "client_credentials",
          accessTokenUrl: text(p.accessTokenUrl),
          clientId: text(p.clientId),
          clientSecret: text(p.clientSecret),
          ...(text(p.scope) ? { scope: text(p.scope) } : {}),
          ...(audience ? { audience } : {}),
          clientAuthentication: p.client_authentication === "body" ? "body" : "header",
        },
      };
    }
    const token = text(p.accessToken);
    if (token && p.addTokenTo !== "queryParams") {
      this.warn(path, `OAuth 2.0 grant '${grant}' is not supported; its saved access token is sent as a bearer token`);
      return { type: "bearer", bearer: { token } };
    }
    this.warn(path, `OAuth 2.0 grant '${grant}' is not supported (only client credentials); the request is sent without auth`);
    return { type: "none" };
  }

  /** prerequest and test scripts; several of one kind run one after the other. */
  scripts(raw: unknown, path: string): Scripts {
    const out: { preRequest: string[]; test: string[] } = { preRequest: [], test: [] };
    list(raw).forEach((event, i) => {
      if (!isObject(event)) return;
      const at = `${path}.event[${i}]`;
      const listen = text(event.listen);
      const target = listen === "prerequest" ? out.preRequest : listen === "test" ? out.test : null;
      if (!target) {
        this.warn(at, `'${listen}' scripts are not supported; left out`);
        return;
      }
      if (event.disabled === true) {
        this.warn(at, `a disabled ${listen} script is left out`);
        return;
      }
      const script = event.script;
      if (!isObject(script)) {
        if (script !== undefined) this.warn(at, "a script given by reference is not supported; left out");
        return;
      }
      const code = Array.isArray(script.exec) ? script.exec.map(text).join("\n") : text(script.exec);
      if (code.trim()) target.push(code);
    });
    return {
      ...(out.preRequest.length ? { preRequest: out.preRequest.join("\n") } : {}),
      ...(out.test.length ? { test: out.test.join("\n") } : {}),
    };
  }

  private keyValues(raw: unknown): KeyValue[] {
    if (typeof raw === "string") {
      // v2.0 allows headers as one block of "Key: value" lines.
      return raw.split(/\r?\n/).flatMap((line) => {
        const at = line.indexOf(":");
        return at > 0 ? [{ key: line.slice(0, at).trim(), value: line.slice(at + 1).trim(), enabled: true }] : [];
      });
    }
    return list(raw).flatMap((e) => {
      if (!isObject(e) || e.key === null || e.key === undefined) return [];
      const description = descriptionOf(e.description).slice(0, 2000);
      return [{ key: text(e.key), value: text(e.value), enabled: enabledOf(e), ...(description ? { description } : {}) }];
    });
  }

  /** The URL to store and its query list (2.x URL objects keep disabled parameters in `query`). */
  url(raw: unknown, path: string): { url: string; params: KeyValue[] } {
    if (!isObject(raw)) return { url: text(raw).trim(), params: [] };
    let url: string;
    if (typeof raw.raw === "string") {
      url = raw.raw;
    } else {
      const host = Array.isArray(raw.host) ? raw.host.map(text).join(".") : text(raw.host);
      const pathPart = Array.isArray(raw.path) ? raw.path.map(text).join("/") : text(raw.path).replace(/^\//, "");
      url = `${raw.protocol ? `${text(raw.protocol)}://` : ""}${host}${raw.port ? `:${text(raw.port)}` : ""}${pathPart ? `/${pathPart}` : ""}`;
    }
    url = url.trim();
    const hash = url.indexOf("#");
    if (hash >= 0) url = url.slice(0, hash);
    let params: KeyValue[] = [];
    if (Array.isArray(raw.query)) {
      // The list is what Postman sends (with disabled entries kept off): the URL loses its query text.
      const q = url.indexOf("?");
      if (q >= 0) url = url.slice(0, q);
      params = raw.query.flatMap((e) => (isObject(e) && e.key !== null && e.key !== undefined ? [{ key: text(e.key), value: text(e.value), enabled: enabledOf(e) }] : []));
    }
    // Path variables (`:id` with url.variable) are filled in: the tester has no separate list for them.
    for (const v of list(raw.variable)) {
      if (!isObject(v)) continue;
      const key = text(v.key ?? v.id);
      if (!key) continue;
      if (v.value === undefined || v.value === null || text(v.value) === "") {
        this.warn(path, `path variable ':${key}' has no value; left in the URL`);
        continue;
      }
      url = url.replace(new RegExp(`/:${key.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?=/|\\?|$)`, "g"), `/${text(v.value)}`);
    }
    return { url, params };
  }

  body(raw: unknown, path: string): RequestBody {
    const body = this.bodyOf(raw, path);
    // Postman sends nothing for an empty form or raw text (exports often carry `formdata: []` on a GET).
    const empty =
      (body.mode === "raw" && !body.raw) || (body.mode === "formdata" && !body.formdata?.length) || (body.mode === "urlencoded" && !body.urlencoded?.length);
    return empty ? { mode: "none" } : body;
  }

  private bodyOf(raw: unknown, path: string): RequestBody {
    if (!isObject(raw) || raw.disabled === true) return { mode: "none" };
    const mode = text(raw.mode);
    switch (mode) {
      case "":
        return { mode: "none" };
      case "raw": {
        const options = isObject(raw.options) && isObject(raw.options.raw) ? raw.options.raw : {};
        const language = text(options.language);
        return { mode: "raw", raw: text(raw.raw), ...((RAW_LANGUAGES as readonly string[]).includes(language) ? { language: language as RequestBody["language"] } : {}) };
      }
      case "urlencoded":
        return { mode: "urlencoded", urlencoded: this.keyValues(raw.urlencoded) };
      case "formdata":
        return { mode: "formdata", formdata: this.formdata(raw.formdata, path) };
      case "file":
      case "binary": {
        const file = isObject(raw.file) ? raw.file : isObject(raw.binary) ? raw.binary : {};
        const src = text(file.src);
        if (typeof file.content === "string") return { mode: "raw", raw: file.content };
        this.warn(path, `the body file${src ? ` '${src}'` : ""} is not in the export; attach it to the request`);
        return { mode: "binary", binary: { ...(src ? { fileName: basename(src) } : {}), contentBase64: "" } };
      }
      case "graphql": {
        const g = isObject(raw.graphql) ? raw.graphql : {};
        const variables = text(g.variables);
        return { mode: "graphql", graphql: { query: text(g.query), ...(variables.trim() ? { variables } : {}), ...(g.operationName ? { operationName: text(g.operationName) } : {}) } };
      }
      default:
        this.warn(path, `body mode '${mode}' is not supported; the request is sent without a body`);
        return { mode: "none" };
    }
  }

  private formdata(raw: unknown, path: string): FormDataPart[] {
    return list(raw).flatMap((e): FormDataPart[] => {
      if (!isObject(e) || e.key === null || e.key === undefined) return [];
      const contentType = e.contentType ? { contentType: text(e.contentType) } : {};
      if (e.type !== "file") return [{ key: text(e.key), type: "text", value: text(e.value), enabled: enabledOf(e), ...contentType }];
      const sources = list(e.src).map(text).filter(Boolean);
      this.warn(path, `form part '${text(e.key)}': the file${sources.length ? ` '${sources.join("', '")}'` : ""} is not in the export; attach it to the request`);
      return [{ key: text(e.key), type: "file", value: "", enabled: enabledOf(e), ...(sources[0] ? { fileName: basename(sources[0]) } : {}), ...contentType }];
    });
  }

  request(item: Json, path: string): NativeItem | null {
    const raw = typeof item.request === "string" ? { url: item.request } : isObject(item.request) ? item.request : null;
    const name = itemName(item, "Untitled request");
    if (!raw) {
      this.failures.push({ path, name, type: "request", reason: "request: expected an object or a URL" });
      return null;
    }
    if (raw.description) this.requestDescriptions++;
    if (Array.isArray(item.response) && item.response.length) this.examples += item.response.length;
    if (isObject(item.protocolProfileBehavior) && Object.keys(item.protocolProfileBehavior).length) this.warn(path, "protocolProfileBehavior settings are not kept");
    if (raw.proxy || raw.certificate) this.warn(path, "per-request proxy and certificate settings are not kept");
    const { url, params } = this.url(raw.url, path);
    const converted = NativeRequestItem.safeParse({
      type: "request",
      name,
      request: {
        kind: "http",
        method: text(raw.method) || "GET",
        url,
        headers: this.keyValues(raw.header),
        params,
        body: this.body(raw.body, path),
        auth: this.auth(raw.auth, path, "inherit"),
        scripts: this.scripts(item.event, path),
      },
    });
    if (!converted.success) {
      const issue = converted.error.issues[0];
      this.failures.push({ path, name, type: "request", reason: `${issue.path.map(String).join(".")}: ${issue.message}` });
      return null;
    }
    return converted.data;
  }

  items(raw: unknown[], depth: number, path: string): NativeItem[] {
    const out: NativeItem[] = [];
    let sawRequest = false;
    let warnedOrder = false;
    raw.forEach((item, i) => {
      const at = `${path}[${i}]`;
      if (!isObject(item)) {
        this.failures.push({ path: at, name: "", reason: "expected an object" });
        return;
      }
      if (Array.isArray(item.item)) {
        if (sawRequest && !warnedOrder) {
          // The tester runs a level's folders before its own requests; Postman runs them in document order.
          this.warn(path, "requests placed before a folder here run after the folders in the tester");
          warnedOrder = true;
        }
        const folder = this.folder(item, depth, at);
        if (folder) out.push(folder);
      } else if (item.request !== undefined) {
        sawRequest = true;
        const request = this.request(item, at);
        if (request) out.push(request);
      } else {
        this.failures.push({ path: at, name: itemName(item, ""), reason: "neither a request nor a folder (no `request`, no `item`)" });
      }
    });
    return out;
  }

  private folder(item: Json, depth: number, path: string): NativeItem | null {
    const name = itemName(item, "Untitled folder");
    const inner = item.item as unknown[];
    if (depth >= MAX_FOLDER_DEPTH) {
      this.failures.push({ path, name, type: "folder", reason: `folders nest at most ${MAX_FOLDER_DEPTH} deep (${countItems(inner)} items inside skipped)` });
      return null;
    }
    if (list(item.variable).length) this.warn(path, "folder variables are not supported; add them to the collection");
    const converted = NativeFolderItem.safeParse({
      type: "folder",
      name,
      description: descriptionOf(item.description),
      auth: this.auth(item.auth, path, "inherit"),
      scripts: this.scripts(item.event, path),
      items: [],
    });
    if (!converted.success) {
      const issue = converted.error.issues[0];
      this.failures.push({ path, name, type: "folder", reason: `${issue.path.map(String).join(".")}: ${issue.message} (${countItems(inner)} items inside skipped)` });
      return null;
    }
    return { ...converted.data, items: this.items(inner, depth + 1, `${path}.item`) };
  }

  variables(raw: unknown): Variable[] {
    const out: Variable[] = [];
    list(raw).forEach((v, i) => {
      if (!isObject(v)) return;
      const key = text(v.key ?? v.id).slice(0, 255);
      if (!key) {
        this.warn(`variable[${i}]`, "a variable without a key is left out");
        return;
      }
      out.push({ key, value: text(v.value).slice(0, 100_000), secret: v.type === "secret", enabled: enabledOf(v) });
    });
    return out;
  }

  finish() {
    if (this.requestDescriptions) this.warn("item", `${this.requestDescriptions} request description${this.requestDescriptions === 1 ? " is" : "s are"} not kept (saved requests have no description)`);
    if (this.examples) this.warn("item", `${this.examples} saved example response${this.examples === 1 ? " is" : "s are"} not imported`);
  }
}

function basename(p: string): string {
  return p.split(/[\\/]/).pop()!.slice(0, 255);
}

function itemName(item: Json, fallback: string): string {
  const name = text(item.name).trim();
  return (name || fallback).slice(0, 255);
}

function countItems(raw: unknown): number {
  return list(raw).reduce<number>((n, item) => n + 1 + (isObject(item) && Array.isArray(item.item) ? countItems(item.item) : 0), 0);
}

/** "2.0" or "2.1" from info.schema; a document without one is read as 2.1 (what Postman exports today). */
function versionOf(info: Json): "2.0" | "2.1" {
  const schema = text(info.schema ?? info._postman_schema);
  return /v?2\.0\.\d/.test(schema) || schema.endsWith("#2.0.0") ? "2.0" : "2.1";
}

/** A Postman collection (parsed JSON) as a native document; a 400 naming the body when it is not one. */
export function convertPostmanCollection(input: unknown): PostmanConversion {
  if (!isObject(input)) throw errors.validation("The document is not a Postman collection: expected a JSON object", [{ location: "body", field: "", message: "expected an object" }]);
  // Some exports arrive wrapped as {collection: {...}} (the Postman API's shape).
  const doc = isObject(input.collection) && Array.isArray(input.collection.item) ? input.collection : input;
  if (Array.isArray(doc.requests) && !Array.isArray(doc.item)) {
    throw errors.validation("Postman collection v1 is not supported: export the collection again as v2.1 (Postman: Export → Collection v2.1)", [{ location: "body", field: "requests", message: "a v1 collection" }]);
  }
  if (!Array.isArray(doc.item)) throw errors.validation("The document is not a Postman collection: `item` must be a list of requests and folders", [{ location: "body", field: "item", message: "expected an array" }]);
  const info = isObject(doc.info) ? doc.info : {};
  const schema = text(info.schema);
  if (schema && !/collection\/v2\.[01]\.\d/.test(schema)) {
    throw errors.validation(`Postman collection schema '${schema}' is not supported: only v2.0 and v2.1`, [{ location: "body", field: "info.schema", message: "unsupported schema" }]);
  }
  const c = new Converter();
  const name = (text(info.name ?? doc.name).trim() || "Imported Postman collection").slice(0, 255);
  const items = c.items(doc.item, 0, "item");
  const variables = c.variables(doc.variable ?? doc.variables);
  if (variables.length > MAX_COLLECTION_VARIABLES) c.warn("variable", `only the first ${MAX_COLLECTION_VARIABLES} of ${variables.length} variables are kept`);
  const auth = c.auth(doc.auth, "auth", "none");
  const scripts = c.scripts(doc.event, "collection");
  c.finish();
  return {
    version: versionOf(info),
    document: {
      format: NATIVE_COLLECTION_FORMAT,
      version: NATIVE_COLLECTION_VERSION,
      collection: {
        name,
        description: descriptionOf(info.description ?? doc.description),
        variables: variables.slice(0, MAX_COLLECTION_VARIABLES),
        auth,
        scripts,
      },
      items,
    },
    warnings: c.warnings,
    failures: c.failures,
  };
}
