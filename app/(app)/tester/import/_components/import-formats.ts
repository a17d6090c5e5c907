// Every import format of the spec's "API tester: tests, schedules, import,
// helpers" table, with the endpoint each calls: POST
// /api/v1/api-tester/import/<format>, the document as {data: "<text>"}, and
// ?preview=true for the wizard's preview step. The answer is the shared
// ImportResult (server/contracts/tester-import.ts); the Postman environment
// import answers an environment instead.
import type { EnvironmentImportResult, ImportResult } from "@/server/contracts/tester-import";

export interface ImportFormat {
  id: string;
  label: string;
  hint: string;
  /** File extensions the file picker offers. */
  accept: string;
  /** What the import creates. */
  creates: "collection" | "environment";
}

export const IMPORT_FORMATS: readonly ImportFormat[] = [
  { id: "postman", label: "Postman collection (v2.0 / v2.1)", hint: "A collection exported from Postman (Export → Collection v2.1).", accept: ".json", creates: "collection" },
  { id: "postman-env", label: "Postman environment", hint: "An environment exported from Postman; secret values are stored encrypted.", accept: ".json", creates: "environment" },
  { id: "openapi", label: "OpenAPI 2 / 3.0 / 3.1", hint: "A Swagger or OpenAPI document, JSON or YAML: one request per operation.", accept: ".json,.yaml,.yml", creates: "collection" },
  { id: "wsdl", label: "WSDL", hint: "A WSDL document: one SOAP request per operation.", accept: ".wsdl,.xml", creates: "collection" },
  { id: "grpc", label: "gRPC (.proto)", hint: "A .proto file; also registers it for the gRPC mock listener.", accept: ".proto", creates: "collection" },
  { id: "graphql", label: "GraphQL schema", hint: "SDL or an introspection result: one request per query and mutation.", accept: ".graphql,.gql,.json", creates: "collection" },
  { id: "mcp", label: "MCP server tools", hint: "The URL of a live MCP server (or its tools list): one request per tool.", accept: ".json,.txt", creates: "collection" },
  { id: "har", label: "HAR", hint: "A browser's HTTP archive: one request per entry.", accept: ".har,.json", creates: "collection" },
  { id: "soapui", label: "SoapUI project", hint: "A SoapUI project XML.", accept: ".xml", creates: "collection" },
  { id: "jmx", label: "JMeter plan (.jmx)", hint: "A JMeter test plan: its HTTP samplers as requests.", accept: ".jmx,.xml", creates: "collection" },
  { id: "mockarty", label: "Native collection", hint: "A collection exported from this tester (polymock-collection v1).", accept: ".json", creates: "collection" },
];

export function importFormat(id: string): ImportFormat {
  return IMPORT_FORMATS.find((f) => f.id === id) ?? IMPORT_FORMATS[0];
}

export function importUrl(format: string, namespace: string | undefined, preview: boolean): string {
  const q = new URLSearchParams();
  if (namespace) q.set("namespace", namespace);
  if (preview) q.set("preview", "true");
  return `/api/v1/api-tester/import/${encodeURIComponent(format)}?${q}`;
}

export type ImportAnswer = ImportResult | EnvironmentImportResult;

export const isEnvironmentAnswer = (a: ImportAnswer): a is EnvironmentImportResult => "environmentId" in a;
