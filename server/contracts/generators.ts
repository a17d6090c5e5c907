// Generators: a contract (OpenAPI, …) in, mocks out. One request and one
// answer shape for every format; `/preview` answers what generating would do
// without saving. Rules: docs/decisions.md, "Generators".
import { z } from "zod";
import { endpoint } from "./endpoint";
import { MockId, MockInput } from "./mock";

export const GENERATOR_KINDS = ["openapi", "graphql", "soap", "grpc", "har", "socket", "mcp", "asyncapi"] as const;
export type GeneratorKind = (typeof GENERATOR_KINDS)[number];

export const GeneratorRequest = z
  .object({
    namespace: z.string().max(200).optional().describe("the namespace (also ?namespace=); default sandbox"),
    document: z
      .union([z.string().min(1), z.record(z.string(), z.unknown())])
      .optional()
      .describe("the document: its JSON or YAML text, or the JSON value itself"),
    url: z.string().max(2000).optional().describe("an http(s) URL to fetch the document from (the outbound policy applies); instead of document"),
    idPrefix: z.string().max(60).regex(/^[A-Za-z0-9._:-]+$/, "letters, digits, '.', '_', ':' and '-' only").optional().describe("mock ids start with this; default: from the document's title. Same document, same ids: generating again updates"),
    pathPrefix: z.string().max(500).optional(),
    serverName: z.string().max(200).optional(),
    tags: MockInput.shape.tags,
    folderId: z.string().uuid().nullable().optional(),
    mockIds: z.array(MockId).max(10_000).optional().describe("generate: only these of the preview's mocks (the others are skipped)"),
  })
  .strict()
  .superRefine((v, ctx) => {
    if ((v.document === undefined) === (v.url === undefined)) ctx.addIssue({ code: "custom", path: ["document"], message: "give the document or a url, one of the two" });
  });
export type GeneratorRequest = z.infer<typeof GeneratorRequest>;

export const GeneratorWarning = z.object({
  pointer: z.string().optional().describe("where in the document (JSON pointer)"),
  mockId: z.string().optional(),
  message: z.string(),
});

export const GeneratedMockView = z.object({
  id: z.string(),
  summary: z.string().describe('what it stands for, e.g. "GET /pets → 200 (example two), default"'),
  protocol: z.string(),
  status: z.enum(["new", "update", "unchanged", "skipped", "created", "updated"]).describe("preview: new, update or unchanged; generate: created, updated, unchanged or skipped (not in mockIds)"),
  mock: z.record(z.string(), z.unknown()).describe("the mock definition, as POST /api/v1/mocks takes it"),
});

export const GeneratorResponse = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int().describe("unchanged since the last run, or left out by mockIds"),
  warnings: z.array(GeneratorWarning),
  mocks: z.array(GeneratedMockView),
});
export type GeneratorResponse = z.infer<typeof GeneratorResponse>;

const tag = "Generators";
const STATUSES = { 413: "the fetched document is larger than the limit", 502: "the document's URL could not be fetched (unreachable, error status, too many redirects)" };

function pair(kind: GeneratorKind, what: string) {
  return {
    preview: endpoint({ method: "POST", path: `/api/v1/generators/${kind}/preview`, tag, summary: `Preview the mocks ${what} would give, without saving (400 with the line, column or JSON pointer of a document that cannot be read)`, auth: "user", namespaced: true, permission: "read", body: GeneratorRequest, response: GeneratorResponse, statuses: STATUSES }),
    generate: endpoint({ method: "POST", path: `/api/v1/generators/${kind}`, tag, summary: `Create or update the mocks ${what} gives, in one transaction (same document, same ids: a second run updates)`, auth: "user", namespaced: true, permission: "write", body: GeneratorRequest, response: GeneratorResponse, statuses: STATUSES }),
  };
}

export const generatorEndpoints = {
  openapi: pair("openapi", "an OpenAPI 3.0/3.1 or Swagger 2.0 document"),
  graphql: pair("graphql", "a GraphQL schema (SDL text, or an introspection result)"),
  soap: pair("soap", "a WSDL 1.1 document (its XML text) with inline XSD"),
  grpc: pair("grpc", 'one .proto text, or several files as {"files": [{"name", "content"}]} (the .proto files are stored in the namespace too)'),
  har: pair("har", "a HAR 1.2 recording (one HTTP mock per distinct request, replaying its recorded answer)"),
  socket: pair(
    "socket",
    "a socket document (JSON or YAML: {title?, servers?: [{name, protocol?: websocket|tcp|udp, events: [{event?, match?, conditions?, reply?, then?: [{reply, delay?}], delay?, priority?, name?}]}], events?: [{serverName, …the same}]}; a bare list is the events; one Socket mock per event)",
  ),
  mcp: pair("mcp", "an MCP server's tools, prompts and resources (a tools/list, prompts/list or resources/list result, combined or in a JSON-RPC response; or `url`: a live MCP server, listed over Streamable HTTP or HTTP+SSE)"),
  asyncapi: pair("asyncapi", "an AsyncAPI 2.x/3.0 document (Kafka, RabbitMQ and NATS channels)"),
} as const;
