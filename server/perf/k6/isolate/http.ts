// k6/http's request and response objects inside the isolate. The request is
// normalised here (URL, body, params) into what the host sends; the host's
// answer becomes a k6 Response (status, body, headers, timings, json()).
import { b64decode, utf8Encode } from "./encoding";

const formEscape = (v: string) => encodeURIComponent(v).replace(/%20/g, "+");

export interface RequestParams {
  headers?: Record<string, unknown>;
  tags?: Record<string, unknown>;
  timeout?: string | number;
  redirects?: number;
  responseType?: "text" | "binary" | "none";
  cookies?: Record<string, unknown>;
}

/** What crosses to the host for one request. */
export interface HostRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Latin-1 "binary string" of the body's bytes (UTF-8 for text). */
  body?: string;
  tags: Record<string, string>;
  timeout?: string | number;
  redirects?: number;
  responseType: "text" | "binary" | "none";
}

export interface HostResponse {
  status: number;
  statusText: string;
  url: string;
  proto: string;
  headers: Record<string, string>;
  /** Text, or base64 when the request asked for binary. */
  body: string | null;
  timings: { blocked: number; connecting: number; tls_handshaking: number; sending: number; waiting: number; receiving: number; duration: number };
  error: string;
  errorCode: number;
  remoteIp: string;
  remotePort: number;
}

/**
 * A HostResponse as it crosses into the isolate: an array, which costs about
 * half as much as the object to write and to parse (tens of thousands a
 * second in a load test).
 */
export type PackedResponse = [status: number, url: string | 0, proto: string, headers: Record<string, string>, body: string | null, timings: number[], error: string, errorCode: number, remoteIp: string, remotePort: number];

/** `req` is the request answered: a URL equal to the one it asked for crosses as 0. */
function packResponse(r: HostResponse, req: HostRequest): PackedResponse {
  const t = r.timings;
  return [r.status, r.url === req.url ? 0 : r.url, r.proto, r.headers, r.body, [t.blocked, t.connecting, t.tls_handshaking, t.sending, t.waiting, t.receiving, t.duration], r.error, r.errorCode, r.remoteIp, r.remotePort];
}

/** The answers to `requests` (one each, in order), as they cross into the isolate. */
export function packResponses(responses: HostResponse[], requests: HostRequest[]): PackedResponse[] {
  const out: PackedResponse[] = [];
  for (let i = 0; i < responses.length; i++) out.push(packResponse(responses[i], requests[i]));
  return out;
}

function formEncode(obj: Record<string, unknown>): string {
  return Object.entries(obj)
    // application/x-www-form-urlencoded writes a space as "+", as k6 (Go's url.Values) does.
    .map(([k, v]) => `${formEscape(k)}=${formEscape(v === null || v === undefined ? "" : String(v))}`)
    .join("&");
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  const lower = name.toLowerCase();
  return Object.keys(headers).some((k) => k.toLowerCase() === lower);
}

const NO_PARAMS: RequestParams = Object.freeze({});

const arrayBufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength")!.get!;
/**
 * An ArrayBuffer of any context: in a shared isolate the hub builds the
 * requests of every VU context, and `instanceof` sees only its own
 * context's ArrayBuffer (ArrayBuffer.isView already works across contexts).
 */
function isArrayBuffer(v: unknown): v is ArrayBuffer {
  if (v instanceof ArrayBuffer) return true;
  // The tag first (a form's plain object is not one, without a throw), then the brand check, which a tag cannot fake.
  if (Object.prototype.toString.call(v) !== "[object ArrayBuffer]") return false;
  try {
    arrayBufferLength.call(v);
    return true;
  } catch {
    return false;
  }
}

export function buildRequest(method: string, url: unknown, body: unknown, params: RequestParams | undefined, group: string): HostRequest {
  const p = params ?? NO_PARAMS;
  const headers: Record<string, string> = {};
  if (p.headers) for (const k in p.headers) if (Object.hasOwn(p.headers, k) && p.headers[k] !== undefined && p.headers[k] !== null) headers[k] = String(p.headers[k]);
  const tags: Record<string, string> = {};
  let urlText: string;
  if (url && typeof url === "object" && (url as { __k6url?: boolean }).__k6url) {
    urlText = (url as { url: string }).url;
    tags.name = (url as { name: string }).name;
  } else urlText = String(url);
  if (p.tags) for (const k in p.tags) if (Object.hasOwn(p.tags, k)) tags[k] = String(p.tags[k]);
  if (group) tags.group = group;
  let wire: string | undefined;
  if (body === null || body === undefined) wire = undefined;
  else if (typeof body === "string") wire = utf8Encode(body);
  else if (ArrayBuffer.isView(body) || isArrayBuffer(body)) {
    const bytes = ArrayBuffer.isView(body) ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength) : new Uint8Array(body);
    let s = "";
    for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
    wire = s;
  } else if (typeof body === "object") {
    // k6 sends an object body as a form; JSON must be stringified by the script.
    wire = formEncode(body as Record<string, unknown>);
    if (!hasHeader(headers, "content-type")) headers["Content-Type"] = "application/x-www-form-urlencoded";
  } else wire = utf8Encode(String(body));
  return { method, url: urlText, headers, body: wire, tags, timeout: p.timeout, redirects: p.redirects, responseType: p.responseType ?? "text" };
}

/** GJSON's common forms: `a.b`, `items.0.id`, `items.#` (length), `items.#.id` (each one's id). */
export function jsonSelect(value: unknown, selector: string): unknown {
  const parts = selector.split(".");
  let cur: unknown = value;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (cur === null || cur === undefined) return undefined;
    if (part === "#" && Array.isArray(cur)) {
      const rest = parts.slice(i + 1).join(".");
      return rest ? cur.map((x) => jsonSelect(x, rest)) : cur.length;
    }
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export class K6Response {
  status: number;
  status_text: string;
  url: string;
  proto: string;
  headers: Record<string, string>;
  body: string | ArrayBuffer | null;
  timings: HostResponse["timings"];
  error: string;
  error_code: number;
  remote_ip: string;
  remote_port: number;
  cookies: Record<string, unknown[]>;
  #parsed: unknown;
  readonly #req: HostRequest;
  #request: { method: string; url: string; headers: Record<string, string[]>; body: string } | undefined;

  // Indexed, not destructured: every VU context optimises this constructor on its own, and an array pattern compiles to the iterator protocol, a much larger graph.
  constructor(r: PackedResponse, req: HostRequest) {
    const status = r[0];
    const body = r[4];
    const t = r[5];
    this.status = status;
    this.status_text = `${status}`;
    this.url = r[1] === 0 ? req.url : r[1];
    this.proto = r[2];
    this.headers = r[3];
    this.body = body === null ? null : req.responseType === "binary" ? (b64decode(body) as ArrayBuffer) : body;
    this.timings = { blocked: t[0], connecting: t[1], tls_handshaking: t[2], sending: t[3], waiting: t[4], receiving: t[5], duration: t[6] };
    this.error = r[6];
    this.error_code = r[7];
    this.remote_ip = r[8];
    this.remote_port = r[9];
    this.cookies = {};
    this.#req = req;
  }

  /** Made when a script reads it (few do), not for every response. */
  get request() {
    const req = this.#req;
    this.#request ??= { method: req.method, url: req.url, headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, [v]])), body: req.body ?? "" };
    return this.#request;
  }

  /** JSON.stringify(res) shows what k6's would, `request` included. */
  toJSON() {
    const { status, status_text, url, proto, headers, body, timings, error, error_code, remote_ip, remote_port, cookies } = this;
    return { status, status_text, url, proto, headers, body, timings, error, error_code, remote_ip, remote_port, cookies, request: this.request };
  }

  json(selector?: string): unknown {
    if (typeof this.body !== "string") throw new Error(`the response has no text body to parse as JSON${this.error ? ` (${this.error})` : ""}`);
    if (this.#parsed === undefined) {
      try {
        this.#parsed = JSON.parse(this.body);
      } catch (e) {
        throw new Error(`cannot parse the response body as JSON: ${(e as Error).message}`);
      }
    }
    return selector ? jsonSelect(this.#parsed, selector) : this.#parsed;
  }

  html(): never {
    throw new Error("Response.html() is not supported here (no HTML parser in the load sandbox); use regular expressions or json()");
  }
}

