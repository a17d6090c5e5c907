// GraphQL schema → collection on the bookstore schema (SDL) and its introspection result.
import { buildSchema, graphqlSync, getIntrospectionQuery, parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { graphqlToCollection } from "./graphql";
import { generatorFixture, requestsOf } from "./test-helpers";

const SDL = generatorFixture("bookstore.graphql");

describe("graphqlToCollection", () => {
  it("gives a GraphQL request per query and mutation whose operation validates against the schema", () => {
    const { document, warnings } = graphqlToCollection(SDL, { url: "https://books.example/graphql" });
    const schema = buildSchema(SDL);
    expect(document.items.map((i) => i.name)).toEqual(expect.arrayContaining(["Queries"]));
    const requests = requestsOf(document.items);
    expect(requests.length).toBe(Object.keys(schema.getQueryType()!.getFields()).length + Object.keys(schema.getMutationType()?.getFields() ?? {}).length);
    for (const r of requests) {
      expect(r.request).toMatchObject({ kind: "graphql", method: "POST", url: "{{graphqlUrl}}", body: { mode: "graphql" } });
      const errors = validate(schema, parse(r.request.body.graphql!.query));
      expect(errors.map((e) => e.message), r.name).toEqual([]);
      expect(typeof JSON.parse(r.request.body.graphql!.variables as string)).toBe("object");
    }
    expect(document.collection.variables).toContainEqual(expect.objectContaining({ key: "graphqlUrl", value: "https://books.example/graphql" }));
    if (schema.getSubscriptionType()) expect(warnings.map((w) => w.message).join()).toMatch(/subscription/);
  });

  it("reads an introspection result the same way", () => {
    const introspection = graphqlSync({ schema: buildSchema(SDL), source: getIntrospectionQuery() });
    const fromSdl = requestsOf(graphqlToCollection(SDL).document.items).map((r) => r.request.body.graphql!.query);
    const fromJson = requestsOf(graphqlToCollection(introspection).document.items).map((r) => r.request.body.graphql!.query);
    expect(fromJson).toEqual(fromSdl);
  });

  it("refuses an invalid schema with the line and column", () => {
    expect(() => graphqlToCollection("type Query {\n  a: \n}")).toThrow(expect.objectContaining({ location: { line: 3, column: 1 } }));
  });
});
