// The API tester's protocol helpers: one-off proxied calls (HTTP, SOAP, gRPC)
// and the discovery calls the request editor's panels use (GraphQL
// introspection, gRPC server reflection, WSDL operations, an MCP server's
// tools and resources). Every target obeys the outbound policy; a refused
// target is a 400 naming the field, an unreachable or failing one a 502.
import { z } from "zod";
import { endpoint } from "./endpoint";
import { ExecutedResponse } from "./tester-execution";

const HeaderList = z.array(z.object({ key: z.string().min(1).max(1024), value: z.string().max(64 * 1024) }));
export const HelperHeaders = z
  .union([z.record(z.string().min(1).max(1024), z.string().max(64 * 1024)), HeaderList])
  .default({})
  .describe("an object of names to values, or a list of {key, value} (repeated names kept)");
export type HelperHeaders = z.infer<typeof HelperHeaders>;

const Url = z.string().min(1).max(8192).describe("absolute http(s) URL; checked against the outbound policy before connecting and after every redirect");
const Timeout = z.number().int().min(1).max(300_000).default(30_000).describe("milliseconds for the whole call");

// ---------------------------------------------------------------- proxy/http

export const ProxyHttpInput = z
  .object({
    method: z.string().regex(/^[A-Za-z]{1,20}$/, "an HTTP method name").default("GET"),
    url: Url,
    headers: HelperHeaders,
    body: z.string().max(10 * 1024 * 1024).optional().describe("sent as is (text)"),
    timeout: Timeout,
    followRedirects: z.boolean().default(true),
    verifyTls: z.boolean().default(true),
    namespace: z.string().max(63).optional(),
  })
  .strict();
export type ProxyHttpInput = z.infer<typeof ProxyHttpInput>;
export const ProxyHttpResult = ExecutedResponse;

// ---------------------------------------------------------------- proxy/soap

export const SoapFault = z.object({
  code: z.string().describe("faultcode (1.1) or Code/Value (1.2)"),
  string: z.string().describe("faultstring (1.1) or Reason/Text (1.2)"),
  actor: z.string().optional(),
  detail: z.unknown().optional(),
});

export const ProxySoapInput = z
  .object({
    url: Url.optional().describe("the endpoint; default: the WSDL port's soap:address"),
    soapVersion: z.enum(["1.1", "1.2"]).optional().describe("default: the WSDL operation's, else 1.1"),
    action: z.string().max(2048).optional().describe("SOAPAction; default: the WSDL operation's"),
    envelope: z.string().max(10 * 1024 * 1024).optional().describe("the whole SOAP envelope to send"),
    wsdl: z.string().max(10 * 1024 * 1024).optional().describe("WSDL text or URL, to build the envelope from `operation` and `params`"),
    operation: z.string().max(512).optional().describe("the WSDL operation (name, or service.port.name when names repeat)"),
    params: z.record(z.string(), z.unknown()).optional().describe("values that replace the sample envelope's elements of the same name"),
    headers: HelperHeaders,
    timeout: Timeout,
    namespace: z.string().max(63).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.envelope && !(v.wsdl && v.operation)) ctx.addIssue({ code: "custom", path: ["envelope"], message: "give envelope, or wsdl and operation" });
    if (v.envelope && v.wsdl) ctx.addIssue({ code: "custom", path: ["wsdl"], message: "give envelope or wsdl, not both" });
    if (v.envelope && !v.url) ctx.addIssue({ code: "custom", path: ["url"], message: "required with envelope" });
  });
export type ProxySoapInput = z.infer<typeof ProxySoapInput>;

export const ProxySoapResult = z.object({
  status: z.number().int(),
  headers: ExecutedResponse.shape.headers,
  soapVersion: z.enum(["1.1", "1.2"]),
  request: z.object({ url: z.string(), action: z.string().optional(), envelope: z.string() }).describe("what was sent"),
  body: z.string().describe("the raw answer"),
  parsed: z.unknown().optional().describe("the Body's content as JSON (absent when the answer is not a SOAP envelope)"),
  fault: SoapFault.optional().describe("present when the answer is a SOAP Fault"),
  timings: ExecutedResponse.shape.timings,
});

// ---------------------------------------------------------------- gRPC

const GrpcTarget = {
  target: z
    .string()
    .min(3)
    .max(300)
    .regex(/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/, "host:port")
    .describe("host:port of the gRPC server"),
  tls: z.boolean().default(false),
  verifyTls: z.boolean().default(true),
  metadata: z.record(z.string().min(1).max(256), z.string().max(8192)).default({}),
  timeout: Timeout,
  namespace: z.string().max(63).optional(),
};

export const GrpcDiscoverInput = z.object({ ...GrpcTarget }).strict();
export type GrpcDiscoverInput = z.infer<typeof GrpcDiscoverInput>;

export const GrpcMethodInfo = z.object({
  name: z.string(),
  kind: z.enum(["unary", "server-stream", "client-stream", "bidirectional"]),
  requestType: z.string(),
  responseType: z.string(),
  requestStream: z.boolean(),
  responseStream: z.boolean(),
  inputSkeleton: z.unknown().describe("a JSON message of the input type with every field (placeholders)"),
});
export const GrpcDiscoverResult = z.object({
  reflection: z.enum(["v1", "v1alpha"]).describe("the reflection API version the server answered"),
  services: z.array(z.object({ name: z.string(), methods: z.array(GrpcMethodInfo) })),
});

export const ProxyGrpcInput = z
  .object({
    ...GrpcTarget,
    service: z.string().min(1).max(512).describe("fully qualified, e.g. shop.Orders"),
    method: z.string().min(1).max(256),
    message: z.unknown().optional().describe("the request message as JSON (unary and server-streaming)"),
    messages: z.array(z.unknown()).max(10_000).optional().describe("client- and bidirectional streaming: the messages to send, in order"),
    protoIds: z.array(z.string().uuid()).max(100).optional().describe("type the call with these uploaded .proto files of the namespace (their imports come along); absent: server reflection"),
  })
  .strict();
export type ProxyGrpcInput = z.infer<typeof ProxyGrpcInput>;

export const ProxyGrpcResult = z.object({
  ok: z.boolean().describe("status code 0"),
  code: z.number().int().describe("gRPC status code"),
  codeName: z.string().describe("OK, NOT_FOUND, …"),
  details: z.string(),
  kind: GrpcMethodInfo.shape.kind,
  responses: z.array(z.unknown()).describe("the messages received, as JSON (one for unary and client-streaming calls)"),
  headers: z.record(z.string(), z.string()).describe("response metadata"),
  trailers: z.record(z.string(), z.string()),
  source: z.enum(["protos", "reflection"]),
  durationMs: z.number(),
});

// ---------------------------------------------------------------- GraphQL

export const GraphqlIntrospectInput = z.object({ url: Url, headers: HelperHeaders, timeout: Timeout, namespace: z.string().max(63).optional() }).strict();
export type GraphqlIntrospectInput = z.infer<typeof GraphqlIntrospectInput>;

const FieldSummary = z.object({ name: z.string(), type: z.string(), args: z.array(z.object({ name: z.string(), type: z.string() })), description: z.string().optional() });
export const GraphqlIntrospectResult = z.object({
  schema: z.record(z.string(), z.unknown()).describe("the introspection result ({__schema: …})"),
  sdl: z.string().describe("the schema as SDL"),
  summary: z.object({
    queryType: z.string().nullable(),
    mutationType: z.string().nullable(),
    subscriptionType: z.string().nullable(),
    queries: z.array(FieldSummary),
    mutations: z.array(FieldSummary),
    subscriptions: z.array(FieldSummary),
    types: z.array(z.object({ name: z.string(), kind: z.string(), fields: z.array(z.string()).optional() })).describe("named types, built-ins and __ types left out"),
  }),
});

// ---------------------------------------------------------------- SOAP operations

export const SoapOperationsInput = z
  .object({
    wsdl: z.string().max(10 * 1024 * 1024).optional().describe("WSDL text"),
    url: Url.optional().describe("where to fetch the WSDL"),
    namespace: z.string().max(63).optional(),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (!v.wsdl === !v.url) ctx.addIssue({ code: "custom", path: ["wsdl"], message: "give wsdl (text) or url, one of them" });
  });
export type SoapOperationsInput = z.infer<typeof SoapOperationsInput>;

export const SoapOperation = z.object({
  id: z.string().describe("service.port.operation"),
  service: z.string(),
  port: z.string(),
  name: z.string(),
  soapVersion: z.enum(["1.1", "1.2"]),
  style: z.enum(["document", "rpc"]),
  action: z.string().optional(),
  address: z.string().optional().describe("the port's soap:address location"),
  sampleEnvelope: z.string(),
});
export const SoapOperationsResult = z.object({
  name: z.string().optional(),
  services: z.array(z.object({ name: z.string(), ports: z.array(z.object({ name: z.string(), soapVersion: z.enum(["1.1", "1.2"]), address: z.string().optional(), operations: z.array(z.string()) })) })),
  operations: z.array(SoapOperation),
  warnings: z.array(z.object({ pointer: z.string(), message: z.string() })),
});

// ---------------------------------------------------------------- MCP

const McpTarget = { url: Url, headers: HelperHeaders, timeout: Timeout.default(15_000), namespace: z.string().max(63).optional() };
export const McpConnectInput = z.object(McpTarget).strict();
export type McpConnectInput = z.infer<typeof McpConnectInput>;
export const McpConnectResult = z.object({
  transport: z.enum(["streamable-http", "sse"]),
  serverInfo: z.object({ name: z.string(), version: z.string().optional(), title: z.string().optional() }).nullable(),
  capabilities: z.record(z.string(), z.unknown()),
  instructions: z.string().optional(),
});

export const McpToolsListInput = McpConnectInput;
const Meta = z.record(z.string(), z.unknown());
export const McpTool = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: Meta.describe("JSON Schema of the arguments"),
  outputSchema: Meta.optional(),
  annotations: Meta.optional(),
  _meta: Meta.optional(),
});
export const McpToolsListResult = z.object({ tools: z.array(McpTool) });

export const McpToolsCallInput = z.object({ ...McpTarget, name: z.string().min(1).max(512), arguments: z.record(z.string(), z.unknown()).default({}) }).strict();
export type McpToolsCallInput = z.infer<typeof McpToolsCallInput>;
export const McpToolsCallResult = z.object({ content: z.array(Meta), structuredContent: Meta.optional(), isError: z.boolean(), _meta: Meta.optional() });

export const McpResourcesListInput = McpConnectInput;
const ResourceCommon = { name: z.string(), title: z.string().optional(), description: z.string().optional(), mimeType: z.string().optional(), annotations: Meta.optional(), _meta: Meta.optional() };
export const McpResource = z.object({ uri: z.string(), ...ResourceCommon, size: z.number().optional() });
export const McpResourceTemplate = z.object({ uriTemplate: z.string(), ...ResourceCommon });
export const McpResourcesListResult = z.object({ resources: z.array(McpResource), resourceTemplates: z.array(McpResourceTemplate) });

// ---------------------------------------------------------------- endpoints

const tag = "API tester: protocol helpers";
const statuses = { 400: "bad input, or a target the outbound policy refuses", 502: "the target could not be reached or did not answer as the protocol expects" } as const;
const common = { tag, auth: "user", namespaced: true, permission: "write", statuses } as const;

export const testerHelperEndpoints = {
  proxyHttp: endpoint({ ...common, method: "POST", path: "/api/v1/proxy/http", summary: "Send one HTTP request from the server (not saved): status, headers, body, timings", body: ProxyHttpInput, response: ProxyHttpResult }),
  proxySoap: endpoint({ ...common, method: "POST", path: "/api/v1/proxy/soap", summary: "Send a SOAP envelope (given, or built from a WSDL operation and params); a SOAP Fault comes back as data", body: ProxySoapInput, response: ProxySoapResult }),
  proxyGrpc: endpoint({ ...common, method: "POST", path: "/api/v1/proxy/grpc", summary: "Call a gRPC method dynamically, typed by uploaded .proto files or by server reflection", body: ProxyGrpcInput, response: ProxyGrpcResult }),
  mcpConnect: endpoint({ ...common, method: "POST", path: "/api/v1/api-tester/mcp/connect", summary: "Connect to an MCP server (Streamable HTTP, else HTTP+SSE): server info and capabilities", body: McpConnectInput, response: McpConnectResult }),
  mcpToolsList: endpoint({ ...common, method: "POST", path: "/api/v1/api-tester/mcp/tools/list", summary: "List an MCP server's tools (every page)", body: McpToolsListInput, response: McpToolsListResult }),
  mcpToolsCall: endpoint({ ...common, method: "POST", path: "/api/v1/api-tester/mcp/tools/call", summary: "Call an MCP tool; a tool error is a result with isError", body: McpToolsCallInput, response: McpToolsCallResult }),
  mcpResourcesList: endpoint({ ...common, method: "POST", path: "/api/v1/api-tester/mcp/resources/list", summary: "List an MCP server's resources and resource templates", body: McpResourcesListInput, response: McpResourcesListResult }),
  graphqlIntrospect: endpoint({ ...common, method: "POST", path: "/api/v1/api-tester/graphql/introspect", summary: "Run the introspection query against a GraphQL endpoint: the schema and a summary", body: GraphqlIntrospectInput, response: GraphqlIntrospectResult }),
  grpcDiscover: endpoint({ ...common, method: "POST", path: "/api/v1/api-tester/grpc/discover", summary: "List a gRPC server's services and methods through server reflection (v1, else v1alpha)", body: GrpcDiscoverInput, response: GrpcDiscoverResult }),
  soapOperations: endpoint({ ...common, method: "POST", path: "/api/v1/api-tester/soap/operations", summary: "List the SOAP operations of a WSDL (text or URL) with SOAPAction, version and a sample envelope", body: SoapOperationsInput, response: SoapOperationsResult }),
} as const;
