// Completion for the GraphQL query editor from an introspected schema: which
// fields (or keywords) fit where the cursor is. Pure: the text before the
// cursor is read token by token, keeping the stack of types the open
// selection sets select from, so the editor asks and Monaco only draws.
import { buildClientSchema, getNamedType, isInterfaceType, isObjectType, type GraphQLNamedType, type GraphQLSchema, type IntrospectionQuery } from "graphql";

export interface GraphqlSuggestion {
  label: string;
  detail: string;
  kind: "field" | "keyword";
  documentation?: string;
}

export function schemaFromIntrospection(introspection: Record<string, unknown>): GraphQLSchema | null {
  try {
    return buildClientSchema(introspection as unknown as IntrospectionQuery);
  } catch {
    return null;
  }
}

const KEYWORDS = ["query", "mutation", "subscription", "fragment"];
const TOKEN = /"(?:[^"\\]|\\.)*"|#[^\n]*|[A-Za-z_][A-Za-z0-9_]*|[{}()]|\.\.\.|./g;

function fieldsOf(type: GraphQLNamedType | undefined) {
  return type && (isObjectType(type) || isInterfaceType(type)) ? type.getFields() : undefined;
}

/** The type whose fields fit at the end of `before` (the text up to the cursor); null outside any selection set. */
export function typeAtCursor(schema: GraphQLSchema, before: string): GraphQLNamedType | null {
  const stack: (GraphQLNamedType | undefined)[] = [];
  let operation: "query" | "mutation" | "subscription" = "query";
  let last: string | undefined;
  let onType: string | undefined;
  let expectTypeName = false;
  let parens = 0;
  for (const m of before.matchAll(TOKEN)) {
    const t = m[0];
    if (t.startsWith("#") || t.startsWith('"') || /^\s$/.test(t)) continue;
    if (parens > 0) {
      if (t === "(") parens++;
      else if (t === ")") parens--;
      continue;
    }
    if (t === "(") {
      parens = 1;
      continue;
    }
    if (t === "{") {
      if (stack.length === 0) {
        const root = onType ? schema.getType(onType) : operation === "mutation" ? schema.getMutationType() : operation === "subscription" ? schema.getSubscriptionType() : schema.getQueryType();
        stack.push(root ?? undefined);
      } else if (onType) stack.push(schema.getType(onType) ?? undefined);
      else {
        const field = last ? fieldsOf(stack.at(-1))?.[last] : undefined;
        stack.push(field ? getNamedType(field.type) : undefined);
      }
      onType = undefined;
      last = undefined;
      continue;
    }
    if (t === "}") {
      stack.pop();
      last = undefined;
      continue;
    }
    if (/^[A-Za-z_]/.test(t)) {
      if (expectTypeName) {
        onType = t;
        expectTypeName = false;
      } else if (t === "on") expectTypeName = true;
      else if (stack.length === 0 && (t === "query" || t === "mutation" || t === "subscription")) operation = t;
      else last = t;
    }
  }
  return stack.length ? (stack.at(-1) ?? null) : null;
}

export function graphqlSuggestions(schema: GraphQLSchema, before: string): GraphqlSuggestion[] {
  const type = typeAtCursor(schema, before);
  if (!type) return before.trim() === "" || /}\s*[A-Za-z_]*$/.test(before) || !before.includes("{") ? KEYWORDS.map((k) => ({ label: k, detail: "keyword", kind: "keyword" })) : [];
  const fields = fieldsOf(type);
  if (!fields) return [];
  return [
    ...Object.values(fields).map((f) => ({ label: f.name, detail: String(f.type), kind: "field" as const, ...(f.description ? { documentation: f.description } : {}) })),
    { label: "__typename", detail: "String!", kind: "field" as const },
  ];
}

/** A query that selects `field` of the root `operation` type with its scalar subfields, as a starting point. */
export function fieldQuery(schema: GraphQLSchema, operation: "query" | "mutation" | "subscription", field: string): string {
  const root = operation === "mutation" ? schema.getMutationType() : operation === "subscription" ? schema.getSubscriptionType() : schema.getQueryType();
  const f = root?.getFields()[field];
  if (!f) return "";
  const args = f.args.length ? `(${f.args.map((a) => `${a.name}: $${a.name}`).join(", ")})` : "";
  const vars = f.args.length ? `(${f.args.map((a) => `$${a.name}: ${String(a.type)}`).join(", ")})` : "";
  const sub = fieldsOf(getNamedType(f.type));
  const scalars = sub ? Object.values(sub).filter((s) => !fieldsOf(getNamedType(s.type))).map((s) => `    ${s.name}`) : [];
  const selection = sub ? ` {\n${(scalars.length ? scalars : ["    __typename"]).join("\n")}\n  }` : "";
  return `${operation}${vars ? ` ${field[0].toUpperCase()}${field.slice(1)}${vars}` : ""} {\n  ${field}${args}${selection}\n}\n`;
}
