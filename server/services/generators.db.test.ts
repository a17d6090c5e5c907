// The OpenAPI generator's routes against a real database and the real stub
// server: preview saves nothing; generating creates the mocks, and every
// operation and response of the Petstore document, asked of /stubs over HTTP,
// answers what the document's schema describes; a second run updates instead
// of duplicating; documents that cannot be read, and URLs the outbound policy
// refuses, are 400s that say where.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import path from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { createClientAsync } from "soap";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as generateRoute from "@/app/api/v1/generators/openapi/route";
import * as previewRoute from "@/app/api/v1/generators/openapi/preview/route";
import * as graphqlRoute from "@/app/api/v1/generators/graphql/route";
import * as soapRoute from "@/app/api/v1/generators/soap/route";
import * as soapPreviewRoute from "@/app/api/v1/generators/soap/preview/route";
import { db } from "@/server/db/client";
import { invalidateAll } from "@/server/serving/mock-index";
import { call, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useStubServer } from "@/server/testing/stub-server";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();
const NS = "gen";
const stub = useStubServer(NS);
const PETSTORE = readFileSync(path.join(__dirname, "../generators/__fixtures__/petstore-3.0.yaml"), "utf8");
let cookie: string;
let strangerCookie: string;

beforeAll(async () => {
  cookie = await sessionCookie(stub.actor.user.id);
  strangerCookie = await sessionCookie((await makeUser()).user.id);
});

const preview = (body: unknown, c = cookie) => call(previewRoute.POST, `/api/v1/generators/openapi/preview?namespace=${NS}`, { method: "POST", cookie: c, body });
const generate = (body: unknown) => call(generateRoute.POST, `/api/v1/generators/openapi?namespace=${NS}`, { method: "POST", cookie, body });
const stored = () => db().mock.count({ where: { namespace: { name: NS }, deletedAt: null } });

describe("POST /api/v1/generators/openapi", () => {
  it("preview lists the mocks as new and saves nothing", async () => {
    const res = await preview({ document: PETSTORE });
    expect(res.status, res.text).toBe(200);
    expect(res.body.created).toBe(res.body.mocks.length);
    expect(res.body.mocks.every((m: { status: string }) => m.status === "new")).toBe(true);
    expect(res.body.mocks[0]).toMatchObject({ id: "swagger-petstore-openapi-3.0-updatepet-200", protocol: "http", summary: "PUT /pet → 200 (from the schema), default" });
    expect(await stored()).toBe(0);
  });

  it("generates the mocks, and every operation and response served over HTTP fits the document's schema", async () => {
    const res = await generate({ document: PETSTORE, pathPrefix: "/v3", tags: ["petstore"] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ updated: 0, skipped: 0, warnings: [] });
    expect(await stored()).toBe(res.body.created);
    invalidateAll();

    const spec = (await SwaggerParser.dereference(structuredClone((await import("yaml")).parse(PETSTORE)))) as any;
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    let checked = 0;
    for (const [p, item] of Object.entries<any>(spec.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        if (!["get", "put", "post", "delete"].includes(method)) continue;
        for (const key of Object.keys(op.responses)) {
          const status = key === "default" ? 500 : Number(key);
          const url = `${stub.base}/v3${p.replace(/\{[^}]+\}/g, "7")}`;
          const answer = await fetch(url, { method: method.toUpperCase(), headers: { Prefer: `code=${status}`, "content-type": "application/json" }, body: method === "get" || method === "delete" ? undefined : "{}" });
          const text = await answer.text();
          expect(answer.status, `${method} ${p} ${key}: ${text}`).toBe(status);
          const schema = op.responses[key].content?.["application/json"]?.schema;
          if (schema) {
            expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
            const validate = ajv.compile(schema);
            expect(validate(JSON.parse(text)), `${method} ${p} ${key}: ${JSON.stringify(validate.errors)} in ${text}`).toBe(true);
          }
          checked++;
        }
      }
    }
    expect(checked).toBe(res.body.created);
  });

  it("a second run of the same document changes nothing; a changed document updates just what changed", async () => {
    const again = await generate({ document: PETSTORE, pathPrefix: "/v3", tags: ["petstore"] });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ created: 0, updated: 0, skipped: again.body.mocks.length });
    const changed = PETSTORE.replace("description: Invalid ID supplied\n        '404':\n          description: Pet not found", "description: Invalid ID supplied\n        '404':\n          description: Pet not found\n          content:\n            application/json:\n              example: {code: 404, message: no such pet}");
    expect(changed).not.toBe(PETSTORE);
    const third = await generate({ document: changed, pathPrefix: "/v3", tags: ["petstore"] });
    expect(third.body.updated).toBe(1);
    const updated = third.body.mocks.find((m: { status: string }) => m.status === "updated");
    expect(updated.id).toMatch(/-404$/);
    invalidateAll();
    const notFound = await fetch(`${stub.base}/v3${updated.mock.http.route.replace(":petId", "1")}`, { method: updated.mock.http.httpMethod, headers: { Prefer: "code=404" } });
    expect(await notFound.json()).toEqual({ code: 404, message: "no such pet" });
  });

  it("mockIds creates only the chosen mocks; an id the document does not give is a 400", async () => {
    const doc = { openapi: "3.0.3", info: { title: "Pick", version: "1" }, paths: { "/a": { get: { responses: { 200: { description: "ok", content: { "application/json": { example: { a: 1 } } } } } } }, "/b": { get: { responses: { 200: { description: "ok" } } } } } };
    const res = await generate({ document: doc, mockIds: ["pick-get-a-200"] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 1, skipped: 1 });
    expect(res.body.mocks.map((m: { id: string; status: string }) => [m.id, m.status])).toEqual([
      ["pick-get-a-200", "created"],
      ["pick-get-b-200", "skipped"],
    ]);
    const bad = await generate({ document: doc, mockIds: ["nope"] });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe("mockIds");
  });

  it.each([
    [{ document: "openapi: 3.0.0\ninfo: [unclosed\n" }, "document", { line: 3, column: 1 }],
    [{ document: { openapi: "3.0.3", info: { title: "x", version: "1" }, paths: { "/a": { get: { responses: { 200: { description: "ok", content: { "application/json": { schema: { $ref: "/etc/passwd" } } } } } } } } } }, "document", { pointer: "/paths/~1a/get/responses/200/content/application~1json/schema" }],
    [{ document: "just text" }, "document", {}],
    [{ url: "http://169.254.169.254/openapi.json" }, "url", {}],
    [{ url: "file:///etc/passwd" }, "url", {}],
    [{}, "document", {}],
  ])("a document it cannot read is a 400 that says where: %j", async (body, field, where) => {
    const res = await preview(body);
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe("validation");
    expect(res.body.details[0]).toMatchObject({ field, ...where });
  });

  it("fetches the document from a URL (redirects followed), and a failing URL is a 502", async () => {
    const server = http.createServer((req, res) => {
      if (req.url === "/moved") res.writeHead(302, { location: "/openapi.yaml" }).end();
      else if (req.url === "/openapi.yaml") res.writeHead(200, { "content-type": "application/yaml" }).end(PETSTORE);
      else res.writeHead(500).end("boom");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ok = await preview({ url: `${origin}/moved` });
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.mocks.length).toBeGreaterThan(10);
      const failing = await preview({ url: `${origin}/broken` });
      expect(failing.status).toBe(502);
      expect(failing.body.error).toMatch(/answered 500/);
    } finally {
      server.close();
    }
  });

  it("a namespace the caller cannot read is a 404", async () => {
    const res = await preview({ document: PETSTORE }, strangerCookie);
    expect(res.status).toBe(404);
  });
});

describe("POST /api/v1/generators/graphql", () => {
  const SDL = readFileSync(path.join(__dirname, "../generators/__fixtures__/bookstore.graphql"), "utf8");
  const graphql = (body: unknown) => call(graphqlRoute.POST, `/api/v1/generators/graphql?namespace=${NS}`, { method: "POST", cookie, body });

  it("generates a mock per root field from SDL; the GraphQL stub answers a nested query with the schema's shape", async () => {
    const res = await graphql({ document: SDL, pathPrefix: "/shop" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.created).toBe(8);
    invalidateAll();
    const answer = await fetch(`${stub.base}/shop/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: "query { book(id: 1) { title format author { name } } inStock }" }) });
    expect(answer.status).toBe(200);
    const { data } = await answer.json();
    expect(data.inStock).toBe(true);
    expect(data.book.format).toBe("HARDCOVER");
    expect(typeof data.book.title).toBe("string");
    expect(data.book.title).not.toMatch(/^\$\.fake/);
    expect(data.book.author.name).toMatch(/\S+ \S+/);
  });

  it("an SDL syntax error is a 400 with its line and column", async () => {
    const res = await graphql({ document: "type Query {\n  book(: ID): Int\n}" });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ field: "document", line: 2, column: 8 });
  });
});

describe("POST /api/v1/generators/soap", () => {
  const WSDL_PATH = path.join(__dirname, "../generators/__fixtures__/library.wsdl");
  const WSDL = readFileSync(WSDL_PATH, "utf8");
  const soapGenerate = (body: unknown) => call(soapRoute.POST, `/api/v1/generators/soap?namespace=${NS}`, { method: "POST", cookie, body });
  const soapPreview = (body: unknown) => call(soapPreviewRoute.POST, `/api/v1/generators/soap/preview?namespace=${NS}`, { method: "POST", cookie, body });
  const endpoint = () => `${stub.base}/ws/services/library.asmx`;

  it("generates a mock per operation and fault; a real SOAP client (1.1 and 1.2) gets answers of the WSDL's shape", async () => {
    const res = await soapGenerate({ document: WSDL, pathPrefix: "/ws" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ created: 5, updated: 0, warnings: [] });
    expect(res.body.mocks.every((m: { protocol: string }) => m.protocol === "soap")).toBe(true);
    invalidateAll();

    for (const forceSoap12Headers of [false, true]) {
      const client = await createClientAsync(WSDL_PATH, { endpoint: endpoint(), forceSoap12Headers });
      const [result, raw] = await client.GetBookAsync({ Isbn: "9780000000001" });
      expect(raw).toContain(forceSoap12Headers ? "http://www.w3.org/2003/05/soap-envelope" : "http://schemas.xmlsoap.org/soap/envelope/");
      const book = result.GetBookResult;
      expect(book.attributes.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
      // The client reads the WSDL too: maxOccurs="unbounded" elements come back as lists.
      expect(book).toMatchObject({ Title: "Title", Format: "Hardcover", Isbn: "Isbnxxxxxxxxx", Authors: { Author: [{ Name: "Name" }] } });
      expect(String(book.Price)).toMatch(/^\d+(\.\d+)?$/);
      // The client parses xs:dateTime into a Date: the placeholder became a real one.
      expect(book.PublishedAt).toBeInstanceOf(Date);
      expect(Number.isNaN(book.PublishedAt.getTime())).toBe(false);
      expect(book.Authors.Author[0].Email).toMatch(/@/);
      const [search] = await client.SearchBooksAsync({ Query: "dune" });
      expect(Number(search.Total)).toBeGreaterThanOrEqual(0);
      expect(search.SearchBooksResult.Book).toEqual([expect.objectContaining({ Format: "Hardcover" })]);
    }
  });

  it("Prefer: fault=<name> answers the declared fault; a one-way operation answers 202", async () => {
    const client = await createClientAsync(WSDL_PATH, { endpoint: endpoint() });
    const err = await client.GetBookAsync({ Isbn: "9780000000001" }, {}, { Prefer: "fault=BookNotFound" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    const fault = (err as { root: any }).root.Envelope.Body.Fault;
    expect(fault).toMatchObject({ faultstring: "BookNotFound", detail: { BookNotFound: { Reason: "Reason" } } });
    expect((err as { response: { status: number } }).response.status).toBe(500);
    const oneWay = await fetch(endpoint(), { method: "POST", headers: { "content-type": "text/xml", SOAPAction: '"http://example.com/library/ReturnBook"' }, body: '<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body><ReturnBook xmlns="http://example.com/library"><LoanId>x</LoanId></ReturnBook></s:Body></s:Envelope>' });
    expect(oneWay.status).toBe(202);
  });

  it("a second run changes nothing; a WSDL it cannot read is a 400 with its line and column", async () => {
    const again = await soapPreview({ document: WSDL, pathPrefix: "/ws" });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ created: 0, updated: 0, skipped: 5 });
    const broken = await soapPreview({ document: WSDL.replace('<wsdl:port name="LibrarySoap" binding="tns:LibrarySoap">', '<wsdl:port name="LibrarySoap" binding="tns:Missing">') });
    expect(broken.status).toBe(400);
    expect(broken.body.details[0]).toMatchObject({ field: "document", line: 207, column: 5 });
    const json = await soapPreview({ document: { definitions: {} } });
    expect(json.status).toBe(400);
    expect(json.body.error).toMatch(/a WSDL is XML/);
  });
});

afterAll(() => invalidateAll());
