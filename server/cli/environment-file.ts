// An environment for a local run: a Postman environment export
// ({values: [{key, value, enabled}]}), the tester's environment shape
// ({name, variables: {key: value}}), or a plain {key: value} object.
import { AppError } from "@/server/errors";
import { convertPostmanEnvironment } from "@/server/tester/import/postman-environment";
import { readJsonFile } from "./collection-file";
import { UsageError } from "./usage-error";

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

export async function loadEnvironmentFile(path: string): Promise<Record<string, string>> {
  const json = await readJsonFile(path, "environment file");
  if (!isObject(json)) throw new UsageError(`environment file '${path}' must be a JSON object`);
  if (Array.isArray(json.values) || (isObject(json.environment) && Array.isArray(json.environment.values))) {
    try {
      return convertPostmanEnvironment(json).variables;
    } catch (err) {
      if (err instanceof AppError) throw new UsageError(`environment file '${path}': ${err.message}`);
      throw err;
    }
  }
  const values = isObject(json.variables) ? json.variables : json;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(values)) {
    if (values === json && (k === "name" || k === "secrets")) continue;
    if (v !== null && typeof v === "object") throw new UsageError(`environment file '${path}': '${k}' must be a text, number or boolean value`);
    out[k] = v === null || v === undefined ? "" : String(v);
  }
  return out;
}
