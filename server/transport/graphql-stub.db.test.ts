// GraphQL mocks end to end with a real client (graphql-request) against the
// node:http fast path (handleStubRequest) on a real socket.
import { ClientError, GraphQLClient, gql } from "graphql-request";
import { describe, expect, it } from "vitest";
import { db } from "@/server/db/client";
import { invalidateAll } from "@/server/serving/mock-index";
import { createMockFromUndefinedRequest } from "@/server/services/undefined-requests";
import { useStubServer } from "@/server/testing/stub-server";
import { useTestDatabase } from "@/server/testing/use-test-database";
import { stubRecorder } from "@/server/serving/recorder";

useTestDatabase();

const stub = useStubServer("gql", { requestId: "gql-test-request" });

const client = (path = "/graphql") => new GraphQLClient(`${stub.base}${path}`);

/** The ClientError a rejected request ends with. */
async function failure(p: Promise<unknown>): Promise<ClientError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ClientError);
  return err as ClientError;
}

describe("GraphQL mocks with graphql-request", () => {
  it("answers a query's field from its mock, logs the hit and counts the use", async () => {
    const { mock } = await stub.save({ graphql: { operation: "query", field: "users" }, response: { payload: { users: [{ id: "1", name: "Ada" }] } } });
    const data = await client().request(gql`
      query AllUsers {
        users {
          id
          name
        }
      }
    `);
    expect(data).toEqual({ users: [{ id: "1", name: "Ada" }] });
    await stubRecorder().drain();
    const logs = await db().requestLog.findMany({ where: { mockId: mock.id } });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ method: "POST", url: "/graphql", status: 200 });
    expect(logs[0].body).toMatchObject({ operationName: "AllUsers" });
    expect((await db().mock.findFirstOrThrow({ where: { id: mock.id } })).useCounter).toBe(1);
  });

  it("conditions over variables (or inline arguments) choose among several mocks of one field", async () => {
    await stub.save({ graphql: { field: "user", conditions: [{ path: "$.id", assertAction: "equals", value: "1" }] }, response: { payload: { id: "1", name: "Ada" } } });
    await stub.save({ graphql: { field: "user", conditions: [{ path: "$.id", assertAction: "equals", value: "2" }] }, response: { payload: { id: "2", name: "Grace" } } });
    await stub.save({ graphql: { field: "user", conditions: [{ path: "$.filter.role", assertAction: "equals", value: "admin" }] }, response: { payload: { id: "0", name: "Root" } } });
    const byId = gql`
      query ($id: ID!) {
        user(id: $id) {
          id
          name
        }
      }
    `;
    expect(await client().request(byId, { id: "2" })).toEqual({ user: { id: "2", name: "Grace" } });
    expect(await client().request(byId, { id: "1" })).toEqual({ user: { id: "1", name: "Ada" } });
    expect(await client().request(`{ user(filter: { role: "admin" }) { name } }`)).toEqual({ user: { id: "0", name: "Root" } });
  });

  it("renders templates: $.req is the field's arguments over the variables; headers and fakes too", async () => {
    await stub.save({
      graphql: { operation: "mutation", field: "createOrder" },
      response: { payload: { id: "$.fake.UUID", item: "$.req.input.item", qty: "$.req.input.qty", tenant: "$.req.tenant", by: "{{$.reqHeader.x-user[0]}}", ns: "$.namespace" } },
    });
    const data = await new GraphQLClient(`${stub.base}/graphql`, { headers: { "X-User": "ada" } }).request<{ createOrder: Record<string, unknown> }>(
      gql`
        mutation Create($tenant: String, $qty: Int) {
          createOrder(input: { item: "book", qty: $qty }) {
            id
            item
          }
        }
      `,
      { tenant: "acme", qty: 3 },
    );
    expect(data.createOrder).toMatchObject({ item: "book", qty: 3, tenant: "acme", by: "ada", ns: "gql" });
    expect(data.createOrder.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("composes several top-level fields (aliases answered under the alias, __typename answered) into one data object", async () => {
    await stub.save({ graphql: { field: "stats" }, response: { payload: { data: { stats: { count: 2 } } } } });
    const data = await client().request(`{ first: user(id: "1") { name } second: user(id: "2") { name } stats { count } __typename }`);
    expect(data).toEqual({ first: { id: "1", name: "Ada" }, second: { id: "2", name: "Grace" }, stats: { count: 2 }, __typename: "Query" });
  });

  it("returns response.graphqlErrors in errors (with the data), and a mock's status", async () => {
    await stub.save({
      graphql: { operation: "mutation", field: "deleteUser" },
      response: { payload: null, graphqlErrors: [{ message: "User $.req.id is protected", extensions: { code: "FORBIDDEN" } }, "plain text error"] },
    });
    const raw = await new GraphQLClient(`${stub.base}/graphql`, { errorPolicy: "all" }).rawRequest<{ deleteUser: null }>(`mutation { deleteUser(id: "7") }`);
    expect(raw.status).toBe(200);
    expect(raw.data).toEqual({ deleteUser: null });
    expect(raw.errors).toEqual([
      { message: "User 7 is protected", extensions: { code: "FORBIDDEN" } },
      { message: "plain text error" },
    ]);
  });

  it("a mock without graphql.field answers every field of its operation, after the field's own mocks", async () => {
    await stub.save({ graphql: { operation: "subscription" }, response: { payload: { any: true } } });
    expect(await client().request(`subscription { anything }`)).toEqual({ anything: { any: true } });
  });

  it("an unmatched field is answered the GraphQL way (null data, NO_MOCK error with the nearest mocks) and captured as an undefined request", async () => {
    const err = await failure(client().request(`query Orders { orders { id } users { id } }`));
    expect(err.response.status).toBe(200);
    expect(err.response.data).toEqual({ orders: null, users: [{ id: "1", name: "Ada" }] });
    expect(err.response.errors).toHaveLength(1);
    expect(err.response.errors![0]).toMatchObject({
      message: "No mock matches query field 'orders' at /graphql in namespace 'gql'",
      path: ["orders"],
      extensions: { code: "NO_MOCK", request_id: "gql-test-request" },
    });
    expect((err.response.errors![0].extensions as { nearest: unknown[] }).nearest.length).toBeGreaterThan(0);
    await stubRecorder().drain();
    const captured = await db().undefinedRequest.findMany({ where: { protocol: "graphql" } });
    expect(captured).toHaveLength(1);
    expect(captured[0]).toMatchObject({ method: "POST", path: "/graphql query orders", count: 1 });
    expect(captured[0].body).toMatchObject({ operationName: "Orders" });

    // The captured miss becomes a GraphQL mock of that field.
    await createMockFromUndefinedRequest(stub.actor, stub.scope, captured[0].id, { response: { payload: [{ id: "o1" }] } });
    invalidateAll();
    expect(await client().request(`{ orders { id } }`)).toEqual({ orders: [{ id: "o1" }] });
  });

  it("duplicate detection: the same field, path and conditions is a duplicate; another field or path is not", async () => {
    const def = { graphql: { field: "dup", conditions: [{ path: "$.id", assertAction: "equals", value: 1 }] }, response: { payload: 1 } };
    await stub.save(def);
    await expect(stub.save({ ...def, response: { payload: 2 } })).rejects.toMatchObject({ code: "duplicate_entity" });
    await expect(stub.save({ ...def, graphql: { ...def.graphql, operation: "query" } })).rejects.toMatchObject({ code: "duplicate_entity" });
    await stub.save({ ...def, graphql: { ...def.graphql, field: "dup2" } });
    await stub.save({ ...def, graphql: { ...def.graphql, path: "/other" } });
    await stub.save({ ...def, graphql: { ...def.graphql, operation: "mutation" } });
  });

  it("serves graphql.path under pathPrefix; other paths are not GraphQL", async () => {
    await stub.save({ pathPrefix: "/api", graphql: { field: "version", path: "/v2/graphql" }, response: { payload: "2.0" } });
    expect(await client("/api/v2/graphql").request(`{ version }`)).toEqual({ version: "2.0" });
    // /graphql has no `version` mock: that is a GraphQL miss there.
    expect((await failure(client().request(`{ version }`))).response.errors![0].extensions).toMatchObject({ code: "NO_MOCK" });
  });

  it("a GraphQL-shaped request that no GraphQL mock answers goes on to the HTTP mocks of its path", async () => {
    await stub.save({ graphql: { field: "a", path: "/shared" }, response: { payload: 1 } });
    await stub.save({ http: { route: "/shared", httpMethod: "POST" }, response: { payload: { from: "http", q: "$.req.query" } } });
    await stub.save({ http: { route: "/rest", httpMethod: "POST" }, response: { payload: { from: "rest" } } });
    expect(await client("/shared").request(`{ a }`)).toEqual({ a: 1 });
    const viaHttp = await fetch(`${stub.base}/shared`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ b }" }) });
    expect(await viaHttp.json()).toEqual({ from: "http", q: "{ b }" });
    const rest = await fetch(`${stub.base}/rest`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "{ b }" }) });
    expect(await rest.json()).toEqual({ from: "rest" });
  });

  it("answers GET queries (and refuses a GET mutation)", async () => {
    const res = await fetch(`${stub.base}/graphql?query=${encodeURIComponent('query ($id: ID) { user(id: $id) { name } }')}&variables=${encodeURIComponent('{"id":"2"}')}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { user: { id: "2", name: "Grace" } } });
    const mutation = await fetch(`${stub.base}/graphql?query=${encodeURIComponent("mutation { deleteUser }")}`);
    expect(mutation.status).toBe(405);
  });

  it("bad requests get a 400 with GraphQL errors, never a 500", async () => {
    const syntax = await failure(client().request(`{ users { id `));
    expect(syntax.response.status).toBe(400);
    expect(syntax.response.errors![0]).toMatchObject({ message: expect.stringMatching(/^Syntax Error/), extensions: { code: "GRAPHQL_PARSE_FAILED" } });
    const post = (body: string, type = "application/json") => fetch(`${stub.base}/graphql`, { method: "POST", headers: { "content-type": type }, body });
    for (const body of ["{not json", "[]", '{"query": 42}', '{"variables": {}}', JSON.stringify({ query: "{ a" + " { b".repeat(300) + " }".repeat(300) + " }" })]) {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0].extensions.request_id).toBe("gql-test-request");
    }
    const named = await post(JSON.stringify({ query: "query A { a } query B { b }" }));
    expect(await named.json()).toMatchObject({ errors: [{ message: "Must provide operation name if query contains multiple operations" }] });
  });
});
