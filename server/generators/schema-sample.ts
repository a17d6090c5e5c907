// An example value for a JSON schema (OpenAPI 3.0/3.1, Swagger 2, AsyncAPI
// payloads), for a mock whose contract gives no example: openapi-sampler
// builds a value that validates, then strings and numbers the schema leaves
// open become `$.fake.*` placeholders, so each answer looks real (a fresh
// UUID, e-mail, timestamp) and still fits the schema. A value the schema
// pins down (enum, const, pattern, length or range limits, its own example)
// is kept as the sampler made it.
import { sample as sampleOpenApi } from "openapi-sampler";

type Schema = Record<string, unknown>;

/** String formats with a generator whose values always fit the format. */
const FORMAT_FAKES: Record<string, string> = {
  uuid: "UUID",
  email: "Email",
  "date-time": "RFC3339",
  date: "Date",
  uri: "URL",
  url: "URL",
  hostname: "Domain",
  ipv4: "IPv4",
  ipv6: "IPv6",
};

/** Free-form string properties whose name says what they hold. */
export const NAME_FAKES: [RegExp, string][] = [
  [/^e-?mail(address)?$/i, "Email"],
  [/^first_?name$/i, "FirstName"],
  [/^last_?name$|^surname$/i, "LastName"],
  [/^full_?name$/i, "FullName"],
  [/^user_?name$|^login$/i, "Username"],
  [/^phone(_?number)?$|^mobile$/i, "Phone"],
  [/^city$/i, "City"],
  [/^country$/i, "Country"],
  [/^(street|street_?address|address_?line1?)$/i, "StreetAddress"],
  [/^(zip|zip_?code|post_?code|postal_?code)$/i, "ZipCode"],
  [/^company(_?name)?$/i, "Company"],
  [/^(website|homepage|url)$/i, "URL"],
  [/^(uuid|guid)$/i, "UUID"],
];

const isObject = (v: unknown): v is Schema => typeof v === "object" && v !== null && !Array.isArray(v);

/** allOf merged into one object schema; the first of oneOf/anyOf (the branch the sampler takes too). */
function effective(schema: unknown): Schema {
  if (!isObject(schema)) return {};
  let s: Schema = schema;
  for (const key of ["oneOf", "anyOf"] as const) {
    const branches = s[key];
    if (Array.isArray(branches) && branches.length) s = { ...s, ...effective(branches[0]), [key]: undefined };
  }
  if (Array.isArray(s.allOf)) {
    const merged: Schema = { ...s, allOf: undefined, properties: { ...(s.properties as Schema) } };
    for (const part of s.allOf.map(effective)) {
      Object.assign(merged.properties as Schema, part.properties as Schema);
      for (const [k, v] of Object.entries(part)) if (k !== "properties" && merged[k] === undefined) merged[k] = v;
    }
    s = merged;
  }
  return s;
}

const types = (s: Schema): string[] => (Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === "string" ? [s.type] : []);

/** True when the schema leaves the value open enough for any generated value of its kind. */
function open(s: Schema): boolean {
  const pinned = ["enum", "const", "pattern", "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "example", "examples", "default"];
  return pinned.every((k) => s[k] === undefined);
}

function fakeFor(s: Schema, name: string | undefined): string | undefined {
  const t = types(s);
  if (!open(s)) return undefined;
  if (t.includes("string")) {
    const format = typeof s.format === "string" ? FORMAT_FAKES[s.format] : undefined;
    if (format) return format;
    if (s.format === undefined && name) return NAME_FAKES.find(([re]) => re.test(name))?.[1];
    return undefined;
  }
  // int32/int64/unbounded: Int is 0–100000, inside every such range.
  if (t.length === 1 && t[0] === "integer" && (s.format === undefined || s.format === "int32" || s.format === "int64")) return "Int";
  return undefined;
}

function placeholders(value: unknown, schema: unknown, name: string | undefined, depth: number): unknown {
  if (depth > 32) return value;
  const s = effective(schema);
  if (Array.isArray(value)) return value.map((v) => placeholders(v, s.items, undefined, depth + 1));
  if (isObject(value)) {
    const props = isObject(s.properties) ? s.properties : {};
    const extra = isObject(s.additionalProperties) ? s.additionalProperties : undefined;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, placeholders(v, props[k] ?? extra, k, depth + 1)]));
  }
  if (typeof value === "string" || typeof value === "number") {
    const fake = fakeFor(s, name);
    return fake ? `$.fake.${fake}` : value;
  }
  return value;
}

/**
 * A value for `schema` (already dereferenced). `spec` is the whole document,
 * for the sampler's own $ref lookups. `fake: false` keeps the sampler's plain
 * values (what a contract-comparing caller wants).
 */
export function sampleSchema(schema: unknown, opts: { spec?: unknown; fake?: boolean; direction?: "response" | "request" } = {}): unknown {
  if (!isObject(schema)) return undefined;
  const value = sampleOpenApi(schema as never, { skipReadOnly: opts.direction === "request", skipWriteOnly: opts.direction !== "request", quiet: true }, opts.spec as never);
  return opts.fake === false ? value : placeholders(value, schema, undefined, 0);
}
