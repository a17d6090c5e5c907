// The API tester's request: what a saved request, an inline `execute` body and
// a collection export hold. Browser-safe (the workspace's forms use it).
// Shapes follow Postman's where a Postman user would look for them (key/value
// lists with `enabled`, body `mode`s, auth `type`s), as plain objects rather
// than Postman's `[{key, value, type}]` auth arrays; the Postman importer
// (issue 16) converts. Headers and params also accept an object map, which is
// how most clients write them, and are normalised to the list form.
import { z } from "zod";

export const MAX_SCRIPT_CHARS = 256 * 1024;
/** Larger bodies belong in a file upload, not in a saved request. */
export const MAX_REQUEST_BODY_CHARS = 10 * 1024 * 1024;

export const KeyValue = z.object({
  key: z.string().max(1000),
  value: z.string().max(100_000).default(""),
  enabled: z.boolean().default(true),
  description: z.string().max(2000).optional(),
});
export type KeyValue = z.infer<typeof KeyValue>;

/** `[{key, value, enabled}]`, or `{name: value}` (normalised to the list). */
export const KeyValueList = z.preprocess(
  (v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.entries(v).map(([key, value]) => ({ key, value: typeof value === "string" ? value : JSON.stringify(value) })) : v),
  z.array(KeyValue).max(500),
);

export const RAW_LANGUAGES = ["json", "xml", "text", "html", "javascript"] as const;

export const FormDataPart = z.object({
  key: z.string().max(1000),
  type: z.enum(["text", "file"]).default("text"),
  value: z.string().max(MAX_REQUEST_BODY_CHARS).default("").describe("text parts: the value"),
  enabled: z.boolean().default(true),
  fileName: z.string().max(255).optional().describe("file parts: the name sent in Content-Disposition"),
  contentType: z.string().max(255).optional(),
  contentBase64: z.string().max(MAX_REQUEST_BODY_CHARS).optional().describe("file parts: the file's bytes"),
});
export type FormDataPart = z.infer<typeof FormDataPart>;

export const BODY_MODES = ["none", "raw", "urlencoded", "formdata", "binary", "graphql"] as const;
export const RequestBody = z.object({
  mode: z.enum(BODY_MODES).default("none"),
  raw: z.string().max(MAX_REQUEST_BODY_CHARS).optional().describe("raw mode (and the SOAP envelope)"),
  language: z.enum(RAW_LANGUAGES).optional().describe("raw mode: sets Content-Type when no header gives one"),
  urlencoded: z.array(KeyValue).max(500).optional(),
  formdata: z.array(FormDataPart).max(200).optional(),
  binary: z
    .object({ fileName: z.string().max(255).optional(), contentType: z.string().max(255).optional(), contentBase64: z.string().max(MAX_REQUEST_BODY_CHARS) })
    .optional(),
  graphql: z
    .object({
      query: z.string().max(MAX_REQUEST_BODY_CHARS),
      variables: z.union([z.string().max(MAX_REQUEST_BODY_CHARS), z.record(z.string(), z.unknown())]).optional().describe("JSON text (may hold {{variables}}) or an object"),
      operationName: z.string().max(255).optional(),
    })
    .optional(),
});
export type RequestBody = z.infer<typeof RequestBody>;

export const AUTH_TYPES = ["inherit", "none", "bearer", "basic", "apikey", "oauth2"] as const;
export const RequestAuth = z.object({
  type: z.enum(AUTH_TYPES).default("inherit").describe("inherit: the folder's, then the collection's"),
  bearer: z.object({ token: z.string().max(10_000) }).optional(),
  basic: z.object({ username: z.string().max(1000), password: z.string().max(1000).default("") }).optional(),
  apikey: z.object({ key: z.string().max(1000), value: z.string().max(10_000), in: z.enum(["header", "query"]).default("header") }).optional(),
  oauth2: z
    .object({
      grantType: z.literal("client_credentials").default("client_credentials"),
      accessTokenUrl: z.string().max(2000),
      clientId: z.string().max(1000),
      clientSecret: z.string().max(1000).default(""),
      scope: z.string().max(2000).optional(),
      audience: z.string().max(2000).optional(),
      clientAuthentication: z.enum(["header", "body"]).default("header").describe("header: HTTP Basic with the client id and secret; body: in the form"),
    })
    .optional(),
});
export type RequestAuth = z.infer<typeof RequestAuth>;

export const RequestSettings = z.object({
  timeoutMs: z.number().int().min(1).max(300_000).default(30_000),
  followRedirects: z.boolean().default(true),
  maxRedirects: z.number().int().min(0).max(50).default(10),
  verifyTls: z.boolean().default(true),
});
export type RequestSettings = z.infer<typeof RequestSettings>;

export const Scripts = z.object({
  preRequest: z.string().max(MAX_SCRIPT_CHARS).optional(),
  test: z.string().max(MAX_SCRIPT_CHARS).optional(),
});
export type Scripts = z.infer<typeof Scripts>;

export const REQUEST_KINDS = ["http", "graphql", "soap"] as const;
export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

/** The parts of a request that are sent (no identity, no place in a tree). */
export const RequestDefinition = z.object({
  kind: z.enum(REQUEST_KINDS).default("http"),
  method: z.string().max(20).regex(/^[A-Za-z]+$/, "letters only").transform((m) => m.toUpperCase()).default("GET"),
  url: z.string().max(8000).describe("may hold {{variables}}; a scheme-less URL gets http://"),
  headers: KeyValueList.default([]),
  params: KeyValueList.default([]).describe("query parameters appended to the URL"),
  body: RequestBody.default({ mode: "none" }),
  auth: RequestAuth.default({ type: "inherit" }),
  soap: z.object({ action: z.string().max(2000).optional(), version: z.enum(["1.1", "1.2"]).default("1.1") }).optional().describe("kind soap: SOAPAction and the envelope's version"),
  settings: RequestSettings.prefault({}),
  scripts: Scripts.default({}),
});
export type RequestDefinition = z.infer<typeof RequestDefinition>;
export type RequestDefinitionInput = z.input<typeof RequestDefinition>;

/** A collection's (or Postman's) variable: a list entry; secret ones are masked in views, history and exports. */
export const Variable = z.object({
  key: z.string().min(1).max(255),
  value: z.string().max(100_000).default(""),
  secret: z.boolean().default(false),
  enabled: z.boolean().default(true),
});
export type Variable = z.infer<typeof Variable>;

/** What a secret value is replaced with wherever it is shown. */
export const SECRET_MASK = "••••••";

/** A request with every default filled in (what a new request in the workspace starts from). */
export function blankRequest(overrides: RequestDefinitionInput = { url: "" }): RequestDefinition {
  return RequestDefinition.parse(overrides);
}
export const DEFAULT_REQUEST_SETTINGS: RequestSettings = RequestSettings.parse({});
