// What the JSON- and YAML-shaped generators (OpenAPI, AsyncAPI) share about
// reading a parsed document: objects, JSON pointers, and refusing a $ref that
// leaves the document, so a document never makes the server read a file or
// fetch a URL.

export type Obj = Record<string, unknown>;

export const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON pointer (RFC 6901) to the place the parts name. */
export const pointer = (...parts: string[]) => "/" + parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/** The first $ref that leaves the document, with where it stands. */
export function externalRef(value: unknown, at: string[] = [], depth = 0): { ref: string; at: string } | undefined {
  if (depth > 200 || typeof value !== "object" || value === null) return undefined;
  if (!Array.isArray(value) && typeof (value as Obj).$ref === "string" && !((value as Obj).$ref as string).startsWith("#")) return { ref: (value as Obj).$ref as string, at: pointer(...at) };
  for (const [k, v] of Object.entries(value)) {
    const found = externalRef(v, [...at, k], depth + 1);
    if (found) return found;
  }
  return undefined;
}
