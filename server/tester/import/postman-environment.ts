// A Postman environment export ({name, values: [{key, value, type, enabled}]})
// as the tester's environment input. Values of type "secret" become secret
// names (stored sealed). The tester's environments have no switched-off
// entries, so a disabled value is left out with a warning, and when a key
// appears twice the last enabled one wins (what Postman resolves to).
import { MAX_ENVIRONMENT_VARIABLES } from "@/server/contracts/tester-environments";
import type { ImportWarning } from "@/server/contracts/tester-import";
import { errors } from "@/server/errors";

export interface PostmanEnvironmentConversion {
  name: string;
  variables: Record<string, string>;
  secrets: string[];
  warnings: ImportWarning[];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === "string" ? v : v === null || v === undefined ? "" : typeof v === "object" ? JSON.stringify(v) : String(v));

export function convertPostmanEnvironment(input: unknown): PostmanEnvironmentConversion {
  if (!isObject(input)) throw errors.validation("The document is not a Postman environment: expected a JSON object", [{ location: "body", field: "", message: "expected an object" }]);
  const doc = isObject(input.environment) && Array.isArray(input.environment.values) ? input.environment : input;
  if (!Array.isArray(doc.values)) {
    const hint = Array.isArray(doc.item) ? " (this looks like a collection: import it as a Postman collection)" : "";
    throw errors.validation(`The document is not a Postman environment: \`values\` must be a list${hint}`, [{ location: "body", field: "values", message: "expected an array" }]);
  }
  const warnings: ImportWarning[] = [];
  const variables: Record<string, string> = {};
  const secret = new Set<string>();
  doc.values.forEach((raw, i) => {
    const path = `values[${i}]`;
    if (!isObject(raw)) return void warnings.push({ path, message: "not an object; left out" });
    const key = text(raw.key).slice(0, 255);
    if (!key) return void warnings.push({ path, message: "a value without a key is left out" });
    if (raw.enabled === false || raw.disabled === true) return void warnings.push({ path, message: `'${key}' is disabled; left out` });
    if (Object.prototype.hasOwnProperty.call(variables, key)) warnings.push({ path, message: `'${key}' appears more than once; the last one is kept` });
    variables[key] = text(raw.value).slice(0, 100_000);
    if (raw.type === "secret") secret.add(key);
    else secret.delete(key);
  });
  if (Object.keys(variables).length > MAX_ENVIRONMENT_VARIABLES) {
    throw errors.validation(`An environment holds at most ${MAX_ENVIRONMENT_VARIABLES} variables`, [{ location: "body", field: "values", message: "too many variables" }]);
  }
  return { name: (text(doc.name).trim() || "Imported Postman environment").slice(0, 255), variables, secrets: [...secret], warnings };
}
