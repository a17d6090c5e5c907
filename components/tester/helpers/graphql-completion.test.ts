// The GraphQL editor's completion: the fields that fit where the cursor is.
import { buildSchema, getIntrospectionQuery, graphqlSync } from "graphql";
import { describe, expect, it } from "vitest";
import { fieldQuery, graphqlSuggestions, schemaFromIntrospection } from "./graphql-completion";

const sdl = buildSchema(`
  type Query { book(id: ID!): Book, books: [Book!]! }
  type Mutation { addBook(title: String!): Book }
  type Book { id: ID!, title: String, author: Author }
  type Author { name: String, books: [Book] }
`);
const introspection = graphqlSync({ schema: sdl, source: getIntrospectionQuery() }).data as Record<string, unknown>;
const schema = schemaFromIntrospection(introspection)!;
const labels = (before: string) => graphqlSuggestions(schema, before).map((s) => s.label);

describe("graphqlSuggestions", () => {
  it.each([
    ["", ["query", "mutation", "subscription", "fragment"]],
    ["{ ", ["book", "books", "__typename"]],
    ["query Q { book(id: \"{x}\") { ", ["id", "title", "author", "__typename"]],
    ["{ book(id: 1) { author { ", ["name", "books", "__typename"]],
    ["{ book(id: 1) { author { name } ", ["id", "title", "author", "__typename"]],
    ["mutation { ", ["addBook", "__typename"]],
    ["{ books { ... on Author { ", ["name", "books", "__typename"]],
  ])("after %j suggests %j", (before, expected) => {
    expect(labels(before)).toEqual(expected);
  });

  it("gives field types as the detail", () => {
    expect(graphqlSuggestions(schema, "{ ").find((s) => s.label === "books")?.detail).toBe("[Book!]!");
  });
});

describe("fieldQuery", () => {
  it("writes a query with variables for the arguments and the scalar subfields", () => {
    expect(fieldQuery(schema, "query", "book")).toBe("query Book($id: ID!) {\n  book(id: $id) {\n    id\n    title\n  }\n}\n");
    expect(fieldQuery(schema, "query", "books")).toBe("query {\n  books {\n    id\n    title\n  }\n}\n");
  });
});
