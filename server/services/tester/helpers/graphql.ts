// graphql/introspect: the standard introspection query POSTed to an endpoint
// (the caller's headers, e.g. a token, sent along) under the outbound policy;
// the answer read by the project's GraphQL reader into the schema, its SDL and
// a summary for the explorer. An endpoint that refuses introspection or does
// not answer a schema is a 502 that says what came back.
import type { GraphqlIntrospectInput } from "@/server/contracts/tester-helpers";
import { GeneratorInputError } from "@/server/generators/input-error";
import { INTROSPECTION_QUERY, summariseIntrospection } from "@/server/tester/graphql-schema";
import { bodyText, external, headerEntries, sendOutbound } from "./outbound";

export async function introspectGraphql(input: GraphqlIntrospectInput, signal?: AbortSignal) {
  const given = headerEntries(input.headers);
  const own = [
    { key: "Content-Type", value: "application/json" },
    { key: "Accept", value: "application/graphql-response+json, application/json" },
  ].filter((h) => !given.some((g) => g.key.toLowerCase() === h.key.toLowerCase()));
  const res = await sendOutbound(
    { method: "POST", url: input.url, headers: [...own, ...given], body: JSON.stringify({ query: INTROSPECTION_QUERY, operationName: "IntrospectionQuery" }), timeoutMs: input.timeout, signal },
    "url",
  );
  const text = bodyText(res);
  let answer: { data?: { __schema?: unknown }; errors?: { message?: string }[] };
  try {
    answer = JSON.parse(text);
  } catch {
    throw external(`${new URL(input.url).host} answered ${res.status} with something that is not JSON, not a GraphQL result`);
  }
  if (!answer?.data?.__schema) {
    const why = answer?.errors?.map((e) => e.message).filter(Boolean).join("; ");
    throw external(`${new URL(input.url).host} answered ${res.status} without a schema${why ? `: ${why}` : ""} (is introspection disabled?)`);
  }
  try {
    return summariseIntrospection(answer);
  } catch (err) {
    if (err instanceof GeneratorInputError) throw external(`the introspection answer is not a valid schema: ${err.message}`);
    throw err;
  }
}
