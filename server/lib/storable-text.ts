// What PostgreSQL text cannot hold: U+0000, and a UTF-16 surrogate without its
// pair ("\ud800" is valid JSON, and a JS string, but no Unicode text). Inputs
// are checked at the edge (REST bodies, tRPC inputs) so they get a 400 naming
// the field instead of a database error, or a silent U+FFFD, later.

// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface UnstorableText {
  /** Dotted path of the offending key or value ("" for the top level). */
  field: string;
  error: string;
  message: string;
}

function problemOf(text: string): Omit<UnstorableText, "field"> | undefined {
  if (text.includes("\0")) return { error: "Text may not contain NUL characters", message: "contains U+0000" };
  if (LONE_SURROGATE.test(text)) return { error: "Text must be valid Unicode", message: "contains an unpaired UTF-16 surrogate" };
  return undefined;
}

/** The first string (value or key) in a JSON-like value that PostgreSQL text cannot hold. */
export function unstorableText(value: unknown, path: string[] = []): UnstorableText | undefined {
  if (typeof value === "string") {
    const problem = problemOf(value);
    return problem && { field: path.join("."), ...problem };
  }
  if (!value || typeof value !== "object") return undefined;
  for (const [key, child] of Array.isArray(value) ? value.entries() : Object.entries(value)) {
    const at = [...path, String(key)];
    const keyProblem = typeof key === "string" ? problemOf(key) : undefined;
    if (keyProblem) return { field: at.join("."), ...keyProblem };
    const found = unstorableText(child, at);
    if (found) return found;
  }
  return undefined;
}
