import { readFileSync } from "node:fs";
import path from "node:path";
import { buildSchema, introspectionFromSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { graphqlToMocks } from "./graphql";
import { GeneratorInputError } from "./input-error";

const SDL = readFileSync(path.join(__dirname, "__fixtures__", "bookstore.graphql"), "utf8");
const body = (m: { mock: unknown }) => (m.mock as { response: { payload: unknown } }).response.payload;

describe("graphqlToMocks", () => {
  it("one mock per Query, Mutation and Subscription field, each a valid mock answering a value of its type", async () => {
    const { mocks, warnings } = await graphqlToMocks(SDL);
    expect(warnings).toEqual([]);
    expect(mocks.map((m) => m.summary)).toEqual([
      "query book: Book",
      "query books: [Book!]!",
      "query search: [SearchResult!]!",
      "query node: Node",
      "query inStock: Boolean!",
      "mutation addBook: Book!",
      "mutation removeBook: Boolean!",
      "subscription bookAdded: Book!",
    ]);
    for (const m of mocks) expect(MockInput.safeParse(m.mock).success, m.mock.id).toBe(true);
    expect(mocks[0].mock).toMatchObject({ id: "graphql-query-book", graphql: { operation: "query", field: "book", type: "Book" } });
    const book = body(mocks[0]) as Record<string, any>;
    expect(book).toMatchObject({ id: "$.fake.UUID", title: "$.fake.Sentence", format: "HARDCOVER", price: "$.fake.Float", publishedAt: "$.fake.RFC3339" });
    expect(book.author).toMatchObject({ name: "$.fake.FullName", email: "$.fake.Email", books: [] });
    expect(book.reviews).toEqual([{ rating: "$.fake.Int", comment: "comment", createdAt: "$.fake.RFC3339" }]);
    // A union or interface answers its first member, with __typename.
    expect((body(mocks[2]) as object[])[0]).toMatchObject({ __typename: "Book" });
    expect(body(mocks[3])).toMatchObject({ __typename: "Author" });
    expect(body(mocks[4])).toBe(true);
  });

  it("reads an introspection result (bare or in data) like the SDL it came from", async () => {
    const introspection = introspectionFromSchema(buildSchema(SDL));
    const fromSdl = await graphqlToMocks(SDL);
    expect((await graphqlToMocks({ data: introspection })).mocks).toEqual(fromSdl.mocks);
    expect((await graphqlToMocks(introspection)).mocks).toEqual(fromSdl.mocks);
  });

  it("the options reach every mock; ids are stable", async () => {
    const { mocks } = await graphqlToMocks(SDL, { idPrefix: "shop", pathPrefix: "/api", tags: ["books"] });
    expect(mocks[0].mock).toMatchObject({ id: "shop-query-book", pathPrefix: "/api", tags: ["books"] });
  });

  it.each([
    ["type Query { book: Missing }", /Unknown type "Missing"/, {}],
    ["type Query {\n  book(: ID): Int\n}", /Syntax Error/, { line: 2, column: 8 }],
    ["scalar X", /no Query, Mutation or Subscription fields/, {}],
    [{ hello: 1 }, /not a GraphQL schema/, {}],
  ])("a schema it cannot read is a GeneratorInputError with where: %j", async (doc, message, location) => {
    const err = await graphqlToMocks(doc).catch((e) => e);
    expect(err).toBeInstanceOf(GeneratorInputError);
    expect(err.message).toMatch(message);
    expect(err.location).toMatchObject(location);
  });
});
