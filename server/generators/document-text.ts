// The text of a contract (JSON or YAML) as a value, with the line and column
// of a syntax error. YAML is parsed with the core schema (no custom tags) and
// the yaml library's cap on alias expansion, so a hostile document (a
// "billion laughs") is refused instead of growing into gigabytes.
import { parse as parseYaml, YAMLParseError } from "yaml";
import { GeneratorInputError } from "./input-error";

/** Documents bigger than this are refused before parsing (also the upload limit of the routes). */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export function parseDocumentText(text: string): unknown {
  if (Buffer.byteLength(text) > MAX_DOCUMENT_BYTES) throw new GeneratorInputError(`the document is larger than ${MAX_DOCUMENT_BYTES / 1024 / 1024} MiB`);
  const trimmed = text.trimStart();
  if (trimmed === "") throw new GeneratorInputError("the document is empty");
  const json = trimmed.startsWith("{") || trimmed.startsWith("[");
  if (json) {
    try {
      return JSON.parse(text);
    } catch {
      // V8's JSON errors carry no line: the YAML parser (JSON is YAML) says where, or reads what JSON.parse would not.
    }
  }
  try {
    return parseYaml(text, { schema: "core", maxAliasCount: 1000, uniqueKeys: false });
  } catch (err) {
    const kind = json ? "JSON" : "YAML";
    if (err instanceof YAMLParseError) {
      const at = err.linePos?.[0];
      throw new GeneratorInputError(`invalid ${kind}: ${err.message.split("\n")[0]}`, at ? { line: at.line, column: at.col } : {});
    }
    throw new GeneratorInputError(`invalid ${kind}: ${(err as Error).message}`);
  }
}
