// Reading a document against a zod schema, for formats whose shape we check
// ourselves (HAR, socket documents): the first problem becomes a
// GeneratorInputError naming where, as a JSON pointer (/log/entries/3/response).
import type { z } from "zod";
import { GeneratorInputError } from "./input-error";

export function jsonPointer(path: readonly PropertyKey[]): string {
  return path.map((p) => "/" + String(p).replace(/~/g, "~0").replace(/\//g, "~1")).join("");
}

/** The document as the schema reads it, or a GeneratorInputError at the first problem (`what` names the format). */
export function readWithSchema<T extends z.ZodType>(schema: T, document: unknown, what: string): z.output<T> {
  const parsed = schema.safeParse(document);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const at = jsonPointer(issue.path);
  throw new GeneratorInputError(`not ${what}: ${at || "the document"}: ${issue.message}`, { pointer: at });
}
