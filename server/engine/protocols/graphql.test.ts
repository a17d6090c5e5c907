import { describe, expect, it } from "vitest";
import { MockInput, type MockDefinition } from "@/server/contracts/mock";
import { analyseGraphql, fieldRequestBody, fieldValueOf, nestingDepth, placeGraphql, readGraphqlRequest, type GraphqlRequest } from "./graphql";
import { GRAPHQL_DOCUMENT_CACHE, graphqlDocuments, parsedDocument } from "./graphql-documents";

const def = (input: unknown) => ({ ...MockInput.parse(input), id: "m", namespace: "ns" }) as MockDefinition;
const req = (query: string, variables: Record<string, unknown> = {}, operationName?: string): GraphqlRequest => ({ query, variables, operationName });

function analysed(r: GraphqlRequest) {
  const a = analyseGraphql(r);
  if (!a.ok) throw new Error(a.message);
  return a.value;
}

describe("placeGraphql", () => {
  it("places a field mock at /graphql (pathPrefix prepended) with the selector '<operation> <field>'", () => {
    expect(placeGraphql(def({ graphql: { field: "users" } }))).toMatchObject({ route: "/graphql", selector: "query users" });
    expect(placeGraphql(def({ pathPrefix: "/api", graphql: { operation: "mutation", field: "addUser", path: "/gql" } }))).toMatchObject({ route: "/api/gql", selector: "mutation addUser" });
    expect(placeGraphql(def({ graphql: { operation: "mutation" } }))).toMatchObject({ selector: "mutation *" });
  });
});

describe("readGraphqlRequest", () => {
  it("reads a JSON POST, an application/graphql body, and a GET with query parameters", () => {
    expect(readGraphqlRequest("POST", "application/json", JSON.stringify({ query: "{ a }", variables: { x: 1 }, operationName: "Q" }), {})).toEqual({ ok: true, value: { query: "{ a }", variables: { x: 1 }, operationName: "Q" } });
    expect(readGraphqlRequest("POST", "application/graphql", "{ a }", {})).toMatchObject({ ok: true, value: { query: "{ a }", variables: {} } });
    expect(readGraphqlRequest("GET", "", "", { query: ["{ a }"], variables: ['{"x":2}'] })).toMatchObject({ ok: true, value: { variables: { x: 2 } } });
  });

  it("refuses bodies that are not a GraphQL request", () => {
    expect(readGraphqlRequest("POST", "application/json", "{not json", {})).toMatchObject({ ok: false, code: "BAD_REQUEST" });
    expect(readGraphqlRequest("POST", "application/json", "[]", {})).toMatchObject({ ok: false, message: expect.stringMatching(/Batched/) });
    expect(readGraphqlRequest("POST", "application/json", '{"query": 5}', {})).toMatchObject({ ok: false });
    expect(readGraphqlRequest("POST", "application/json", '{"query": "{a}", "variables": [1]}', {})).toMatchObject({ ok: false });
    expect(readGraphqlRequest("GET", "", "", { query: ["{a}"], variables: ["{"] })).toMatchObject({ ok: false });
  });
});

describe("analyseGraphql", () => {
  it("finds the operation type and top-level fields, answering aliases under the alias", () => {
    const op = analysed(req("query Q($id: ID!) { u: user(id: $id) { name } posts(first: 2) { title } }", { id: "7" }));
    expect(op.operation).toBe("query");
    expect(op.fields).toEqual([
      { responseKey: "u", name: "user", args: { id: "7" } },
      { responseKey: "posts", name: "posts", args: { first: 2 } },
    ]);
  });

  it("follows fragments and inline fragments, honours @skip/@include, applies variable defaults", () => {
    const op = analysed(
      req("query ($flag: Boolean = true, $n: Int = 3) { ...Top ... on Query { b @include(if: $flag) } c @skip(if: true) } fragment Top on Query { a(n: $n) }", {}),
    );
    expect(op.fields.map((f) => f.responseKey)).toEqual(["a", "b"]);
    expect(op.fields[0].args).toEqual({ n: 3 });
    expect(op.variables).toEqual({ flag: true, n: 3 });
  });

  it("picks the named operation among several, and refuses ambiguity", () => {
    const doc = "query A { a } mutation B { b }";
    expect(analysed(req(doc, {}, "B"))).toMatchObject({ operation: "mutation", fields: [{ name: "b" }] });
    expect(analyseGraphql(req(doc))).toMatchObject({ ok: false, code: "GRAPHQL_VALIDATION_FAILED" });
    expect(analyseGraphql(req(doc, {}, "C"))).toMatchObject({ ok: false });
  });

  it("reports syntax errors, cyclic fragments and over-deep documents as request errors, never throws", () => {
    expect(analyseGraphql(req("{ users { "))).toMatchObject({ ok: false, code: "GRAPHQL_PARSE_FAILED", message: expect.stringMatching(/Syntax Error/) });
    expect(analyseGraphql(req("{ ...A } fragment A on Query { ...A }"))).toMatchObject({ ok: false, message: expect.stringMatching(/within itself/) });
    expect(analyseGraphql(req("{ a" + " { b".repeat(30_000) + " }".repeat(30_000) + " }"))).toMatchObject({ ok: false, code: "GRAPHQL_PARSE_FAILED" });
    expect(analyseGraphql(req("type Query { a: Int }"))).toMatchObject({ ok: false });
    expect(analyseGraphql(req("{ a(x: " + "[".repeat(5000) + "]".repeat(5000) + ") }"))).toMatchObject({ ok: false, message: expect.stringMatching(/nested deeper/) });
  });

  it("counts nesting outside strings, block strings and comments", () => {
    expect(nestingDepth('{ a(s: "{{{[[[", t: """ {{{ \\""" {{ """) # {{{{\n { b } }')).toBe(2);
  });

  it("gives each field its arguments over the request's variables", () => {
    const op = analysed(req("query ($id: ID, $tenant: String) { user(id: $id) { name } }", { id: 5, tenant: "acme" }));
    expect(fieldRequestBody(op, op.fields[0])).toEqual({ id: 5, tenant: "acme" });
    const inline = analysed(req('{ user(id: 9, filter: {role: "admin", tags: ["a"]}) { name } }'));
    expect(fieldRequestBody(inline, inline.fields[0])).toEqual({ id: 9, filter: { role: "admin", tags: ["a"] } });
  });
});

describe("parsed documents cache", () => {
  const limits = { maxTokens: 20_000, maxNesting: 128, nestingOf: nestingDepth };
  const documentOf = (query: string) => {
    const r = parsedDocument(query, limits);
    if (!r.ok) throw new Error(r.message);
    return r.value;
  };

  it("parses a query text once and resolves its selection once, whatever the variables", () => {
    graphqlDocuments.clear();
    const query = "query U($id: ID!, $n: Int = 2) { user(id: $id) { name } posts(first: 3, tags: [\"a\"]) { t } ...F } fragment F on Query { me { id } }";
    const first = analysed(req(query, { id: "7" }));
    const doc = documentOf(query);
    expect(documentOf(query)).toBe(doc);
    expect(doc.plans.size).toBe(1);
    const second = analysed(req(query, { id: "8", n: 5 }));
    expect(graphqlDocuments.size).toBe(1);
    expect(first.fields).toEqual([
      { responseKey: "user", name: "user", args: { id: "7" } },
      { responseKey: "posts", name: "posts", args: { first: 3, tags: ["a"] } },
      { responseKey: "me", name: "me", args: {} },
    ]);
    expect(first.variables).toEqual({ id: "7", n: 2 });
    expect(second.fields[0].args).toEqual({ id: "8" });
    expect(second.variables).toEqual({ id: "8", n: 5 });
    // Constant arguments are shared by every request of the document, so they are frozen.
    expect(Object.isFrozen(second.fields[1].args.tags)).toBe(true);
  });

  it("keeps the written order of arguments that mix variables and literals", () => {
    const op = analysed(req("query ($id: ID) { user(id: $id, first: 2, after: $id) { a } }", { id: 1 }));
    expect(Object.keys(op.fields[0].args)).toEqual(["id", "first", "after"]);
  });

  it("collects per request when @skip/@include read a variable", () => {
    const query = "query ($on: Boolean!) { a @include(if: $on) b @skip(if: $on) }";
    expect(analysed(req(query, { on: true })).fields.map((f) => f.name)).toEqual(["a"]);
    expect(analysed(req(query, { on: false })).fields.map((f) => f.name)).toEqual(["b"]);
    expect(analysed(req(query, { on: true })).fields.map((f) => f.name)).toEqual(["a"]);
  });

  it("answers a cached document's errors as before: unknown operation, cycles, type definitions", () => {
    const cyclic = "{ ...A } fragment A on Query { ...A }";
    for (let i = 0; i < 2; i++) {
      expect(analyseGraphql(req(cyclic))).toMatchObject({ ok: false, message: expect.stringMatching(/within itself/) });
      expect(analyseGraphql(req("query A { a }", {}, "B"))).toMatchObject({ ok: false, code: "GRAPHQL_VALIDATION_FAILED" });
      expect(analyseGraphql(req("type Query { a: Int }"))).toMatchObject({ ok: false, code: "GRAPHQL_VALIDATION_FAILED" });
    }
  });

  it("keeps only documents that parsed", () => {
    graphqlDocuments.clear();
    for (let i = 0; i < 3; i++) expect(analyseGraphql(req(`{ broken${i} { `))).toMatchObject({ ok: false, code: "GRAPHQL_PARSE_FAILED" });
    expect(analyseGraphql(req("{ a" + " { b".repeat(200) + " }".repeat(200) + " }"))).toMatchObject({ ok: false });
    expect(graphqlDocuments.size).toBe(0);
  });

  it("stays within its bounds whatever a client sends: entries, total text, entry size", () => {
    graphqlDocuments.clear();
    for (let i = 0; i < GRAPHQL_DOCUMENT_CACHE.maxEntries * 3; i++) analysed(req(`{ field${i} }`));
    expect(graphqlDocuments.size).toBe(GRAPHQL_DOCUMENT_CACHE.maxEntries);
    // The newest are kept, the oldest evicted.
    expect(documentOf(`{ field${GRAPHQL_DOCUMENT_CACHE.maxEntries * 3 - 1} }`).plans.size).toBe(1);
    expect(documentOf("{ field0 }").plans.size).toBe(0);

    graphqlDocuments.clear();
    const big = (i: number) => `{ f${i}(s: "${"x".repeat(GRAPHQL_DOCUMENT_CACHE.maxEntryChars - 40)}") }`;
    for (let i = 0; i < 100; i++) analysed(req(big(i)));
    expect(graphqlDocuments.chars).toBeLessThanOrEqual(GRAPHQL_DOCUMENT_CACHE.maxTotalChars);
    expect(graphqlDocuments.size).toBeLessThan(100);

    graphqlDocuments.clear();
    analysed(req(`{ f(s: "${"x".repeat(GRAPHQL_DOCUMENT_CACHE.maxEntryChars)}") }`));
    expect(graphqlDocuments.size).toBe(0);
  });

  it("moves a used document to the back of the queue", () => {
    graphqlDocuments.clear();
    analysed(req("{ kept }"));
    for (let i = 0; i < GRAPHQL_DOCUMENT_CACHE.maxEntries - 1; i++) analysed(req(`{ other${i} }`));
    analysed(req("{ kept }"));
    analysed(req("{ newcomer }"));
    expect(graphqlDocuments.size).toBe(GRAPHQL_DOCUMENT_CACHE.maxEntries);
    // "{ other0 }" was the least recently used, not "{ kept }".
    const kept = documentOf("{ kept }");
    expect(kept.plans.size).toBe(1);
  });
});

describe("fieldValueOf", () => {
  it("takes the bare value, an object keyed by the field, or a whole GraphQL response", () => {
    expect(fieldValueOf([1, 2], "users")).toEqual({ value: [1, 2], errors: [] });
    expect(fieldValueOf({ users: [1] }, "users")).toEqual({ value: [1], errors: [] });
    expect(fieldValueOf({ data: { users: [1] }, errors: [{ message: "partial" }] }, "users")).toEqual({ value: [1], errors: [{ message: "partial" }] });
    expect(fieldValueOf({ id: 1, name: "Ada" }, "user")).toEqual({ value: { id: 1, name: "Ada" }, errors: [] });
    expect(fieldValueOf('{"user": {"id": 1}}', "user")).toEqual({ value: { id: 1 }, errors: [] });
    expect(fieldValueOf(undefined, "user")).toEqual({ value: null, errors: [] });
  });
});
