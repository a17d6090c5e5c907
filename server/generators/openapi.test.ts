import { readFileSync } from "node:fs";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import Ajv2020 from "ajv/dist/2020";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { MockInput } from "@/server/contracts/mock";
import { buildNamespace, handle } from "@/server/engine/engine";
import { memoryDeps } from "@/server/engine/testing";
import { parseDocumentText } from "./document-text";
import { GeneratorInputError } from "./input-error";
import { openapiToMocks, PREFER_HEADER } from "./openapi";

const mockOf = (m: { mock: unknown }) => m.mock as Obj;
const fixture = (name: string) => readFileSync(path.join(__dirname, "__fixtures__", name), "utf8");
type Obj = Record<string, any>;

async function generate(name: string) {
  const doc = parseDocumentText(fixture(name));
  return { doc: doc as Obj, result: await openapiToMocks(doc) };
}

/** Every operation × response of `doc` asked of the engine serving `mocks`; each answer checked against its response schema. */
async function driveEveryResponse(doc: Obj, mocks: { mock: Obj }[], ajv: Ajv) {
  const spec = (await SwaggerParser.dereference(structuredClone(doc) as never)) as unknown as Obj;
  const parsed = mocks.map((m, i) => ({ mock: { ...MockInput.parse(m.mock), id: m.mock.id, namespace: "ns" }, sequence: i, createdAt: 0 }));
  const ns = buildNamespace("ns", parsed);
  expect(ns.rejected).toEqual([]);
  const checked: string[] = [];
  for (const [p, item] of Object.entries<Obj>(spec.paths)) {
    for (const [method, op] of Object.entries<Obj>(item)) {
      if (!["get", "put", "post", "delete", "patch"].includes(method)) continue;
      const keys = Object.keys(op.responses);
      for (const key of keys) {
        if (key === "default" && keys.some((k) => k === "500")) continue;
        const status = key === "default" ? 500 : Number(key);
        const url = p.replace(/\{[^}]+\}/g, "7");
        const res = await handle(ns, { namespace: "ns", method: method.toUpperCase(), path: url, headers: { prefer: [`code=${status}`] }, query: {}, body: undefined }, memoryDeps());
        expect(res.matched, `${method} ${p} ${key}`).toBe(true);
        if (!res.matched) continue;
        expect(res.response.status, `${method} ${p} ${key}`).toBe(status);
        const schema = op.responses[key].content?.["application/json"]?.schema;
        if (schema) {
          // A string body goes out as is: what a client receives is that text.
          const body = typeof res.response.body === "string" ? JSON.parse(res.response.body) : res.response.body;
          const validate = ajv.compile(schema);
          expect(validate(body), `${method} ${p} ${key}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(body)}`).toBe(true);
        }
        checked.push(`${method} ${p} ${key}`);
      }
    }
  }
  return checked;
}

describe("openapiToMocks", () => {
  it("Petstore 3.0: a mock per operation and response; the first 2xx answers by default, others by Prefer: code=N", async () => {
    const { doc, result } = await generate("petstore-3.0.yaml");
    const operations = Object.values<Obj>(doc.paths).flatMap((item) => Object.keys(item).filter((k) => ["get", "put", "post", "delete"].includes(k)));
    const defaults = result.mocks.filter((m) => !mockOf(m).http?.header);
    expect(defaults).toHaveLength(operations.length);
    expect(result.mocks.map((m) => mockOf(m).http?.route)).toContain("/pet/:petId/uploadImage");
    const getPet = result.mocks.find((m) => m.mock.id.endsWith("getpetbyid-200"))!;
    expect(mockOf(getPet).http).toEqual({ route: "/pet/:petId", httpMethod: "GET" });
    expect(mockOf(getPet).response?.headers).toEqual({ "Content-Type": "application/json" });
    const notFound = result.mocks.find((m) => m.mock.id.endsWith("getpetbyid-404"))!;
    expect(mockOf(notFound).http?.header).toEqual([{ path: PREFER_HEADER, assertAction: "matches", value: "(^|[\\s,;])code=404($|[\\s,;])" }]);
    expect(mockOf(notFound).priority).toBe(1);
    expect(result.warnings).toEqual([]);
  });

  it("Petstore 3.0: every operation and response the engine serves validates against the document's schema", async () => {
    const { doc, result } = await generate("petstore-3.0.yaml");
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const checked = await driveEveryResponse(doc, result.mocks, ajv);
    expect(checked.length).toBe(result.mocks.length);
  });

  it("Petstore 3.1: named examples (the first by default, others by Prefer: example=name), a response example, realistic placeholders from formats", async () => {
    const { doc, result } = await generate("petstore-3.1.yaml");
    const list = result.mocks.filter((m) => mockOf(m).http?.route === "/pets" && mockOf(m).http.httpMethod === "GET");
    expect(list.map((m) => [m.mock.id, mockOf(m).response?.payload])).toEqual([
      ["swagger-petstore-listpets-200", [{ id: 1, name: "Rex", tag: "dog" }, { id: 2, name: "Tom", tag: null }]],
      ["swagger-petstore-listpets-200-empty", []],
      ["swagger-petstore-listpets-500", { code: "$.fake.Int", message: "string" }],
    ]);
    expect(mockOf(list[1]).http?.header).toEqual([{ path: PREFER_HEADER, assertAction: "matches", value: "(^|[\\s,;])example=empty($|[\\s,;])" }]);
    expect(mockOf(list[0]).response?.headers).toEqual({ "Content-Type": "application/json", "x-next": "string" });
    const created = result.mocks.find((m) => m.mock.id === "swagger-petstore-createpets-201")!;
    expect(mockOf(created).response?.payload).toEqual({ name: "Rex", tag: "string", id: "$.fake.Int", owner: { email: "$.fake.Email", since: "$.fake.RFC3339", ref: "$.fake.UUID" } });
    expect(mockOf(result.mocks.find((m) => m.mock.id === "swagger-petstore-createpets-422")!).response?.payload).toEqual({ code: 422, message: "name is required" });

    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    await driveEveryResponse(doc, result.mocks, ajv as unknown as Ajv);
    const ns = buildNamespace("ns", result.mocks.map((m, i) => ({ mock: { ...MockInput.parse(m.mock), id: m.mock.id, namespace: "ns" }, sequence: i, createdAt: 0 })));
    const empty = await handle(ns, { namespace: "ns", method: "GET", path: "/pets", headers: { prefer: ["example=empty"] }, query: {}, body: undefined }, memoryDeps());
    expect(empty.matched && empty.response.body).toEqual([]);
  });

  it("gives the same ids for the same document, so generating again updates the same mocks", async () => {
    const a = await generate("petstore-3.0.yaml");
    const b = await generate("petstore-3.0.yaml");
    expect(b.result.mocks.map((m) => m.mock.id)).toEqual(a.result.mocks.map((m) => m.mock.id));
    expect(new Set(a.result.mocks.map((m) => m.mock.id)).size).toBe(a.result.mocks.length);
  });

  it("Swagger 2.0: schema, examples by media type, produces, and the options (prefix, path prefix, server name, tags)", async () => {
    const doc = {
      swagger: "2.0",
      info: { title: "Orders", version: "1" },
      produces: ["application/json"],
      paths: {
        "/orders/{order-id}": {
          get: {
            operationId: "getOrder",
            parameters: [{ name: "order-id", in: "path", required: true, type: "string" }],
            responses: {
              200: { description: "ok", schema: { $ref: "#/definitions/Order" }, headers: { "X-Rate-Limit": { type: "string", default: "100" } } },
              404: { description: "missing", examples: { "application/json": { error: "no such order" } } },
            },
          },
        },
      },
      definitions: { Order: { type: "object", required: ["id"], properties: { id: { type: "string", format: "uuid" }, email: { type: "string" }, total: { type: "number", example: 9.5 } } } },
    };
    const result = await openapiToMocks(doc, { idPrefix: "o", pathPrefix: "/v2", serverName: "staging", tags: ["orders"] });
    expect(result.mocks.map((m) => m.mock)).toEqual([
      { id: "o-getorder-200", http: { route: "/orders/:order_id", httpMethod: "GET" }, response: { statusCode: 200, payload: { id: "$.fake.UUID", email: "$.fake.Email", total: 9.5 }, headers: { "Content-Type": "application/json", "X-Rate-Limit": "100" } }, pathPrefix: "/v2", serverName: "staging", tags: ["orders"] },
      {
        id: "o-getorder-404",
        http: { route: "/orders/:order_id", httpMethod: "GET", header: [{ path: PREFER_HEADER, assertAction: "matches", value: "(^|[\\s,;])code=404($|[\\s,;])" }] },
        response: { statusCode: 404, payload: { error: "no such order" }, headers: { "Content-Type": "application/json" } },
        priority: 1,
        pathPrefix: "/v2",
        serverName: "staging",
        tags: ["orders"],
      },
    ]);
    expect(result.warnings).toEqual([{ pointer: "/paths/~1orders~1{order-id}/get", message: 'path parameter "order-id" is "order_id" in the route ($.pathParam.order_id)' }]);
  });

  it.each([
    ["openapi: 3.0.0\ninfo: [unclosed\n", /invalid YAML/, { line: 3, column: 1 }],
    ['{"openapi": "3.0.0",\n "info": {"title": "x"]}', /invalid JSON/, { line: 2 }],
    ['{"openapi": "3.0.0", "info": {"title": "x", "version": "1"}}', /no paths/, { pointer: "/paths" }],
    ['{"openapi": 3.0, "paths": {}}', /must be a string/, { pointer: "/openapi" }],
    ["title: not an API\n", /neither an `openapi` nor a `swagger/, {}],
    ['{"openapi": "4.0.0", "paths": {}}', /OpenAPI 4.0.0 is not supported/, { pointer: "/openapi" }],
    ['{"openapi": "3.0.0", "info": {"title": "x", "version": "1"}, "paths": {}}', /no operations under paths/, { pointer: "/paths" }],
  ])("a malformed document is a GeneratorInputError with where: %s", async (text, message, location) => {
    const err = await (async () => openapiToMocks(parseDocumentText(text)))().catch((e) => e);
    expect(err).toBeInstanceOf(GeneratorInputError);
    expect(err.message).toMatch(message);
    expect(err.location).toMatchObject(location);
  });

  it("never follows a $ref out of the document (no file read, no fetch)", async () => {
    for (const ref of ["/etc/passwd", "http://169.254.169.254/latest/meta-data", "other.yaml#/Pet"]) {
      const doc = { openapi: "3.0.3", info: { title: "x", version: "1" }, paths: { "/a": { get: { responses: { 200: { description: "ok", content: { "application/json": { schema: { $ref: ref } } } } } } } } };
      const err = await openapiToMocks(doc).catch((e) => e);
      expect(err, ref).toBeInstanceOf(GeneratorInputError);
      expect(err.message).toMatch(/cannot resolve/);
    }
  });

  it("a document with mistakes still gives mocks, with the validator's findings as warnings", async () => {
    const doc = { openapi: "3.0.3", info: { title: "x" }, paths: { "/a": { get: { responses: { 200: { description: "ok", content: { "application/json": { example: { ok: true } } } } } } } } };
    const result = await openapiToMocks(doc);
    expect(result.mocks).toHaveLength(1);
    expect(result.warnings.length).toBeGreaterThan(0);
    expect(result.warnings[0].message).toMatch(/not valid OpenAPI/);
  });
});
