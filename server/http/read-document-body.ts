// Imports take a document three ways, because clients differ (issue 16's
// shapes): the document as the body itself (XML, YAML, JSON…), or JSON
// wrapping it as {data: "<raw>"} or {content: "<raw>"} beside other fields.
import { errors } from "@/server/errors";
import { unstorableText } from "@/server/lib/storable-text";
import { readBodyText } from "./read-body";

export interface DocumentBody {
  /** The document's text. */
  text: string;
  /** The wrapper's other fields (name, format, namespace…), when wrapped. */
  fields: Record<string, unknown>;
  /** The parsed JSON when the body was a JSON document that is not a wrapper. */
  json?: unknown;
}

export async function readDocumentBody(req: Request, limit: number): Promise<DocumentBody> {
  const text = await readBodyText(req, limit);
  if (!text.trim()) throw errors.validation("The request body is empty: send the document, or {data: \"<document>\"}", [{ location: "body", field: "", message: "empty" }]);
  if (text.includes("\0")) throw errors.validation("Text may not contain NUL characters", [{ location: "body", field: "", message: "contains U+0000" }]);
  const type = req.headers.get("content-type") ?? "";
  const looksJson = /json/i.test(type) || /^\s*[{[]/.test(text);
  if (!looksJson) return { text, fields: {} };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    if (/json/i.test(type)) throw errors.validation("Malformed JSON body", [{ location: "body", field: "", message: (err as Error).message }]);
    return { text, fields: {} };
  }
  const bad = unstorableText(parsed);
  if (bad) throw errors.validation(bad.error, [{ location: "body", field: bad.field, message: bad.message }]);
  if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) {
    const { data, content, ...fields } = parsed as Record<string, unknown>;
    const inner = typeof data === "string" ? data : typeof content === "string" ? content : undefined;
    if (inner !== undefined) return { text: inner, fields };
  }
  return { text, fields: {}, json: parsed };
}
