// The format imports through their route handlers against a real database:
// each format (OpenAPI, WSDL, GraphQL, MCP from a document and from a live
// MCP server built with the official SDK, HAR, SoapUI, JMeter, gRPC) saves a
// collection with the right counts; a malformed document is a 400 naming
// where and writes nothing; a preview writes nothing; a JMeter plan is saved
// whole or not at all. The MCP import is also run: its saved tools/call
// request, sent to the live server, gets the tool's answer.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import * as grpcRoute from "@/app/api/v1/api-tester/import/grpc/route";
import * as graphqlRoute from "@/app/api/v1/api-tester/import/graphql/route";
import * as harRoute from "@/app/api/v1/api-tester/import/har/route";
import * as jmxRoute from "@/app/api/v1/api-tester/import/jmx/route";
import * as mcpRoute from "@/app/api/v1/api-tester/import/mcp/route";
import * as openapiRoute from "@/app/api/v1/api-tester/import/openapi/route";
import * as soapuiRoute from "@/app/api/v1/api-tester/import/soapui/route";
import * as wsdlRoute from "@/app/api/v1/api-tester/import/wsdl/route";
import * as executeRoute from "@/app/api/v1/api-tester/requests/execute/route";
import { createCaller } from "@/server/api/root";
import type { TrpcContext } from "@/server/api/trpc";
import { db } from "@/server/db/client";
import { importFixture, generatorFixture } from "@/server/tester/import/test-helpers";
import { actorFor, call, makeNamespace, makeUser, sessionCookie } from "@/server/testing/fixtures";
import { useTestDatabase } from "@/server/testing/use-test-database";

useTestDatabase();

const NS = "format-imports";
let owner: string;
let outsider: string;
let ownerActor: ReturnType<typeof actorFor>;

type Route = { POST: Parameters<typeof call>[0] };
const post = (route: Route, format: string, opts: { body?: unknown; rawBody?: string; query?: string; cookie?: string; contentType?: string }) =>
  call(route.POST, `/api/v1/api-tester/import/${format}?${opts.query ?? `namespace=${NS}`}`, {
    method: "POST",
    body: opts.body,
    rawBody: opts.rawBody,
    headers: opts.rawBody !== undefined ? { "content-type": opts.contentType ?? "text/plain" } : undefined,
    cookie: opts.cookie ?? owner,
  });

const collectionCount = async () => db().testerCollection.count({ where: { namespace: { name: NS } } });
const rowsOf = async (id: string) => ({
  folders: await db().testerFolder.count({ where: { collectionId: id } }),
  requests: await db().testerRequest.findMany({ where: { collectionId: id }, orderBy: [{ folderId: "asc" }, { sortIndex: "asc" }] }),
});

function weatherServer(): McpServer {
  const server = new McpServer({ name: "Weather Desk", version: "1.0.0" });
  server.registerTool("get_weather", { description: "Weather for a city", inputSchema: { city: z.string() } }, async ({ city }) => ({ content: [{ type: "text", text: `rain in ${city}` }] }));
  server.registerTool("ping", { description: "Alive?", inputSchema: {} }, async () => ({ content: [{ type: "text", text: "pong" }] }));
  return server;
}
/** Streamable HTTP, stateless: a server per request. */
const live = http.createServer(async (req, res) => {
  if (req.url !== "/mcp") return void res.writeHead(404).end();
  const server = weatherServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => void transport.close().then(() => server.close()));
  await server.connect(transport);
  await transport.handleRequest(req, res);
});
let liveUrl: string;

beforeAll(async () => {
  const o = await makeUser({ namespaces: { [NS]: "owner" } });
  const x = await makeUser();
  await makeNamespace("format-elsewhere", { [x.user.id]: "owner" });
  owner = await sessionCookie(o.user.id);
  ownerActor = actorFor(o.user);
  outsider = await sessionCookie(x.user.id);
  await new Promise<void>((r) => live.listen(0, "127.0.0.1", r));
  liveUrl = `http://127.0.0.1:${(live.address() as AddressInfo).port}/mcp`;
});
afterAll(() => new Promise<void>((r) => live.close(() => r())));

const sampler = (i: number) => `<HTTPSamplerProxy testclass="HTTPSamplerProxy" testname="r${i}"><stringProp name="HTTPSampler.domain">a.example</stringProp><stringProp name="HTTPSampler.path">/${i}</stringProp></HTTPSamplerProxy><hashTree/>`;
const threadGroup = (name: string, n: number) => `<ThreadGroup testclass="ThreadGroup" testname="${name}"/><hashTree>${Array.from({ length: n }, (_, i) => sampler(i)).join("")}</hashTree>`;

describe("format imports", () => {
  it("OpenAPI: the Petstore as YAML in the body → 3 folders, 19 requests, baseUrl", async () => {
    const res = await post(openapiRoute, "openapi", { rawBody: generatorFixture("petstore-3.0.yaml"), contentType: "application/yaml" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Swagger Petstore - OpenAPI 3.0", source: "openapi", preview: false, imported: { folders: 3, requests: 19 }, requestsCount: 22, summary: { failedCount: 0 } });
    const rows = await rowsOf(res.body.collectionId);
    expect(rows).toMatchObject({ folders: 3 });
    expect(rows.requests).toHaveLength(19);
    expect(rows.requests.map((r) => r.url)).toContain("{{baseUrl}}/pet/{{petId}}");
    const collection = await db().testerCollection.findUniqueOrThrow({ where: { id: res.body.collectionId } });
    expect(JSON.stringify(collection.variables)).toContain("petstore3.swagger.io");
  });

  it("WSDL as {data} → a SOAP request per operation and port", async () => {
    const res = await post(wsdlRoute, "wsdl", { body: { data: generatorFixture("library.wsdl"), namespace: NS }, query: "" });
    expect(res.status).toBe(200);
    expect(res.body.imported.folders).toBe(2);
    const rows = await rowsOf(res.body.collectionId);
    expect(rows.requests.length).toBe(res.body.imported.requests);
    expect(rows.requests.every((r) => r.kind === "soap" && r.method === "POST")).toBe(true);
  });

  it("GraphQL SDL as {content} with the endpoint → GraphQL requests", async () => {
    const res = await post(graphqlRoute, "graphql", { body: { content: generatorFixture("bookstore.graphql"), url: "https://books.example/graphql" } });
    expect(res.status).toBe(200);
    const rows = await rowsOf(res.body.collectionId);
    expect(rows.requests.length).toBeGreaterThan(0);
    expect(rows.requests.every((r) => r.kind === "graphql")).toBe(true);
  });

  it("MCP from a live server (under the outbound policy); the imported tools/call request, sent, gets the tool's answer", async () => {
    const res = await post(mcpRoute, "mcp", { body: { url: liveUrl } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "Weather Desk", source: "mcp" });
    const rows = await rowsOf(res.body.collectionId);
    const call1 = rows.requests.find((r) => r.name === "get_weather")!;
    expect(call1).toBeDefined();
    const sent = await call(executeRoute.POST, `/api/v1/api-tester/requests/execute?namespace=${NS}`, { method: "POST", body: { requestId: call1.id, saveHistory: false }, cookie: owner });
    expect(sent.status).toBe(200);
    expect(sent.body.response.status).toBe(200);
    expect(sent.body.response.body).toContain("rain in");

    const metadata = await post(mcpRoute, "mcp", { body: { url: "http://169.254.169.254/mcp" } });
    expect(metadata.status).toBe(400);
    expect(metadata.body.details[0]).toMatchObject({ field: "url" });
  });

  it("MCP from a tools/list document", async () => {
    const res = await post(mcpRoute, "mcp", { body: { tools: [{ name: "echo", inputSchema: { type: "object", properties: { text: { type: "string" } } } }] } });
    expect(res.status).toBe(200);
    expect((await rowsOf(res.body.collectionId)).requests.map((r) => r.name)).toEqual(expect.arrayContaining(["initialize", "tools/list", "echo"]));
  });

  it("HAR → every recorded request", async () => {
    const har = generatorFixture("tasks-api.har");
    const res = await post(harRoute, "har", { rawBody: har, contentType: "application/json" });
    expect(res.status).toBe(200);
    expect(res.body.imported.requests).toBe(JSON.parse(har).log.entries.length);
  });

  it("SoapUI: the sample SOAP project → interface and test-suite folders, warnings for what has no equivalent", async () => {
    const res = await post(soapuiRoute, "soapui", { rawBody: importFixture("Sample-SOAP-Project-soapui-project.xml"), contentType: "application/xml" });
    expect(res.status).toBe(200);
    expect(res.body.imported.folders).toBe(1 + 3 + 9);
    expect(res.body.imported.variables).toBe(1);
    expect(res.body.warnings.map((w: { message: string }) => w.message).join("\n")).toMatch(/assertions not imported/);
    const rows = await rowsOf(res.body.collectionId);
    expect(rows.requests.length).toBe(res.body.imported.requests);
  });

  it("JMeter: a collection per thread group, listed in `collections`", async () => {
    const plan = importFixture("build-adv-web-test-plan.jmx");
    const res = await post(jmxRoute, "jmx", { rawBody: plan, contentType: "application/xml" });
    expect(res.status).toBe(200);
    expect(res.body.collections).toHaveLength(1);
    expect(res.body).toMatchObject({ collectionId: res.body.collections[0].collectionId, source: "jmx", imported: { requests: 3 } });

    const twoGroups = `<jmeterTestPlan><hashTree><TestPlan testclass="TestPlan" testname="Shop"/><hashTree>${threadGroup("Browse", 2)}${threadGroup("Second", 3)}</hashTree></hashTree></jmeterTestPlan>`;
    const two = await post(jmxRoute, "jmx", { rawBody: twoGroups, query: `namespace=${NS}&name=Plan` });
    expect(two.status, two.text).toBe(200);
    expect(two.body.collections.map((c: { name: string }) => c.name)).toEqual(["Plan / Browse", "Plan / Second"]);
    expect(two.body.collections.map((c: { imported: { requests: number } }) => c.imported.requests)).toEqual([2, 3]);
    for (const c of two.body.collections) expect(await db().testerCollection.count({ where: { id: c.collectionId } })).toBe(1);
  });

  it("JMeter: a plan one of whose thread groups cannot be saved writes no collection at all", async () => {
    const before = await collectionCount();
    const plan = `<jmeterTestPlan><hashTree><TestPlan testclass="TestPlan" testname="Big"/><hashTree>${threadGroup("small", 2)}${threadGroup("huge", 5001)}</hashTree></hashTree></jmeterTestPlan>`;
    const res = await post(jmxRoute, "jmx", { rawBody: plan });
    expect(res.status).toBe(400);
    expect(await collectionCount()).toBe(before);
  });

  it("gRPC: stores the .proto files (the existing answer) and creates a collection of the uploaded services", async () => {
    const files = [
      { name: "fleet/v1/common.proto", content: generatorFixture("fleet/v1/common.proto") },
      { name: "fleet/v1/tracker.proto", content: generatorFixture("fleet/v1/tracker.proto") },
    ];
    const res = await call(grpcRoute.POST, `/api/v1/api-tester/import/grpc?namespace=${NS}`, { method: "POST", body: { files }, cookie: owner });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ namespace: NS, count: 2, source: "grpc", imported: { folders: 1, requests: 4 } });
    expect(res.body.protos.map((p: { name: string }) => p.name)).toEqual(["fleet/v1/common.proto", "fleet/v1/tracker.proto"]);
    const rows = await rowsOf(res.body.collectionId);
    expect(rows.requests.map((r) => r.name)).toEqual(["GetVehicle", "WatchPositions", "RecordTrip", "Dispatch"]);

    const preview = await call(grpcRoute.POST, `/api/v1/api-tester/import/grpc?namespace=${NS}&preview=true`, { method: "POST", body: { name: "extra.proto", content: 'syntax = "proto3";\npackage extra;\nimport "fleet/v1/common.proto";\nservice Extra { rpc Ping(Ping) returns (Ping); }\nmessage Ping { string id = 1; }' }, cookie: owner });
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ preview: true, collectionId: null, count: 2, imported: { requests: 1 } });
    expect(await db().grpcProto.count({ where: { name: "extra.proto" } })).toBe(0);
  });

  it("a preview answers the tree and writes nothing", async () => {
    const before = await collectionCount();
    const res = await post(openapiRoute, "openapi", { rawBody: generatorFixture("petstore-3.0.yaml"), query: `namespace=${NS}&preview=true` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ preview: true, collectionId: null, imported: { requests: 19 } });
    expect(res.body.tree.map((n: { name: string }) => n.name)).toEqual(["pet", "store", "user"]);
    const jmx = await post(jmxRoute, "jmx", { body: { data: importFixture("build-webservice-test-plan.jmx"), preview: true } });
    expect(jmx.body).toMatchObject({ preview: true, collectionId: null, collections: [{ preview: true }] });
    expect(await collectionCount()).toBe(before);
  });

  it("malformed documents are a 400 naming where, and write nothing", async () => {
    const before = await collectionCount();
    const cases: [Route, string, string, Record<string, unknown>][] = [
      [openapiRoute, "openapi", "openapi: 3.0.3\ninfo: [\n", { line: expect.any(Number) }],
      [openapiRoute, "openapi", JSON.stringify({ openapi: "9.0.0", paths: {} }), { pointer: "/openapi" }],
      [wsdlRoute, "wsdl", "<definitions>\n<oops></definitions>", { line: 2 }],
      [graphqlRoute, "graphql", "type Query {\n  a:\n}", { line: 3, column: 1 }],
      [mcpRoute, "mcp", JSON.stringify({ tools: [{ inputSchema: {} }] }), { pointer: "/tools/0/name" }],
      [harRoute, "har", JSON.stringify({ log: { entries: [{ request: {} }] } }), { pointer: expect.stringContaining("/log/entries/0") }],
      [soapuiRoute, "soapui", '<con:soapui-project xmlns:con="http://eviware.com/soapui/config">\n  <con:interface>\n</con:soapui-project>', { line: expect.any(Number) }],
      [jmxRoute, "jmx", "<jmeterTestPlan>\n<hashTree>\n</jmeterTestPlan>", { line: expect.any(Number) }],
    ];
    for (const [route, format, doc, where] of cases) {
      const res = await post(route, format, { rawBody: doc });
      expect(res.status, `${format}: ${res.text}`).toBe(400);
      expect(res.body.code).toBe("validation");
      expect(res.body.details[0], format).toMatchObject({ location: "body", ...where });
    }
    const grpc = await call(grpcRoute.POST, `/api/v1/api-tester/import/grpc?namespace=${NS}`, { method: "POST", body: { name: "bad.proto", content: "syntax = \"proto3\";\nservice S { rpc X( }" }, cookie: owner });
    expect(grpc.status).toBe(400);
    expect(grpc.body.details[0]).toMatchObject({ file: "bad.proto", line: expect.any(Number) });
    expect(await collectionCount()).toBe(before);
  });

  it("a namespace the caller cannot read is 404", async () => {
    const res = await post(harRoute, "har", { body: { log: { entries: [] } }, cookie: outsider });
    expect(res.status).toBe(404);
  });

  it("tRPC: the import wizard's procedures call the same services", async () => {
    const trpc = createCaller({ actor: ownerActor, authError: null, ip: "127.0.0.1", userAgent: null, requestId: "test" } satisfies TrpcContext).apiTester.formatImports;
    const preview = await trpc.document({ namespace: NS, format: "soapui", document: importFixture("Sample-REST-Project-soapui-project.xml"), preview: true });
    expect(preview).toMatchObject({ preview: true, collectionId: null, source: "soapui", imported: { requests: 4 } });
    const saved = await trpc.document({ namespace: NS, format: "mcp", url: liveUrl, name: "Weather" });
    expect(saved).toMatchObject({ name: "Weather", preview: false });
    expect(await db().testerCollection.count({ where: { id: saved.collectionId! } })).toBe(1);
    const plan = await trpc.jmx({ namespace: NS, document: importFixture("build-webservice-test-plan.jmx") });
    expect(plan.collections).toHaveLength(1);
    await expect(trpc.document({ namespace: NS, format: "wsdl", document: "<oops>" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});
