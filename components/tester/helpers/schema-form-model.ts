// A tool's JSON Schema (an MCP tool's inputSchema) as form fields, and the
// fields' text back as the tool's arguments. Strings, numbers, integers,
// booleans and enums get their own control; objects, arrays and anything
// else are JSON text. Pure, so the form stays a thin view.
export type FieldKind = "string" | "number" | "integer" | "boolean" | "enum" | "json";

export interface FormField {
  name: string;
  kind: FieldKind;
  required: boolean;
  description?: string;
  options?: string[];
  initial: string;
}

type Schema = { type?: string | string[]; enum?: unknown[]; description?: string; default?: unknown; properties?: Record<string, Schema>; required?: string[] };

function kindOf(s: Schema): FieldKind {
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === "string")) return "enum";
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  if (type === "string" || type === "number" || type === "integer" || type === "boolean") return type;
  return "json";
}

export function formFields(schema: Record<string, unknown> | undefined): FormField[] {
  const s = (schema ?? {}) as Schema;
  const required = new Set(s.required ?? []);
  return Object.entries(s.properties ?? {}).map(([name, prop]) => {
    const kind = kindOf(prop);
    const initial = prop.default === undefined ? (kind === "boolean" ? "false" : kind === "enum" && required.has(name) ? String(prop.enum?.[0] ?? "") : "") : kind === "json" ? JSON.stringify(prop.default) : String(prop.default);
    return { name, kind, required: required.has(name), ...(prop.description ? { description: prop.description } : {}), ...(kind === "enum" ? { options: prop.enum as string[] } : {}), initial };
  });
}

/** The arguments the values give: empty optional fields left out; errors by field name. */
export function formArguments(fields: FormField[], values: Record<string, string>): { args: Record<string, unknown>; errors: Record<string, string> } {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const text = values[f.name] ?? f.initial;
    if (text === "" && f.kind !== "string") {
      if (f.required) errors[f.name] = "required";
      continue;
    }
    if (text === "" && !f.required) continue;
    switch (f.kind) {
      case "number":
      case "integer": {
        const n = Number(text);
        if (!Number.isFinite(n) || (f.kind === "integer" && !Number.isInteger(n))) errors[f.name] = f.kind === "integer" ? "a whole number" : "a number";
        else args[f.name] = n;
        break;
      }
      case "boolean":
        args[f.name] = text === "true";
        break;
      case "json":
        try {
          args[f.name] = JSON.parse(text);
        } catch {
          errors[f.name] = "not valid JSON";
        }
        break;
      default:
        args[f.name] = text;
    }
  }
  return { args, errors };
}
