// A GraphQL introspection answer read for the request editor, without I/O:
// the schema (the generators' one GraphQL reader), its SDL, and a compact
// summary of the root fields and named types that the schema explorer lists.
import { getIntrospectionQuery, isEnumType, isInputObjectType, isInterfaceType, isObjectType, isUnionType, printSchema, type GraphQLField, type GraphQLObjectType } from "graphql";
import { schemaOf } from "@/server/generators/graphql";

/** The standard introspection query (descriptions, deprecations, one level of type references more than the default). */
export const INTROSPECTION_QUERY = getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true });

function fieldSummary(f: GraphQLField<unknown, unknown>) {
  return { name: f.name, type: String(f.type), args: f.args.map((a) => ({ name: a.name, type: String(a.type) })), ...(f.description ? { description: f.description } : {}) };
}

const rootFields = (t: GraphQLObjectType | null | undefined) => (t ? Object.values(t.getFields()).map(fieldSummary) : []);

/** `answer` is the endpoint's JSON: {data: {__schema}} (or {__schema}). Throws GeneratorInputError when it is no schema. */
export function summariseIntrospection(answer: unknown) {
  const schema = schemaOf(answer);
  const obj = answer as { data?: { __schema?: unknown }; __schema?: unknown };
  const introspection = obj.__schema ? { __schema: obj.__schema } : { __schema: obj.data?.__schema };
  const types = Object.values(schema.getTypeMap())
    .filter((t) => !t.name.startsWith("__") && !["String", "Int", "Float", "Boolean", "ID"].includes(t.name))
    .map((t) => {
      const kind = isObjectType(t) ? "OBJECT" : isInterfaceType(t) ? "INTERFACE" : isInputObjectType(t) ? "INPUT_OBJECT" : isEnumType(t) ? "ENUM" : isUnionType(t) ? "UNION" : "SCALAR";
      const fields = isObjectType(t) || isInterfaceType(t) || isInputObjectType(t) ? Object.keys(t.getFields()) : undefined;
      return { name: t.name, kind, ...(fields ? { fields } : {}) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  return {
    schema: introspection as Record<string, unknown>,
    sdl: printSchema(schema),
    summary: {
      queryType: schema.getQueryType()?.name ?? null,
      mutationType: schema.getMutationType()?.name ?? null,
      subscriptionType: schema.getSubscriptionType()?.name ?? null,
      queries: rootFields(schema.getQueryType()),
      mutations: rootFields(schema.getMutationType()),
      subscriptions: rootFields(schema.getSubscriptionType()),
      types,
    },
  };
}
