// Imports from specifications and other tools' files into the API tester
// (OpenAPI, WSDL, GraphQL, MCP, HAR, SoapUI, JMeter). Same body, query and
// answer as every collection import (tester-import-endpoints.ts); a JMeter
// plan answers one collection per thread group in `collections`.
import { z } from "zod";
import { endpoint } from "./endpoint";
import { collectionImportEndpoint } from "./tester-import-endpoints";
import { ImportQuery, ImportResult } from "./tester-import";

export const JmxImportResult = ImportResult.extend({
  collections: z.array(ImportResult).describe("one per enabled thread group with HTTP requests, in plan order; the top-level fields are the first one's"),
});

export const testerImportFormatEndpoints = {
  openapi: collectionImportEndpoint("openapi", "an OpenAPI 3.0/3.1 or Swagger 2.0 document (JSON or YAML): a folder per tag, a request per operation, {{baseUrl}} from servers[0], security as auth"),
  wsdl: collectionImportEndpoint("wsdl", "a WSDL 1.1 document: a SOAP request per operation and port with a sample envelope and its SOAPAction"),
  graphql: collectionImportEndpoint("graphql", "a GraphQL schema (SDL text, or an introspection result as JSON; `url` beside {data} sets the graphqlUrl variable): a request per query and mutation with a selection set and example variables"),
  mcp: collectionImportEndpoint("mcp", "an MCP server's tools, prompts and resources: a tools/list result (or the three combined), or {\"url\": \"https://…\"} to read a live server (Streamable HTTP or HTTP+SSE, under the outbound policy): JSON-RPC calls, tools/call per tool with example arguments"),
  har: collectionImportEndpoint("har", "a HAR 1.2 recording: every HTTP(S) request in order, a folder per host"),
  soapui: collectionImportEndpoint("soapui", "a SoapUI project XML: a folder per interface and per test suite/test case, SOAP and REST requests with their bodies, headers and endpoints, project properties as variables"),
  jmx: endpoint({
    method: "POST",
    path: "/api/v1/api-tester/import/jmx",
    tag: "API tester: import",
    summary:
      "Import a JMeter test plan (.jmx) as collections, one per thread group: HTTP samplers become requests (with HTTP Request Defaults and Header Managers applied), User Defined Variables become variables, ${var} becomes {{var}}, Response Assertions become test scripts; elements without an equivalent are warnings. Body: the document itself, or JSON {data|content: \"<document>\", namespace?, name?}. With preview=true nothing is saved.",
    auth: "user",
    namespaced: "when-named",
    namespaceFallback: "or the wrapped body's `namespace`; default sandbox",
    permission: "write",
    query: ImportQuery,
    response: JmxImportResult,
    successStatus: 200,
    statuses: { 207: "some requests or folders could not be imported: the rest is saved" },
  }),
} as const;
