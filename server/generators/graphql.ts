// GraphQL SDL or an introspection result → GraphQL mocks: one per field of
// Query, Mutation and Subscription, answering a value of the field's type
// built from the schema (nested objects to a depth of 3, lists of one item,
// the first enum value, the first member of a union or interface with its
// __typename, realistic `$.fake.*` scalars: ID → UUID, Int, Float, DateTime).
// The payload is the field's value (the GraphQL stub composes `data`).
import {
  buildClientSchema,
  buildSchema,
  getNamedType,
  GraphQLError,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from "graphql";
import type { MockInput } from "@/server/contracts/mock";
import { mockId, uniqueIds } from "./ids";
import { GeneratorInputError } from "./input-error";
import type { GeneratedMock, GeneratorOptions, GeneratorResult, GeneratorWarning } from "./types";

const MAX_DEPTH = 3;
const OPERATIONS = [
  ["query", "getQueryType"],
  ["mutation", "getMutationType"],
  ["subscription", "getSubscriptionType"],
] as const;

/** The one read of a GraphQL schema (SDL text or an introspection result); also the API tester's import. */
export function schemaOf(document: unknown): GraphQLSchema {
  try {
    if (typeof document === "string") return buildSchema(document, { assumeValidSDL: false });
    const obj = document as { __schema?: unknown; data?: { __schema?: unknown } };
    const introspection = obj?.__schema ? obj : obj?.data?.__schema ? obj.data : undefined;
    if (!introspection) throw new GeneratorInputError("not a GraphQL schema: give SDL text or an introspection result ({\"__schema\": …} or {\"data\": {\"__schema\": …}})");
    return buildClientSchema(introspection as IntrospectionQuery);
  } catch (err) {
    if (err instanceof GeneratorInputError) throw err;
    const loc = err instanceof GraphQLError ? err.locations?.[0] : undefined;
    throw new GeneratorInputError(`invalid GraphQL schema: ${(err as Error).message}`, loc ? { line: loc.line, column: loc.column } : {});
  }
}

const SCALAR_FAKES: Record<string, unknown> = { ID: "$.fake.UUID", Int: "$.fake.Int", Float: "$.fake.Float", DateTime: "$.fake.RFC3339", Date: "$.fake.Date", Time: "$.fake.Time", UUID: "$.fake.UUID", Email: "$.fake.Email", URL: "$.fake.URL", JSON: {} };

function scalarValue(name: string, field: string): unknown {
  if (name === "Boolean") return true;
  if (name === "String") {
    if (/e-?mail/i.test(field)) return "$.fake.Email";
    if (/^(name|fullName)$/i.test(field)) return "$.fake.FullName";
    if (/^(url|website|homepage)$/i.test(field)) return "$.fake.URL";
    if (/^(title|headline)$/i.test(field)) return "$.fake.Sentence";
    return field;
  }
  return SCALAR_FAKES[name] ?? field;
}

function valueOf(type: GraphQLOutputType, field: string, schema: GraphQLSchema, depth: number, seen: Set<string>): unknown {
  if (isNonNullType(type)) return valueOf(type.ofType, field, schema, depth, seen);
  if (isListType(type)) {
    const item = valueOf(type.ofType, field, schema, depth, seen);
    return item === null ? [] : [item];
  }
  const named = getNamedType(type);
  if (isScalarType(named)) return scalarValue(named.name, field);
  if (isEnumType(named)) return named.getValues()[0]?.value ?? null;
  if (isAbstractType(named)) {
    const first = schema.getPossibleTypes(named)[0];
    if (!first) return null;
    const value = objectValue(first, schema, depth, seen);
    return value && typeof value === "object" ? { __typename: first.name, ...value } : value;
  }
  if (isObjectType(named)) return objectValue(named, schema, depth, seen);
  return null;
}

function objectValue(type: GraphQLObjectType, schema: GraphQLSchema, depth: number, seen: Set<string>): unknown {
  // Deep or cyclic: stop with null (every such field is nullable or the client asked too deep).
  if (depth >= MAX_DEPTH || seen.has(type.name)) return null;
  const inner = new Set(seen).add(type.name);
  const out: Record<string, unknown> = {};
  for (const f of Object.values(type.getFields())) {
    const v = valueOf(f.type, f.name, schema, depth + 1, inner);
    if (v !== null || !isNonNullType(f.type)) out[f.name] = v;
  }
  return out;
}

export async function graphqlToMocks(document: unknown, options: GeneratorOptions = {}): Promise<GeneratorResult> {
  const schema = schemaOf(document);
  const warnings: GeneratorWarning[] = [];
  const prefix = options.idPrefix ?? "graphql";
  const mocks: GeneratedMock[] = [];
  for (const [operation, getter] of OPERATIONS) {
    const root = schema[getter]();
    if (!root) continue;
    for (const field of Object.values(root.getFields()) as GraphQLField<unknown, unknown>[]) {
      const payload = valueOf(field.type, field.name, schema, 0, new Set());
      const mock: MockInput & { id: string } = {
        id: mockId(prefix, operation, field.name),
        graphql: { operation, field: field.name, type: String(field.type) },
        response: { payload },
        ...(options.pathPrefix ? { pathPrefix: options.pathPrefix } : {}),
        ...(options.serverName ? { serverName: options.serverName } : {}),
        ...(options.tags?.length ? { tags: options.tags } : {}),
        ...(options.folderId !== undefined ? { folderId: options.folderId } : {}),
      };
      mocks.push({ mock, summary: `${operation} ${field.name}: ${String(field.type)}` });
    }
  }
  if (!mocks.length) throw new GeneratorInputError("the schema has no Query, Mutation or Subscription fields");
  if (!schema.getQueryType()) warnings.push({ message: "the schema has no Query type" });
  uniqueIds(mocks);
  return { mocks, warnings };
}
