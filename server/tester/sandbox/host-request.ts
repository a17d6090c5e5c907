// Host side of pm.sendRequest and pm.response: the request a script built
// (Postman's request definition, or a URL) checked and turned into a
// ScriptRequest for the injected client, and an ExecutedResponse turned into
// the plain copy the isolate gets.
import { RequestAuth, RequestBody } from "@/server/contracts/tester-request";
import type { ExecutedResponse } from "@/server/contracts/tester-execution";
import type { IsolateResponse } from "./protocol";
import type { ScriptRequest } from "./types";

const MAX_URL = 8000;
type Plain = Record<string, unknown>;

function isPlain(v: unknown): v is Plain {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

function urlOf(url: unknown): string {
  if (typeof url === "string") return url;
  if (isPlain(url) && typeof url.raw === "string") return url.raw;
  if (isPlain(url) && (Array.isArray(url.host) || typeof url.host === "string")) {
    const host = Array.isArray(url.host) ? url.host.join(".") : String(url.host);
    const path = Array.isArray(url.path) ? `/${url.path.join("/")}` : typeof url.path === "string" ? url.path : "";
    return `${typeof url.protocol === "string" ? `${url.protocol}://` : ""}${host}${url.port ? `:${url.port}` : ""}${path}`;
  }
  throw new Error("pm.sendRequest: the request has no url");
}

function headersOf(header: unknown): { key: string; value: string }[] {
  if (header === undefined || header === null) return [];
  if (typeof header === "string") {
    return header
      .split(/\r?\n/)
      .filter((line) => line.includes(":"))
      .map((line) => ({ key: line.slice(0, line.indexOf(":")).trim(), value: line.slice(line.indexOf(":") + 1).trim() }));
  }
  if (Array.isArray(header)) {
    return header.filter((h) => isPlain(h) && h.disabled !== true && h.enabled !== false).map((h) => ({ key: String((h as Plain).key ?? ""), value: String((h as Plain).value ?? "") }));
  }
  if (isPlain(header)) return Object.entries(header).map(([key, value]) => ({ key, value: String(value) }));
  throw new Error("pm.sendRequest: headers must be a list, an object or text");
}

function keyValues(list: unknown): { key: string; value: string; enabled: boolean }[] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.filter(isPlain).map((p) => ({ key: String(p.key ?? ""), value: typeof p.value === "string" ? p.value : JSON.stringify(p.value ?? ""), enabled: p.disabled !== true && p.enabled !== false }));
}

function bodyOf(body: unknown): RequestBody {
  if (body === undefined || body === null) return { mode: "none" };
  if (typeof body === "string") return { mode: "raw", raw: body };
  if (!isPlain(body)) throw new Error("pm.sendRequest: body must be an object such as {mode: 'raw', raw: '…'}");
  const shaped: Plain = { mode: body.mode ?? "none" };
  if (body.raw !== undefined) shaped.raw = typeof body.raw === "string" ? body.raw : JSON.stringify(body.raw);
  const language = body.language ?? (isPlain(body.options) && isPlain(body.options.raw) ? body.options.raw.language : undefined);
  if (language !== undefined) shaped.language = language;
  if (body.urlencoded !== undefined) shaped.urlencoded = keyValues(body.urlencoded);
  if (body.formdata !== undefined) {
    shaped.formdata = Array.isArray(body.formdata)
      ? body.formdata.filter(isPlain).map((p) => ({ ...p, key: String(p.key ?? ""), value: typeof p.value === "string" ? p.value : String(p.value ?? ""), enabled: p.disabled !== true && p.enabled !== false }))
      : body.formdata;
  }
  if (body.graphql !== undefined) shaped.graphql = body.graphql;
  if (body.binary !== undefined) shaped.binary = body.binary;
  const parsed = RequestBody.safeParse(shaped);
  if (!parsed.success) throw new Error(`pm.sendRequest: the body is not valid (${parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ")})`);
  return parsed.data;
}

/** Postman writes auth parameters as [{key, value}] lists; the contract has objects. */
function authOf(auth: unknown): RequestAuth | undefined {
  if (!isPlain(auth) || typeof auth.type !== "string") return undefined;
  const shaped: Plain = { type: auth.type };
  const params = auth[auth.type];
  if (Array.isArray(params)) shaped[auth.type] = Object.fromEntries(params.filter(isPlain).map((p) => [String(p.key), p.value]));
  else if (isPlain(params)) shaped[auth.type] = params;
  const parsed = RequestAuth.safeParse(shaped);
  if (!parsed.success) throw new Error(`pm.sendRequest: the auth is not valid (${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")})`);
  return parsed.data;
}

/** What a script passed to pm.sendRequest, checked: a URL string, or a ScriptRequest for the host's client. */
export function normaliseSendRequest(request: unknown): string | ScriptRequest {
  if (typeof request === "string") {
    if (!request.trim()) throw new Error("pm.sendRequest: the URL is empty");
    if (request.length > MAX_URL) throw new Error(`pm.sendRequest: the URL is longer than ${MAX_URL} characters`);
    return request.trim();
  }
  if (!isPlain(request)) throw new Error("pm.sendRequest: pass a URL or a request object");
  const url = urlOf(request.url).trim();
  if (!url) throw new Error("pm.sendRequest: the URL is empty");
  if (url.length > MAX_URL) throw new Error(`pm.sendRequest: the URL is longer than ${MAX_URL} characters`);
  const method = String(request.method ?? "GET").toUpperCase();
  if (!/^[A-Z]{1,20}$/.test(method)) throw new Error(`pm.sendRequest: ${JSON.stringify(method)} is not a method`);
  const out: ScriptRequest = { method, url, headers: headersOf(request.header ?? request.headers), body: bodyOf(request.body) };
  const auth = authOf(request.auth);
  if (auth) out.auth = auth;
  return out;
}

/** The copy of a response the isolate gets: the body as text (a base64 body decoded as UTF-8, as Postman's text() does). */
export function toIsolateResponse(res: ExecutedResponse): IsolateResponse {
  const body = res.bodyEncoding === "base64" ? Buffer.from(res.body, "base64").toString("utf8") : res.body;
  return {
    code: res.status,
    status: res.statusText,
    headers: res.headers.map((h) => ({ key: String(h.key), value: String(h.value) })),
    body: String(body),
    responseTime: res.timings?.totalMs ?? 0,
    responseSize: res.size?.body ?? Buffer.byteLength(body),
    headersSize: res.size?.headers ?? 0,
    cookies: (res.cookies ?? []).map((c) => ({ ...c })),
  };
}
