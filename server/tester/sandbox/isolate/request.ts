// Inside the isolate: pm.request, Postman's Request object over the host's
// ScriptRequest. A pre-request script may change its URL, method, headers and
// body; toScriptRequest() turns it back into the host's shape.
import type { IsolateInput } from "../protocol";
import { PropertyList, headerList, parseQueryPair, queryList } from "./property-list";
import { Url } from "./url";

type Plain = Record<string, unknown>;

export class RequestBody {
  mode: string;
  raw: string | undefined;
  urlencoded: PropertyList;
  formdata: Plain[] | undefined;
  graphql: Plain | undefined;
  binary: Plain | undefined;
  options: { raw?: { language?: string } } | undefined;

  constructor(body: Plain | undefined) {
    const b = body ?? {};
    this.mode = typeof b.mode === "string" ? b.mode : "none";
    this.raw = typeof b.raw === "string" ? b.raw : undefined;
    this.urlencoded = queryList(Array.isArray(b.urlencoded) ? b.urlencoded.map(fromKeyValue) : []);
    this.formdata = Array.isArray(b.formdata) ? (b.formdata as Plain[]) : undefined;
    this.graphql = b.graphql && typeof b.graphql === "object" ? (b.graphql as Plain) : undefined;
    this.binary = b.binary && typeof b.binary === "object" ? (b.binary as Plain) : undefined;
    const language = b.language ?? (b.options as { raw?: { language?: unknown } } | undefined)?.raw?.language;
    this.options = typeof language === "string" ? { raw: { language } } : undefined;
  }

  /** Postman's update: a string is a raw body; an object replaces the body. */
  update(next: unknown): void {
    const fresh = new RequestBody(typeof next === "string" ? { mode: "raw", raw: next } : (next as Plain));
    Object.assign(this, fresh);
  }

  get [Symbol.toStringTag](): string {
    return "RequestBody";
  }

  isEmpty(): boolean {
    switch (this.mode) {
      case "raw":
        return !this.raw;
      case "urlencoded":
        return this.urlencoded.count() === 0;
      case "formdata":
        return !this.formdata?.length;
      case "graphql":
        return !this.graphql;
      case "binary":
        return !this.binary;
      default:
        return true;
    }
  }

  toString(): string {
    if (this.mode === "raw") return this.raw ?? "";
    if (this.mode === "urlencoded") return this.urlencoded.toString();
    if (this.mode === "graphql") return JSON.stringify(this.graphql ?? {});
    return "";
  }

  toJSON(): Plain {
    const out: Plain = { mode: this.mode };
    if (this.raw !== undefined) out.raw = this.raw;
    const language = this.options?.raw?.language;
    if (language !== undefined) out.language = language;
    if (this.urlencoded.count()) out.urlencoded = this.urlencoded.all().map(toKeyValue);
    if (this.formdata) out.formdata = this.formdata;
    if (this.graphql) out.graphql = this.graphql;
    if (this.binary) out.binary = this.binary;
    return out;
  }
}

function fromKeyValue(kv: unknown) {
  const o = (kv ?? {}) as Plain;
  return { key: String(o.key ?? ""), value: String(o.value ?? ""), disabled: o.enabled === false || o.disabled === true };
}

function toKeyValue(p: { key: string; value: string | null; disabled?: boolean }) {
  return { key: p.key, value: p.value ?? "", enabled: !p.disabled };
}

export class ScriptRequestModel {
  id: string | undefined;
  name: string | undefined;
  method: string;
  headers: PropertyList;
  auth: Plain | undefined;
  #url: Url;
  #body: RequestBody;

  constructor(input: IsolateInput["request"]) {
    this.id = input.id;
    this.name = input.name;
    this.method = String(input.method || "GET");
    this.#url = new Url(input.url);
    this.headers = headerList(input.headers ?? []);
    this.#body = new RequestBody(input.body);
    this.auth = input.auth ? { ...input.auth } : undefined;
  }

  get [Symbol.toStringTag](): string {
    return "Request";
  }

  get url(): Url {
    return this.#url;
  }
  /** Scripts assign strings (`pm.request.url = "…"`), as Postman lets them. */
  set url(next: unknown) {
    this.#url = next instanceof Url ? next : new Url(next);
  }
  get body(): RequestBody {
    return this.#body;
  }
  set body(next: unknown) {
    this.#body = next instanceof RequestBody ? next : new RequestBody(typeof next === "string" ? { mode: "raw", raw: next } : (next as Plain));
  }

  addHeader(header: unknown): void {
    this.headers.add(header);
  }
  upsertHeader(header: unknown): void {
    this.headers.upsert(header);
  }
  removeHeader(name: unknown): void {
    this.headers.remove(typeof name === "string" ? name : String((name as { key?: unknown })?.key ?? ""));
  }
  getHeaders(options: { ignoreCase?: boolean; enabled?: boolean } = {}): Record<string, unknown> {
    return this.headers.toObject(options.enabled !== false, !options.ignoreCase);
  }
  forEachHeader(fn: (h: unknown, i: number) => void): void {
    this.headers.each(fn);
  }
  addQueryParams(params: unknown): void {
    this.#url.addQueryParams(typeof params === "string" ? params.split("&").map(parseQueryPair) : params);
  }
  removeQueryParams(params: unknown): void {
    this.#url.removeQueryParams(params);
  }
  toJSON(): Plain {
    return { id: this.id, name: this.name, method: this.method, url: this.#url.toJSON(), header: this.headers.toJSON(), body: this.#body.toJSON(), auth: this.auth };
  }

  /** Back to the host's ScriptRequest (disabled headers dropped: the host's list has no such flag). */
  toScriptRequest(originalUrl: string): IsolateInput["request"] {
    const url = this.#url.toString();
    const out: IsolateInput["request"] = {
      method: String(this.method).toUpperCase(),
      // An untouched URL goes back exactly as it came, whatever the parser would normalise.
      url: url === new Url(originalUrl).toString() ? originalUrl : url,
      headers: this.headers.filter((h) => !h.disabled).map((h) => ({ key: h.key, value: h.value ?? "" })),
      body: this.#body.toJSON(),
    };
    if (this.auth) out.auth = this.auth;
    if (this.name !== undefined) out.name = this.name;
    if (this.id !== undefined) out.id = this.id;
    return out;
  }
}
