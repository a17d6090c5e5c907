// One API tester request as the k6 request that sends what the tester sends
// (server/tester/request-builder.ts, step by step): headers and params, the
// body of its mode with the Content-Type the mode implies, SOAP's headers,
// GraphQL over POST (or in the query string for a GET), the auth that applies
// after `inherit`, the URL with http:// for a scheme-less one, and the
// request's timeout and redirect settings. What the tester adds for every
// request (User-Agent, Accept, Accept-Encoding, Content-Length) is left to
// k6. Multipart and binary bodies are refused for a run (the spec: they need
// a dedicated load script) and converted as far as possible for editing.
import type { RequestAuth, RequestDefinition } from "@/server/contracts/tester-request";
import { effectiveAuth } from "@/server/tester/auth-helpers";
import { RAW_CONTENT_TYPES } from "@/server/tester/request-body";
import { encodeQueryComponent } from "@/server/tester/request-builder";
import { Code, concat, expr, isLiteral, jsText, lit, literalOf, mapLiterals, type Text } from "./js";
import type { OAuthToken, RequestBody, ScriptRequest } from "./script-writer";
import type { VariableScope } from "./variables";

export type ConversionMode = "run" | "edit";

export interface ConvertContext {
  label: string;
  scope: VariableScope;
  /** Auth of the enclosing folders, nearest first, then the collection's. */
  inheritedAuth: RequestAuth[];
  mode: ConversionMode;
  /** OAuth 2.0 tokens setup() fetches, shared by every request of the script. */
  tokens: Map<string, OAuthToken>;
}

export interface ConvertedRequest {
  request: ScriptRequest;
  /** Run mode: why this request needs a dedicated load script. */
  unsupported: string[];
  warnings: string[];
  /** The request does not verify TLS certificates. */
  insecure: boolean;
}

const HAS_SCHEME = /^[a-z][a-z\d+.-]*:\/\//i;
const VARIABLE = /\{\{([^{}]+?)\}\}/g;
/** Embedded bytes beyond this would push the script past the engine's 1 MiB. */
const MAX_EMBEDDED_BASE64 = 512 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_REDIRECTS = 10;

interface Pair {
  key: string;
  value: string;
}

const enabledPairs = (list: RequestDefinition["headers"]): Pair[] => list.filter((kv) => kv.enabled && !(kv.key === "" && kv.value === "")).map((kv) => ({ key: kv.key.trim(), value: kv.value }));
const has = (pairs: Pair[], name: string) => pairs.some((p) => p.key.toLowerCase() === name.toLowerCase());

/** The URL as written, with http:// when it has no scheme (also when it starts with a variable whose value has none). */
function withScheme(raw: string, scope: VariableScope): string {
  const url = raw.trim();
  const lead = /^\{\{([^{}]+?)\}\}/.exec(url);
  const start = lead ? (scope.valueOf(lead[1]) ?? "") + url.slice(lead[0].length) : url;
  if (lead && scope.valueOf(lead[1]) === undefined) return url; // nothing to judge by: the run's value decides
  return HAS_SCHEME.test(start) ? url : `http://${url}`;
}

/** Cuts the fragment (never sent); a `#` inside `{{…}}` is part of a name. */
function withoutFragment(raw: string): string {
  let at = 0;
  for (const m of [...raw.matchAll(VARIABLE), null]) {
    const end = m ? m.index : raw.length;
    const hash = raw.slice(at, end).indexOf("#");
    if (hash >= 0) return raw.slice(0, at + hash);
    if (!m) break;
    at = m.index + m[0].length;
  }
  return raw;
}

function urlText(def: RequestDefinition, query: Pair[], scope: VariableScope): Text {
  const base = scope.text(withoutFragment(withScheme(def.url, scope)));
  if (!query.length) return normalized(base);
  const sep = literalOf(base).includes("?") ? (/[?&]$/.test(literalOf(base)) ? "" : "&") : "?";
  const pairs = query.map((q, i) => concat(lit(i ? "&" : ""), mapLiterals(scope.text(q.key), (s) => encodeQueryComponent(s, true)), lit("="), mapLiterals(scope.text(q.value), (s) => encodeQueryComponent(s, false))));
  return normalized(concat(base, lit(sep), ...pairs));
}

/** A URL without variables as the tester sends it (WHATWG-normalised); one with variables as written. */
function normalized(url: Text): Text {
  if (!isLiteral(url)) return url;
  try {
    const parsed = new URL(literalOf(url));
    if (!/[{}]/.test(parsed.hostname)) return lit(parsed.href);
  } catch {}
  return url;
}

/** Strings of a JSON value with their {{variables}} as code; other values as they are. */
function deepText(value: unknown, scope: VariableScope): unknown {
  if (typeof value === "string") return value.includes("{{") ? new Code(jsText(scope.text(value))) : value;
  if (Array.isArray(value)) return value.map((v) => deepText(v, scope));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deepText(v, scope)]));
  return value;
}

function graphqlBody(gql: NonNullable<RequestDefinition["body"]["graphql"]>, scope: VariableScope, warnings: string[]): RequestBody {
  const payload: Record<string, unknown> = { query: new Code(jsText(scope.text(gql.query))) };
  if (typeof gql.variables === "string") {
    if (gql.variables.trim()) {
      try {
        payload.variables = deepText(JSON.parse(gql.variables), scope);
      } catch {
        // `{"id": {{id}}}`: JSON only once the value is in, as in the tester.
        if (gql.variables.includes("{{")) payload.variables = new Code(`JSON.parse(${jsText(scope.text(gql.variables))})`);
        else warnings.push("the GraphQL variables are not valid JSON: left out");
      }
    }
  } else if (gql.variables !== undefined) payload.variables = deepText(gql.variables, scope);
  if (gql.operationName) payload.operationName = new Code(jsText(scope.text(gql.operationName)));
  return { kind: "json", value: payload };
}

/** multipart/form-data of text parts as the script's text (file parts cannot be text). */
function multipartText(parts: NonNullable<RequestDefinition["body"]["formdata"]>, boundary: string, scope: VariableScope): Text {
  const escapeName = (s: string) => s.replace(/"/g, "%22").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
  const texts: Text[] = [];
  for (const p of parts) {
    texts.push(lit(`--${boundary}\r\nContent-Disposition: form-data; name="`), mapLiterals(scope.text(p.key), escapeName), lit('"\r\n'));
    if (p.contentType) texts.push(lit(`Content-Type: ${p.contentType.replace(/[\r\n]/g, "")}\r\n`));
    texts.push(lit("\r\n"), scope.text(p.value), lit("\r\n"));
  }
  texts.push(lit(`--${boundary}--\r\n`));
  return concat(...texts);
}

function bodyOf(def: RequestDefinition, method: string, headers: Pair[], query: Pair[], ctx: ConvertContext, out: ConvertedRequest): { body?: RequestBody; contentType?: string } {
  const { scope } = ctx;
  const b = def.body;
  if (def.kind === "soap" && (b.mode === "none" || b.mode === "raw")) {
    const version = def.soap?.version ?? "1.1";
    const action = def.soap?.action ?? "";
    if (version === "1.2") {
      if (!has(headers, "content-type")) headers.push({ key: "Content-Type", value: `application/soap+xml; charset=utf-8${action ? `; action="${action}"` : ""}` });
    } else {
      if (!has(headers, "content-type")) headers.push({ key: "Content-Type", value: "text/xml; charset=utf-8" });
      if (!has(headers, "soapaction")) headers.push({ key: "SOAPAction", value: `"${action}"` });
    }
    return b.raw ? { body: { kind: "text", text: scope.text(b.raw) } } : {};
  }
  if (b.mode === "graphql" && b.graphql && (method === "GET" || method === "HEAD")) {
    // GraphQL over HTTP: a GET carries the operation in the query string.
    query.push({ key: "query", value: b.graphql.query });
    const vars = typeof b.graphql.variables === "string" ? b.graphql.variables.trim() : b.graphql.variables !== undefined ? JSON.stringify(b.graphql.variables) : "";
    if (vars) query.push({ key: "variables", value: vars });
    if (b.graphql.operationName) query.push({ key: "operationName", value: b.graphql.operationName });
    return {};
  }
  switch (b.mode) {
    case "none":
      return {};
    case "raw":
      return b.raw ? { body: { kind: "text", text: scope.text(b.raw) }, contentType: RAW_CONTENT_TYPES[b.language ?? "text"] } : {};
    case "graphql":
      return b.graphql ? { body: graphqlBody(b.graphql, scope, out.warnings), contentType: "application/json" } : {};
    case "urlencoded": {
      const fields = (b.urlencoded ?? []).filter((kv) => kv.enabled && !(kv.key === "" && kv.value === ""));
      if (!fields.length) return {};
      const keys = fields.map((f) => f.key);
      // k6 form-encodes an object body; a repeated key needs the encoded text.
      if (new Set(keys).size === keys.length && !keys.some((k) => k.includes("{{"))) return { body: { kind: "form", fields: fields.map((f) => [f.key, scope.text(f.value)]) }, contentType: "application/x-www-form-urlencoded" };
      const form = (s: string) => new URLSearchParams({ s }).toString().slice(2);
      const text = concat(...fields.map((f, i) => concat(lit(i ? "&" : ""), mapLiterals(scope.text(f.key), form), lit("="), mapLiterals(scope.text(f.value), form))));
      return { body: { kind: "text", text }, contentType: "application/x-www-form-urlencoded" };
    }
    case "formdata": {
      const parts = (b.formdata ?? []).filter((p) => p.enabled && p.key !== "");
      if (ctx.mode === "run") {
        out.unsupported.push("a multipart (form-data) body");
        return {};
      }
      const files = parts.filter((p) => p.type === "file");
      if (files.length) out.warnings.push(`the file part(s) ${files.map((f) => `"${f.key}"`).join(", ")} of the form-data body were left out: add them with open(path, "b") in the init code`);
      const boundary = "----polymockFormBoundary7MA4YWxkTrZu0gW";
      const userType = headers.find((h) => h.key.toLowerCase() === "content-type");
      if (userType && !/;\s*boundary=/i.test(userType.value)) userType.value = `${userType.value}; boundary=${boundary}`;
      return { body: { kind: "text", text: multipartText(parts.filter((p) => p.type !== "file"), boundary, scope) }, contentType: `multipart/form-data; boundary=${boundary}` };
    }
    case "binary": {
      if (!b.binary) return {};
      if (ctx.mode === "run") {
        out.unsupported.push("a binary (file) body");
        return {};
      }
      const type = b.binary.contentType || "application/octet-stream";
      if (b.binary.contentBase64.length > MAX_EMBEDDED_BASE64) {
        out.warnings.push(`the binary body (${b.binary.fileName ?? "file"}) is too large to write into the script: load it with open(path, "b") in the init code`);
        return { contentType: type };
      }
      return { body: { kind: "base64", data: b.binary.contentBase64 }, contentType: type };
    }
  }
}

function tokenKey(tokens: Map<string, OAuthToken>, cfg: NonNullable<RequestAuth["oauth2"]>, scope: VariableScope): string {
  const t: OAuthToken = {
    url: scope.text(HAS_SCHEME.test(cfg.accessTokenUrl.trim()) || cfg.accessTokenUrl.trim().startsWith("{{") ? cfg.accessTokenUrl.trim() : `http://${cfg.accessTokenUrl.trim()}`),
    clientId: scope.text(cfg.clientId),
    clientSecret: scope.text(cfg.clientSecret),
    ...(cfg.scope ? { scope: scope.text(cfg.scope) } : {}),
    ...(cfg.audience ? { audience: scope.text(cfg.audience) } : {}),
    inBody: cfg.clientAuthentication === "body",
  };
  const same = JSON.stringify(t);
  for (const [key, existing] of tokens) if (JSON.stringify(existing) === same) return key;
  const key = `token${tokens.size + 1}`;
  tokens.set(key, t);
  return key;
}

/** The auth helper's header or query parameter, as the tester adds it (never over one the user wrote). */
function applyAuth(auth: RequestAuth | undefined, headers: Pair[], query: Pair[], ctx: ConvertContext): [string, Text] | undefined {
  const { scope } = ctx;
  if (!auth || auth.type === "none" || auth.type === "inherit") return undefined;
  if (auth.type === "apikey" && auth.apikey) {
    const key = auth.apikey.key.trim();
    if (!key) return undefined;
    if (auth.apikey.in === "query") query.push({ key, value: auth.apikey.value });
    else if (!has(headers, key)) headers.push({ key, value: auth.apikey.value });
    return undefined;
  }
  if (has(headers, "authorization")) return undefined;
  switch (auth.type) {
    case "bearer": {
      const token = (auth.bearer?.token ?? "").trim();
      return token ? ["Authorization", concat(lit("Bearer "), scope.text(token))] : undefined;
    }
    case "basic": {
      if (!auth.basic) return undefined;
      scope.table.helpers.add("b64encode");
      const credentials = concat(scope.text(auth.basic.username), lit(":"), scope.text(auth.basic.password));
      return ["Authorization", concat(lit("Basic "), expr(`b64encode(${jsText(credentials)})`))];
    }
    case "oauth2": {
      if (!auth.oauth2) return undefined;
      return ["Authorization", concat(lit("Bearer "), expr(`data.tokens.${tokenKey(ctx.tokens, auth.oauth2, scope)}`))];
    }
  }
  return undefined;
}

export function convertTesterRequest(def: RequestDefinition, ctx: ConvertContext): ConvertedRequest {
  const out: ConvertedRequest = { request: undefined as unknown as ScriptRequest, unsupported: [], warnings: [], insecure: !def.settings.verifyTls };
  // The URL's variables first, so the script's defaults read in the order a person reads the request.
  ctx.scope.text(def.url);
  // GraphQL and SOAP requests are POSTs whatever method a form left behind; an http request keeps its method.
  const method = def.kind === "http" ? def.method : "POST";
  const headers = enabledPairs(def.headers).filter((h) => h.key !== "" && h.key.toLowerCase() !== "content-length");
  const query = enabledPairs(def.params);
  const { body, contentType } = bodyOf(def, method, headers, query, ctx, out);
  if (contentType && !has(headers, "content-type") && body?.kind !== "form") headers.push({ key: "Content-Type", value: contentType });
  const auth = applyAuth(effectiveAuth(def.auth, ctx.inheritedAuth), headers, query, ctx);
  const headerTexts: [Text, Text][] = headers.map((h) => [ctx.scope.text(h.key), ctx.scope.text(h.value)]);
  if (auth) headerTexts.push([lit(auth[0]), auth[1]]);
  const { settings } = def;
  out.request = {
    label: ctx.label,
    tagName: true,
    method,
    url: urlText(def, query, ctx.scope),
    headers: headerTexts,
    ...(body ? { body } : {}),
    ...(settings.timeoutMs !== DEFAULT_TIMEOUT_MS ? { timeout: settings.timeoutMs % 1000 === 0 ? `${settings.timeoutMs / 1000}s` : `${settings.timeoutMs}ms` } : {}),
    ...(!settings.followRedirects ? { redirects: 0 } : settings.maxRedirects !== DEFAULT_MAX_REDIRECTS ? { redirects: settings.maxRedirects } : {}),
    checks: [{ kind: "status2xx" }],
  };
  return out;
}
