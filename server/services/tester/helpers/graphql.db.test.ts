// graphql/introspect through its route handler against a real GraphQL
// endpoint (the `graphql` package's executor behind node:http, built from
// the bookstore SDL fixture): the introspection query is sent with the
// caller's headers, and the answer comes back as the schema, its SDL and a
// summary; an endpoint with introspection disabled is a 502 that says so.
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { buildSchema, graphql, NoSchemaIntrospectionCustomRule, specifiedRules, validate, parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as introspectRoute from "@/app/api/v1/api-tester/graphql/introspect/route";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "helpers-graphql";
let cookie: string;
let base: string;
const sdl = readFileSync(path.join(import.meta.dirname, "../../../generators/__fixtures__/bookstore.graphql"), "utf8");
const schema = buildSchema(sdl);
const auth: string[] = [];

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", async () => {
    auth.push(String(req.headers.authorization ?? ""));
    const { query, variables } = JSON.parse(Buffer.concat(chunks).toString() || "{}");
    res.setHeader("content-type", "application/json");
    if (req.url === "/closed") {
      const errors = validate(schema, parse(query), [...specifiedRules, NoSchemaIntrospectionCustomRule]);
      if (errors.length) return void res.writeHead(400).end(JSON.stringify({ errors: errors.map((e) => ({ message: e.message })) }));
    }
    res.end(JSON.stringify(await graphql({ schema, source: query, variableValues: variables })));
  });
});

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  cookie = await sessionCookie(o.user.id);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const introspect = (body: Record<string, unknown>) => call(introspectRoute.POST, "/api/v1/api-tester/graphql/introspect", { method: "POST", cookie, body: { namespace: NS, ...body } });

describe("POST /api/v1/api-tester/graphql/introspect", () => {
  it("answers the schema, its SDL and a summary of root fields and types, sending the caller's headers", async () => {
    const res = await introspect({ url: `${base}/graphql`, headers: { Authorization: "Bearer t0k" } });
    expect(res.status).toBe(200);
    expect(auth.at(-1)).toBe("Bearer t0k");
    expect(res.body.schema.__schema.queryType.name).toBe(schema.getQueryType()!.name);
    const queries = Object.keys(schema.getQueryType()!.getFields());
    expect(res.body.summary.queries.map((q: { name: string }) => q.name)).toEqual(queries);
    expect(res.body.summary.mutations.map((q: { name: string }) => q.name)).toEqual(Object.keys(schema.getMutationType()?.getFields() ?? {}));
    const first = schema.getQueryType()!.getFields()[queries[0]];
    expect(res.body.summary.queries[0]).toMatchObject({ name: first.name, type: String(first.type), args: first.args.map((a) => ({ name: a.name, type: String(a.type) })) });
    expect(res.body.summary.types.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(Object.keys(schema.getTypeMap()).filter((n) => !n.startsWith("__") && !["String", "Int", "Float", "Boolean", "ID"].includes(n))));
    // The SDL round-trips to the same schema.
    expect(Object.keys(buildSchema(res.body.sdl).getTypeMap()).sort()).toEqual(Object.keys(schema.getTypeMap()).sort());
  });

  it("answers 502 when introspection is disabled, naming the server's reason", async () => {
    const res = await introspect({ url: `${base}/closed` });
    expect(res.status).toBe(502);
    expect(res.body.error).toMatch(/introspection/i);
  });

  it("refuses the cloud-metadata address and private targets when OUTBOUND_ALLOW_PRIVATE=0", async () => {
    expect((await introspect({ url: "http://169.254.169.254/graphql" })).status).toBe(400);
    process.env.OUTBOUND_ALLOW_PRIVATE = "0";
    try {
      const res = await introspect({ url: `${base}/graphql` });
      expect(res.status).toBe(400);
      expect(res.body.details[0].field).toBe("url");
    } finally {
      delete process.env.OUTBOUND_ALLOW_PRIVATE;
    }
  });
});
