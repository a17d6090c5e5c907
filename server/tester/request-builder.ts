// From a saved request definition to the request the HTTP client sends:
//   1. substitute `{{variables}}` in the URL, params, headers, body and auth
//      fields (one substituter, so every unresolved name is listed once);
//   2. encode the body for its mode (request-body.ts) and give it the
//      Content-Type its mode implies when the user wrote none;
//   3. the kind's rules: SOAP 1.1/1.2 headers, GraphQL over POST;
//   4. the auth helper that applies after `inherit` (auth-helpers.ts);
//   5. the URL: params appended, http:// for a scheme-less one;
//   6. the headers every client sends (User-Agent, Accept, Accept-Encoding,
//      Content-Length) where the user did not write them.
// Choices where the spec is silent: docs/decisions.md, "API tester: sending requests".
import type { RequestAuth, RequestDefinition } from "@/server/contracts/tester-request";
import { authAddition, effectiveAuth } from "./auth-helpers";
import { defaultOAuth2TokenResolver, type ResolveOAuth2Token } from "./oauth2";
import { hasHeader, headerValue, type HeaderEntry, type PreparedRequest } from "./prepared-request";
import { encodeRequestBody, graphqlPayload, type EncodedBody } from "./request-body";
import type { VariableScopes } from "./scopes";
import { createSubstituter, type SubstituteOptions, type Substituter } from "./variables";

export type { PreparedRequest } from "./prepared-request";

export interface BuildContext {
  scopes: VariableScopes;
  /** The auth of the enclosing folders, nearest first, then the collection's. */
  inheritedAuth?: RequestAuth[];
  /** Where OAuth 2.0 tokens come from; the process-wide cached resolver by default. */
  resolveOAuth2Token?: ResolveOAuth2Token;
  /** A seeded Random and fixed Clock for dynamic variables (tests, reproducible runs). */
  substitution?: SubstituteOptions;
}

export const USER_AGENT = "PolymockRuntime/1.0";

const HAS_SCHEME = /^[a-z][a-z\d+.-]*:\/\//i;

/**
 * Percent-encodes what cannot stand in a query as written, but leaves `%XX`
 * alone (as Postman does), so a value the user already encoded is not encoded
 * twice. `&`, `#` and `+` are encoded, since a server would read them as a
 * separator, the fragment or a space; `=` only in keys.
 */
export function encodeQueryComponent(s: string, isKey: boolean): string {
  const unsafe = isKey ? /[^\x21-\x7e]|["#&'+<>`{|}\\^=]|%(?![0-9a-fA-F]{2})/gu : /[^\x21-\x7e]|["#&'+<>`{|}\\^]|%(?![0-9a-fA-F]{2})/gu;
  return s.replace(unsafe, (ch) => [...Buffer.from(ch, "utf8")].map((b) => `%${b.toString(16).toUpperCase().padStart(2, "0")}`).join(""));
}

function buildUrl(raw: string, query: readonly HeaderEntry[]): string {
  let url = raw.trim();
  if (!HAS_SCHEME.test(url)) url = `http://${url}`;
  const hash = url.indexOf("#");
  // The fragment is never sent; params go before it.
  if (hash >= 0) url = url.slice(0, hash);
  const pairs = query.map(({ key, value }) => `${encodeQueryComponent(key, true)}=${encodeQueryComponent(value, false)}`);
  if (pairs.length) url += (url.includes("?") ? (/[?&]$/.test(url) ? "" : "&") : "?") + pairs.join("&");
  try {
    const parsed = new URL(url);
    // WHATWG URLs allow braces in a host name: `{{baseUrl}}` left unresolved would be lower-cased and looked up in DNS.
    if (!/[{}]/.test(parsed.hostname)) return parsed.href;
  } catch {}
  return url; // the client reports it as invalid_url, naming unresolved variables
}

const enabledPairs = (list: RequestDefinition["headers"], sub: Substituter): HeaderEntry[] =>
  list.filter((kv) => kv.enabled && !(kv.key === "" && kv.value === "")).map((kv) => ({ key: sub.text(kv.key).trim(), value: sub.text(kv.value) }));

/** SOAP's envelope is the raw body; its version decides Content-Type and where the action goes. */
function soapHeaders(def: RequestDefinition, sub: Substituter, headers: HeaderEntry[]): void {
  const version = def.soap?.version ?? "1.1";
  const action = def.soap?.action ? sub.text(def.soap.action) : "";
  if (version === "1.2") {
    if (!hasHeader(headers, "content-type")) headers.push({ key: "Content-Type", value: `application/soap+xml; charset=utf-8${action ? `; action="${action}"` : ""}` });
    return;
  }
  if (!hasHeader(headers, "content-type")) headers.push({ key: "Content-Type", value: "text/xml; charset=utf-8" });
  if (!hasHeader(headers, "soapaction")) headers.push({ key: "SOAPAction", value: `"${action}"` });
}

export async function buildRequest(def: RequestDefinition, ctx: BuildContext): Promise<PreparedRequest> {
  const sub = createSubstituter(ctx.scopes, ctx.substitution);
  // GraphQL and SOAP requests are POSTs whatever method a form left behind; an http request keeps its method.
  const method = def.kind === "http" ? def.method : "POST";
  const headers = enabledPairs(def.headers, sub).filter((h) => h.key !== "");
  const query = enabledPairs(def.params, sub);

  let encoded: EncodedBody;
  if (def.kind === "soap" && (def.body.mode === "none" || def.body.mode === "raw")) {
    encoded = encodeRequestBody({ ...def.body, mode: "raw", language: "xml" }, sub);
    soapHeaders(def, sub, headers);
  } else if (def.body.mode === "graphql" && def.body.graphql && (method === "GET" || method === "HEAD")) {
    // GraphQL over HTTP: a GET carries the operation in the query string.
    const payload = graphqlPayload(def.body.graphql, sub);
    query.push({ key: "query", value: payload.query });
    if (payload.variables !== undefined) query.push({ key: "variables", value: JSON.stringify(payload.variables) });
    if (payload.operationName) query.push({ key: "operationName", value: payload.operationName });
    encoded = { preview: {} };
  } else {
    encoded = encodeRequestBody(def.body, sub);
  }

  const userType = headerValue(headers, "content-type");
  if (encoded.body && encoded.contentType && userType === undefined) headers.push({ key: "Content-Type", value: encoded.contentType });
  else if (encoded.boundary && userType !== undefined && !/;\s*boundary=/i.test(userType)) {
    // A hand-written "multipart/form-data" without the boundary would make the body unreadable.
    const h = headers.find((x) => x.key.toLowerCase() === "content-type")!;
    h.value = `${userType}; boundary=${encoded.boundary}`;
  }

  const auth = await authAddition(effectiveAuth(def.auth, ctx.inheritedAuth), sub, headers, def.settings, ctx.resolveOAuth2Token ?? defaultOAuth2TokenResolver);
  headers.push(...auth.headers);
  query.push(...auth.query);

  const url = buildUrl(sub.text(def.url), query);
  if (!hasHeader(headers, "user-agent")) headers.push({ key: "User-Agent", value: USER_AGENT });
  if (!hasHeader(headers, "accept")) headers.push({ key: "Accept", value: "*/*" });
  if (!hasHeader(headers, "accept-encoding")) headers.push({ key: "Accept-Encoding", value: "gzip, deflate, br" });
  if (encoded.body && !hasHeader(headers, "content-length") && !hasHeader(headers, "transfer-encoding")) headers.push({ key: "Content-Length", value: String(encoded.body.length) });

  return {
    method,
    url,
    headers,
    ...(encoded.body ? { body: encoded.body } : {}),
    bodyPreview: encoded.preview,
    settings: def.settings,
    unresolved: sub.unresolved(),
  };
}
