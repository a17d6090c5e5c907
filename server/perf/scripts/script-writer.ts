// The one writer of generated k6 scripts. Every generator (config, API
// tester requests, HAR) describes its script as steps — requests, groups,
// sleeps — and this file writes them in the layout k6's own examples use:
//
//   imports (only what is used) · `export const options` · the __ENV
//   defaults of the {{variables}} · helpers · setup() when a token must be
//   fetched first · `export default function` with one `http.<verb>` and one
//   `check` per request, folders or pages as group().
//
// Every piece of data reaches the source through js.ts (quoted or escaped).
import { Code, commentText, jsKey, jsString, jsText, jsValue, safeLabel, type Text } from "./js";
import type { EnvTable } from "./variables";

export type Check = { kind: "status"; equals: number[] } | { kind: "status2xx" } | { kind: "bodyIncludes"; text: string } | { kind: "maxDuration"; ms: number };

export type RequestBody =
  | { kind: "text"; text: Text }
  /** An object k6 sends form-encoded (and sets Content-Type for). */
  | { kind: "form"; fields: [string, Text][] }
  /** Bytes, written as base64 and decoded by k6/encoding. */
  | { kind: "base64"; data: string }
  /** A JSON value (strings may be Code) sent as JSON.stringify(value). */
  | { kind: "json"; value: unknown };

export interface ScriptRequest {
  /** Names the request in checks; also its `name` tag when `tagName`. */
  label: string;
  tagName: boolean;
  method: string;
  url: Text;
  headers: [Text, Text][];
  body?: RequestBody;
  timeout?: string;
  redirects?: number;
  checks: Check[];
  /** Comment lines written above the request (what was not converted). */
  notes?: string[];
}

export type Step = { kind: "request"; request: ScriptRequest } | { kind: "group"; name: string; steps: Step[] } | { kind: "sleep"; seconds: number };

export interface ScriptPlan {
  /** Comment lines at the top: where the script came from. */
  header: string[];
  options: Record<string, unknown>;
  env: EnvTable;
  steps: Step[];
  /** Seconds of sleep() at the end of each iteration. */
  sleepAfterIteration?: number;
  /** OAuth 2.0 tokens setup() fetches: key → the token request's fields. */
  tokens?: Map<string, OAuthToken>;
}

export interface OAuthToken {
  url: Text;
  clientId: Text;
  clientSecret: Text;
  scope?: Text;
  audience?: Text;
  inBody: boolean;
}

const VERB: Record<string, { fn: string; body: "never" | "optional" | "always" }> = {
  GET: { fn: "get", body: "never" },
  HEAD: { fn: "head", body: "never" },
  POST: { fn: "post", body: "always" },
  PUT: { fn: "put", body: "always" },
  PATCH: { fn: "patch", body: "always" },
  DELETE: { fn: "del", body: "optional" },
  OPTIONS: { fn: "options", body: "optional" },
};

const HELPERS: Record<string, string> = {
  uuid: `// A random (version 4) UUID, as {{$guid}} gives in the API tester.
function uuid() {
  return "xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx".replace(/[xy]/g, (c) => {
    const r = (Math.random() * 16) | 0;
    return (c === "x" ? r : (r & 0x3) | 0x8).toString(16);
  });
}`,
  token: `// OAuth 2.0 client credentials (RFC 6749 §4.4): one token request.
function clientCredentialsToken(url, clientId, clientSecret, extra) {
  const form = { grant_type: "client_credentials" };
  if (extra.scope) form.scope = extra.scope;
  if (extra.audience) form.audience = extra.audience;
  const headers = { Accept: "application/json" };
  if (extra.inBody) {
    form.client_id = clientId;
    form.client_secret = clientSecret;
  } else {
    headers.Authorization = \`Basic \${b64encode(\`\${encodeURIComponent(clientId)}:\${encodeURIComponent(clientSecret)}\`)}\`;
  }
  const res = http.post(url, form, { headers, tags: { name: "OAuth 2.0 token" } });
  const token = res.status >= 200 && res.status < 300 ? res.json("access_token") : undefined;
  if (typeof token !== "string" || token === "") throw new Error(\`no OAuth 2.0 token from \${url}: status \${res.status}\`);
  return token;
}`,
};

function checkCode(label: string, c: Check): string {
  const name = (what: string) => jsString(safeLabel(`${label}: ${what}`));
  switch (c.kind) {
    case "status2xx":
      return `${name("status is 2xx")}: (r) => r.status >= 200 && r.status < 300`;
    case "status":
      return c.equals.length === 1 ? `${name(`status is ${c.equals[0]}`)}: (r) => r.status === ${c.equals[0]}` : `${name(`status is ${c.equals.join(" or ")}`)}: (r) => ${JSON.stringify(c.equals)}.includes(r.status)`;
    case "bodyIncludes":
      return `${name(`body includes ${JSON.stringify(c.text).slice(0, 60)}`)}: (r) => typeof r.body === "string" && r.body.includes(${jsString(c.text)})`;
    case "maxDuration":
      return `${name(`duration < ${c.ms} ms`)}: (r) => r.timings.duration < ${c.ms}`;
  }
}

function headersCode(headers: [Text, Text][], indent: string): string {
  const inner = `${indent}  `;
  const lines = headers.map(([k, v]) => {
    const key = k.every((p) => "text" in p) ? jsKey(k.map((p) => ("text" in p ? p.text : "")).join("")) : `[${jsText(k)}]`;
    return `${inner}${key}: ${jsText(v)},`;
  });
  return `{\n${lines.join("\n")}\n${indent}}`;
}

function bodyCode(body: RequestBody | undefined, indent: string): string | undefined {
  if (!body) return undefined;
  switch (body.kind) {
    case "text":
      return jsText(body.text);
    case "form":
      return jsValue(Object.fromEntries(body.fields.map(([k, v]) => [k, new Code(jsText(v))])), indent);
    case "base64":
      return `b64decode(${jsString(body.data)})`;
    case "json":
      return `JSON.stringify(${jsValue(body.value, indent)})`;
  }
}

function requestLines(r: ScriptRequest, indent: string): string[] {
  const out = (r.notes ?? []).map((n) => `${indent}// ${commentText(n)}`);
  const inner = `${indent}  `;
  const params: string[] = [];
  if (r.headers.length) params.push(`${inner}headers: ${headersCode(r.headers, inner)},`);
  if (r.tagName) params.push(`${inner}tags: { name: ${jsString(r.label)} },`);
  if (r.timeout) params.push(`${inner}timeout: ${jsString(r.timeout)},`);
  if (r.redirects !== undefined) params.push(`${inner}redirects: ${r.redirects},`);
  const paramsCode = params.length ? `{\n${params.join("\n")}\n${indent}}` : undefined;
  const url = jsText(r.url);
  const body = bodyCode(r.body, indent);
  const verb = VERB[r.method];
  let call: string;
  if (verb && !(verb.body === "never" && body !== undefined)) {
    const args = [url];
    if (verb.body === "always" || (verb.body === "optional" && (body !== undefined || paramsCode))) args.push(body ?? "null");
    if (paramsCode) args.push(paramsCode);
    call = `http.${verb.fn}(${args.join(", ")})`;
  } else {
    call = `http.request(${[jsString(r.method), url, body ?? "null", ...(paramsCode ? [paramsCode] : [])].join(", ")})`;
  }
  out.push(`${indent}res = ${call};`);
  if (r.checks.length) {
    const checks = r.checks.map((c) => `${inner}${checkCode(r.label, c)},`);
    out.push(`${indent}check(res, {\n${checks.join("\n")}\n${indent}});`);
  }
  return out;
}

function stepLines(steps: Step[], indent: string): string[] {
  const out: string[] = [];
  steps.forEach((s, i) => {
    if (i > 0 && s.kind !== "sleep") out.push("");
    if (s.kind === "request") out.push(...requestLines(s.request, indent));
    else if (s.kind === "sleep") out.push(`${indent}sleep(${Math.round(s.seconds * 1000) / 1000});`);
    else out.push(`${indent}group(${jsString(safeLabel(s.name))}, () => {`, ...stepLines(s.steps, `${indent}  `), `${indent}});`);
  });
  return out;
}

function uses(steps: Step[], what: (s: Step) => boolean): boolean {
  return steps.some((s) => what(s) || (s.kind === "group" && uses(s.steps, what)));
}

function envLines(env: EnvTable): string[] {
  const all = [...env.variables.values()];
  if (!all.length) return [];
  const lines = ["// {{variables}} are read from __ENV: `k6 run -e name=value` (or the run's environment) sets them."];
  const defaults = all.filter((v) => v.default !== undefined);
  if (defaults.length) {
    lines.push("// Their values when this script was generated, used where __ENV has none:");
    lines.push(`const DEFAULTS = ${jsValue(Object.fromEntries(defaults.map((v) => [v.name, v.default])))};`);
    lines.push("for (const [name, value] of Object.entries(DEFAULTS)) if (__ENV[name] === undefined) __ENV[name] = value;");
  }
  for (const v of all.filter((x) => x.default === undefined)) {
    lines.push(`// ${v.secret ? "Secret, not written here" : "No value when generated"}: __ENV.${v.name}${v.from !== v.name ? ` ({{${commentText(v.from)}}})` : ""} must be given.`);
  }
  return lines;
}

function setupLines(tokens: Map<string, OAuthToken>): string[] {
  const entries = [...tokens].map(([key, t]) => {
    const extra: Record<string, unknown> = { inBody: t.inBody };
    if (t.scope) extra.scope = new Code(jsText(t.scope));
    if (t.audience) extra.audience = new Code(jsText(t.audience));
    return `      ${key}: clientCredentialsToken(${jsText(t.url)}, ${jsText(t.clientId)}, ${jsText(t.clientSecret)}, ${jsValue(extra, "      ")}),`;
  });
  return [
    "// Runs once before the VUs start: each OAuth 2.0 token is fetched here (it is not renewed during the run).",
    "export function setup() {",
    "  return {",
    "    tokens: {",
    ...entries,
    "    },",
    "  };",
    "}",
  ];
}

export function writeScript(plan: ScriptPlan): string {
  const hasTokens = !!plan.tokens?.size;
  const k6: string[] = [];
  if (uses(plan.steps, (s) => s.kind === "request" && s.request.checks.length > 0)) k6.push("check");
  if (uses(plan.steps, (s) => s.kind === "group")) k6.push("group");
  if (plan.sleepAfterIteration || uses(plan.steps, (s) => s.kind === "sleep")) k6.push("sleep");
  const encoding: string[] = [];
  // Basic auth headers ask for b64encode through the table's helpers.
  if (hasTokens || plan.env.helpers.has("b64encode")) encoding.push("b64encode");
  if (uses(plan.steps, (s) => s.kind === "request" && s.request.body?.kind === "base64")) encoding.push("b64decode");

  const lines: string[] = [...plan.header.map((h) => `// ${commentText(h)}`)];
  lines.push('import http from "k6/http";');
  if (k6.length) lines.push(`import { ${k6.join(", ")} } from "k6";`);
  if (encoding.length) lines.push(`import { ${encoding.join(", ")} } from "k6/encoding";`);
  lines.push("", `export const options = ${jsValue(plan.options)};`);
  const env = envLines(plan.env);
  if (env.length) lines.push("", ...env);
  const helpers = [...plan.env.helpers, ...(hasTokens ? ["token"] : [])].filter((h) => HELPERS[h]);
  for (const h of helpers) lines.push("", HELPERS[h]);
  if (hasTokens) lines.push("", ...setupLines(plan.tokens!));
  lines.push("", `export default function (${hasTokens ? "data" : ""}) {`, "  let res;");
  lines.push(...stepLines(plan.steps, "  "));
  if (plan.sleepAfterIteration) lines.push("", `  sleep(${plan.sleepAfterIteration});`);
  lines.push("}", "");
  return lines.join("\n");
}

/** How many requests one iteration sends (what an `rps` target divides by). */
export function countRequests(steps: Step[]): number {
  return steps.reduce((n, s) => n + (s.kind === "request" ? 1 : s.kind === "group" ? countRequests(s.steps) : 0), 0);
}
