// The import services' common entry: an import's body as read by
// server/http/read-document-body.ts, its JSON (a 400 naming the body when it
// is not JSON), and the options every format takes from the query and the
// wrapped body (preview, a name for the new collection).
import type { ImportQuery } from "@/server/contracts/tester-import";
import { errors } from "@/server/errors";
import type { ImportOptions } from "./import-collection";

/** Structurally server/http's DocumentBody: services do not import the HTTP layer. */
export interface ImportBody {
  text: string;
  fields: Record<string, unknown>;
  json?: unknown;
}

/** The body's document as JSON; `what` names the format in the 400. */
export function documentJson(body: ImportBody, what: string): unknown {
  if (body.json !== undefined) return body.json;
  try {
    return JSON.parse(body.text);
  } catch (err) {
    throw errors.validation(`The document is not ${what}: it is not JSON (${(err as Error).message})`, [{ location: "body", field: "", message: `not JSON: ${(err as Error).message}` }]);
  }
}

/** preview from the query or the wrapped body; the name from the query, then the wrapped body. */
export function importOptions(query: ImportQuery | undefined, body: ImportBody, source: string): ImportOptions {
  const fieldName = typeof body.fields.name === "string" && body.fields.name.trim() ? body.fields.name.trim().slice(0, 255) : undefined;
  const preview = query?.preview ?? (body.fields.preview === true || body.fields.preview === "true");
  return { source, preview, name: query?.name ?? fieldName };
}
