// A JSON schema that an example value fits, for the specification builders:
// a mock carries a payload, not a schema. Loose on purpose (no `required`, no
// formats): it describes the example without inventing constraints.
type Obj = Record<string, unknown>;

/** `openapi`: OpenAPI 3.0's dialect (`nullable`, no "null" type); `json`: JSON Schema draft 7 (AsyncAPI 2.6). */
export function inferSchema(value: unknown, dialect: "openapi" | "json", depth = 0): Obj {
  if (depth > 32 || value === undefined) return {};
  if (value === null) return dialect === "openapi" ? { nullable: true } : { type: "null" };
  if (typeof value === "boolean") return { type: "boolean" };
  if (typeof value === "number") return { type: Number.isInteger(value) ? "integer" : "number" };
  if (typeof value === "string") return { type: "string" };
  if (Array.isArray(value)) return { type: "array", items: value.length ? inferSchema(value[0], dialect, depth + 1) : {} };
  if (typeof value === "object") return { type: "object", properties: Object.fromEntries(Object.entries(value as Obj).map(([k, v]) => [k, inferSchema(v, dialect, depth + 1)])) };
  return {};
}
