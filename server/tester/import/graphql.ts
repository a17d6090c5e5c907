// A GraphQL schema (SDL or introspection result) → an API tester collection,
// read by the generators' one schema reader (server/generators/graphql.ts):
// folders "Queries" and "Mutations", a GraphQL request per root field with
// an operation that declares every argument as a variable, a selection set of
// the field's type down to SELECTION_DEPTH levels (scalars and enums, nested
// objects while depth lasts, `__typename` plus each member's scalars for
// unions and interfaces), and example variables built from the input types.
// Subscriptions need a socket, not a POST: they are listed as warnings.
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  isUnionType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLInterfaceType,
} from "graphql";
import { schemaOf } from "@/server/generators/graphql";
import { GeneratorInputError } from "@/server/generators/input-error";
import { collectionDocument, folderItem, requestItem, variable, type ConvertedCollection, type ImportWarning, type ItemInput } from "./common";

export const SELECTION_DEPTH = 3;
const MAX_FIELDS = 50;

function pad(depth: number) {
  return "  ".repeat(depth);
}

/** The selection set of a type, or "" for a leaf; undefined when nothing can be selected within the depth. */
function selectionOf(type: GraphQLNamedType, depth: number, seen: ReadonlySet<string>): string | undefined {
  if (isLeafType(type)) return "";
  if (depth > SELECTION_DEPTH) return undefined;
  const lines: string[] = [];
  if (isUnionType(type) || isInterfaceType(type)) {
    lines.push(`${pad(depth)}__typename`);
    if (isInterfaceType(type)) lines.push(...fieldLines(type, depth, seen));
    const members = isUnionType(type) ? type.getTypes() : [];
    for (const m of members) {
      const inner = fieldLines(m, depth + 1, seen);
      if (inner.length) lines.push(`${pad(depth)}... on ${m.name} {`, ...inner, `${pad(depth)}}`);
    }
  } else if (isObjectType(type)) lines.push(...fieldLines(type, depth, seen));
  if (!lines.length) return undefined;
  return ` {\n${lines.join("\n")}\n${pad(depth - 1)}}`;
}

function fieldLines(type: GraphQLObjectType | GraphQLInterfaceType, depth: number, seen: ReadonlySet<string>): string[] {
  const inner = new Set(seen).add(type.name);
  const out: string[] = [];
  for (const f of Object.values(type.getFields()).slice(0, MAX_FIELDS)) {
    // A field that needs arguments cannot be selected without them.
    if (f.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const named = getNamedType(f.type);
    if (isLeafType(named)) out.push(`${pad(depth)}${f.name}`);
    else if (!inner.has(named.name)) {
      const sel = selectionOf(named, depth + 1, inner);
      if (sel) out.push(`${pad(depth)}${f.name}${sel}`);
    }
  }
  return out;
}

/** An example value of an input type. */
function inputValue(type: GraphQLInputType, name: string, depth: number): unknown {
  if (isNonNullType(type)) return inputValue(type.ofType, name, depth);
  if (isListType(type)) return [inputValue(type.ofType, name, depth)];
  if (isEnumType(type)) return type.getValues()[0]?.value ?? null;
  if (isInputObjectType(type)) {
    if (depth > 4) return {};
    const out: Record<string, unknown> = {};
    for (const f of Object.values(type.getFields())) if (isNonNullType(f.type) || depth < 2) out[f.name] = f.defaultValue ?? inputValue(f.type, f.name, depth + 1);
    return out;
  }
  if (isScalarType(type)) {
    if (type.name === "Int") return 1;
    if (type.name === "Float") return 1.5;
    if (type.name === "Boolean") return true;
    if (type.name === "ID") return "1";
    return name;
  }
  return null;
}

function operationOf(kind: "query" | "mutation", field: GraphQLField<unknown, unknown>) {
  const opName = field.name.charAt(0).toUpperCase() + field.name.slice(1);
  const decls = field.args.map((a) => `$${a.name}: ${String(a.type)}`);
  const args = field.args.map((a) => `${a.name}: $${a.name}`);
  const selection = selectionOf(getNamedType(field.type), 2, new Set()) ?? "";
  const query = `${kind} ${opName}${decls.length ? `(${decls.join(", ")})` : ""} {\n  ${field.name}${args.length ? `(${args.join(", ")})` : ""}${selection}\n}`;
  const variables = Object.fromEntries(field.args.map((a) => [a.name, a.defaultValue ?? inputValue(a.type, a.name, 0)]));
  return { query, variables, operationName: opName };
}

/** `url`: the endpoint for the graphqlUrl variable (a schema does not say where it is served). */
export function graphqlToCollection(document: unknown, opts: { name?: string; url?: string } = {}): ConvertedCollection {
  const schema = schemaOf(document);
  const warnings: ImportWarning[] = [];
  const folders: ItemInput[] = [];
  for (const [kind, label, root] of [
    ["query", "Queries", schema.getQueryType()],
    ["mutation", "Mutations", schema.getMutationType()],
  ] as const) {
    if (!root) continue;
    const requests = Object.values(root.getFields()).map((field) => {
      const { query, variables, operationName } = operationOf(kind, field);
      return requestItem(field.name, { kind: "graphql", method: "POST", url: "{{graphqlUrl}}", body: { mode: "graphql", graphql: { query, variables: JSON.stringify(variables, null, 2), operationName } } });
    });
    if (requests.length) folders.push(folderItem(label, requests));
  }
  const subscription = schema.getSubscriptionType();
  if (subscription) warnings.push({ message: `${Object.keys(subscription.getFields()).length} subscription field(s) not imported: a subscription runs over a socket, not a POST` });
  if (!folders.length) throw new GeneratorInputError("the schema has no Query or Mutation fields");
  if (!opts.url) warnings.push({ message: "a schema does not say where it is served: set the graphqlUrl variable before sending" });
  return { document: collectionDocument({ name: opts.name ?? "GraphQL API", variables: [variable("graphqlUrl", opts.url ?? "")], items: folders }), warnings };
}
