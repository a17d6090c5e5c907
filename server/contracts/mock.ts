// The mock: what a user stores and the engine serves. Every field of the
// spec's Mock table; unknown fields are refused so typos do not pass silently.
// Stored as JSON with `schemaVersion`; parsed with this schema on read.
import { z } from "zod";
import { brokerUrlProblem, classifyAddress, isMetadataHostname, outboundTargetProblem } from "./outbound-target";

export const MOCK_SCHEMA_VERSION = 1;

export const AssertAction = z.enum([
  "equals",
  "contains",
  "not_equals",
  "not_contains",
  "matches",
  "match", // legacy alias of matches
  "not_matches",
  "gt",
  "lt",
  "gte",
  "lte",
  "any",
  "notEmpty",
  "empty",
]);
export type AssertAction = z.infer<typeof AssertAction>;

export const Condition = z
  .object({
    path: z.string().min(1).max(500).describe("JSON path into the body ($.a.b[0]), or a header / query parameter name"),
    assertAction: AssertAction,
    value: z.unknown().optional().describe("expected value; ignored for any, notEmpty, empty"),
    decode: z.enum(["base64"]).optional().describe("decode the extracted value before comparing"),
    sortArray: z.boolean().optional().describe("sort arrays before comparing; overrides the block's sortArray"),
    valueFromFile: z.string().min(1).max(500).optional().describe("template file whose content replaces value; the path is templated"),
  })
  .strict();
export type Condition = z.infer<typeof Condition>;

const Conditions = z.array(Condition).max(100);

export const HttpMethod = z
  .string()
  .transform((m) => m.toUpperCase())
  .pipe(z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT"]));

export const HttpBlock = z
  .object({
    route: z.string().min(1).max(2000).describe("path after /stubs/<namespace>; `:name` segments are parameters"),
    httpMethod: HttpMethod.optional().describe("absent: any method"),
    conditions: Conditions.optional().describe("on the request body (JSON path)"),
    queryParams: Conditions.optional().describe("path is the query parameter name"),
    header: Conditions.optional().describe("path is the header name (case-insensitive)"),
    sortArray: z.boolean().optional(),
  })
  .strict();

export const GrpcBlock = z
  .object({ service: z.string().min(1).max(500), method: z.string().min(1).max(500), conditions: Conditions.optional(), meta: Conditions.optional(), sortArray: z.boolean().optional() })
  .strict();

export const McpBlock = z
  .object({
    method: z.enum(["tools/call", "prompts/get", "resources/read"]),
    tool: z.string().max(200).optional(),
    resource: z.string().max(2000).optional(),
    prompt: z.string().max(200).optional(),
    description: z.string().max(4000).optional(),
    conditions: Conditions.optional(),
    sortArray: z.boolean().optional(),
  })
  .strict();

export const SoapBlock = z
  .object({
    service: z.string().max(500).optional().describe("the WSDL service name; shown in lists, not matched (it is not on the wire)"),
    method: z.string().max(500).optional().describe("operation: the Body's first element (namespace prefix ignored); absent: any"),
    action: z.string().max(2000).optional().describe("SOAPAction (1.1) or the content type's action (1.2); absent: any"),
    path: z.string().max(2000).optional().describe("path after /stubs/<namespace> (pathPrefix prepended); absent: any path"),
    conditions: Conditions.optional().describe("JSON paths into the Body's first element, parsed from XML ($.id, $['@attr'])"),
  })
  .strict();

export const GraphqlBlock = z
  .object({
    operation: z.enum(["query", "mutation", "subscription"]).optional().describe("default query"),
    field: z.string().max(500).optional().describe("top-level field answered; absent: every field of the operation"),
    type: z.string().max(500).optional().describe("the field's GraphQL type; informative, not matched"),
    path: z.string().max(2000).optional().describe("default /graphql (pathPrefix prepended)"),
    conditions: Conditions.optional().describe("JSON paths into the variables overlaid with the field's arguments ($.id)"),
  })
  .strict();

const SmtpConditions = z.array(z.object({ assertAction: AssertAction, value: z.unknown().optional(), path: z.string().max(500).optional() }).strict()).max(100);
export const SmtpBlock = z
  .object({
    serverName: z.string().max(200).optional(),
    senderConditions: SmtpConditions.optional(),
    recipientConditions: SmtpConditions.optional(),
    subjectConditions: SmtpConditions.optional(),
    bodyConditions: SmtpConditions.optional(),
    headerConditions: SmtpConditions.optional(),
  })
  .strict();

export const SocketBlock = z
  .object({ serverName: z.string().min(1).max(200), event: z.string().max(200).optional(), namespace: z.string().max(200).optional(), conditions: Conditions.optional() })
  .strict();
export const KafkaBlock = z.object({ topic: z.string().min(1).max(500), serverName: z.string().max(200).optional(), outputTopic: z.string().max(500).optional(), conditions: Conditions.optional() }).strict();
export const RabbitmqBlock = z.object({ queue: z.string().min(1).max(500), serverName: z.string().max(200).optional(), outputQueue: z.string().max(500).optional(), conditions: Conditions.optional() }).strict();
export const SseBlock = z
  .object({
    route: z.string().max(2000).optional().describe("used when eventPath is absent"),
    serverName: z.string().max(200).optional(),
    eventPath: z.string().max(2000).optional().describe("path after /stubs/<namespace> (and pathPrefix); `:name` segments are parameters"),
    eventName: z.string().max(200).optional().describe("event name of events that have none"),
    conditions: Conditions.optional().describe("on the query string as an object ($.symbol)"),
    queryParams: Conditions.optional().describe("path is the query parameter name"),
    header: Conditions.optional().describe("path is the header name (case-insensitive)"),
  })
  .strict();
export const S3Block = z
  .object({
    bucket: z.string().min(3).max(63),
    conditions: Conditions.optional().describe("on the S3 request: $.operation (GetObject, PutObject…), $.key, $.bucket, $.contentType, $.size"),
  })
  .strict();

/** Header values are lists (spec); a single string is accepted and wrapped. */
export const Headers = z.record(z.string().min(1).max(200).regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, "a header name: letters, digits and !#$%&'*+.^_`|~-"), z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v])));

export const SseEvent = z
  .object({ eventName: z.string().max(200).optional(), data: z.unknown().optional(), delay: z.number().int().min(0).max(600_000).optional().describe("milliseconds before this event") })
  .strict();

export const MockResponse = z
  .object({
    statusCode: z.number().int().min(0).max(599).optional().describe("HTTP status (default 200); gRPC code for gRPC (0 = OK)"),
    payload: z.unknown().optional().describe("JSON value, or a string for raw text / XML"),
    headers: Headers.optional(),
    delay: z.number().int().min(0).max(600_000).optional().describe("milliseconds before the response"),
    payloadTemplatePath: z.string().min(1).max(500).optional().describe("uploaded template file used as the payload"),
    sseEventChain: z.object({ events: z.array(SseEvent).max(10_000) }).strict().optional(),
    graphqlErrors: z.array(z.unknown()).max(1000).optional(),
  })
  .strict();
export type MockResponse = z.infer<typeof MockResponse>;

export const OneOf = z
  .object({ order: z.enum(["order", "random"]).default("order"), responses: z.array(MockResponse).min(1).max(1000) })
  .strict();

export const Proxy = z
  .object({
    target: z.string().url().max(2000).describe("base URL; the stub request's path (after /stubs/<namespace>) and query are appended"),
    headers: Headers.optional().describe("added to the forwarded request"),
    timeoutMs: z.number().int().min(100).max(120_000).optional(),
    stripPrefix: z.boolean().optional().describe("drop the route's leading literal segments before appending the path"),
  })
  .strict();

export const WebhookType = z.enum(["http", "kafka", "rabbitmq"]);
export const WebhookTrigger = z.enum(["on_success", "on_error", "always"]);

/**
 * A callback fired when the mock matches (docs/decisions.md, "Proxy and webhooks").
 * Field names are the public clients' (`timeout`, `retryCount`, `retryDelay`);
 * `timeoutMs` and `retries` are kept as aliases for mocks saved before them.
 */
export const Webhook = z
  .object({
    type: WebhookType.optional().describe("default http"),
    url: z.string().min(1).max(2000).optional().describe("http: templated; required"),
    method: HttpMethod.default("POST"),
    headers: Headers.optional(),
    body: z.unknown().optional().describe("templated like a payload"),
    delay: z.number().int().min(0).max(600_000).optional().describe("milliseconds before the first attempt"),
    timeout: z.number().int().min(100).max(60_000).optional().describe("milliseconds per attempt (default 10000); with async false also the longest the stub response waits"),
    timeoutMs: z.number().int().min(100).max(60_000).optional().describe("alias of timeout"),
    retryCount: z.number().int().min(0).max(10).optional().describe("attempts after the first on a network error, timeout or 5xx (default 0)"),
    retries: z.number().int().min(0).max(10).optional().describe("alias of retryCount"),
    retryDelay: z.number().int().min(0).max(600_000).optional().describe("milliseconds between attempts; absent: 0.5 s doubling up to 30 s"),
    async: z.boolean().optional().describe("default true; false: the stub response waits for the delivery, at most `timeout` ms"),
    trigger: WebhookTrigger.optional().describe("default always; on_success: the stub answered 1xx-3xx; on_error: 4xx/5xx; always: every match"),
    kafkaBrokers: z.union([z.string().min(1).max(2000), z.array(z.string().min(1).max(500)).min(1).max(50)]).optional(),
    kafkaTopic: z.string().min(1).max(249).optional(),
    kafkaKey: z.string().max(2000).optional(),
    kafkaUsername: z.string().max(500).optional(),
    kafkaPassword: z.string().max(500).optional(),
    kafkaUseSASL: z.boolean().optional(),
    kafkaUseTLS: z.boolean().optional(),
    rabbitURL: z.string().max(2000).optional().describe("amqp:// or amqps:// URL of the broker"),
    rabbitExchange: z.string().max(255).optional().describe("absent or empty: the default exchange (routing key = queue)"),
    rabbitRoutingKey: z.string().max(255).optional().describe("templated"),
    rabbitQueue: z.string().max(255).optional().describe("declared (durable) before publishing when given"),
    rabbitMandatory: z.boolean().optional().describe("unroutable messages are returned and the delivery fails"),
  })
  .strict()
  .superRefine((w, ctx) => {
    const need = (field: keyof typeof w, message: string) => {
      if (w[field] === undefined || w[field] === "") ctx.addIssue({ code: "custom", path: [field], message });
    };
    if ((w.type ?? "http") === "http") {
      need("url", "required for an http webhook");
      const problem = w.url === undefined ? undefined : outboundTargetProblem(w.url);
      if (problem) ctx.addIssue({ code: "custom", path: ["url"], message: problem });
    }
    if (w.type === "kafka") {
      need("kafkaBrokers", "required for a kafka webhook");
      need("kafkaTopic", "required for a kafka webhook");
      for (const broker of [w.kafkaBrokers ?? []].flat().flatMap((b) => b.split(","))) {
        const host = broker.trim().replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
        if (classifyAddress(host) === "metadata" || isMetadataHostname(host)) ctx.addIssue({ code: "custom", path: ["kafkaBrokers"], message: `${host} is a cloud-metadata or link-local address, which mocks may never reach` });
      }
    }
    if (w.type === "rabbitmq") {
      need("rabbitURL", "required for a rabbitmq webhook");
      if (w.rabbitURL) {
        const problem = brokerUrlProblem(w.rabbitURL, ["amqp:", "amqps:"]);
        if (problem) ctx.addIssue({ code: "custom", path: ["rabbitURL"], message: problem });
      }
      if (!w.rabbitExchange && !w.rabbitQueue && !w.rabbitRoutingKey) {
        ctx.addIssue({ code: "custom", path: ["rabbitQueue"], message: "a rabbitmq webhook needs rabbitExchange, rabbitQueue or rabbitRoutingKey" });
      }
    }
  });

const StoreWrites = z.record(z.string().min(1).max(200), z.unknown()).describe("key → value or template expression ($.req.id)");
export const Extract = z.object({ mStore: StoreWrites.optional(), cStore: StoreWrites.optional(), gStore: StoreWrites.optional() }).strict();

/** Words that are paths of the management API (/api/v1/mocks/batch…), so no mock can be named so. */
export const RESERVED_MOCK_IDS = ["batch", "chains", "preview", "copy-to-namespace"];
export const MockId = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:-]+$/, "letters, digits, '.', '_', ':' and '-' only")
  .refine((id) => !RESERVED_MOCK_IDS.includes(id), "this id is reserved by the API");

export const MockInput = z
  .object({
    id: MockId.optional().describe("generated when absent"),
    namespace: z.string().max(63).optional(),
    chainId: z.string().max(200).optional(),
    priority: z.number().int().default(0),
    ttl: z.number().int().min(0).default(0).describe("milliseconds from creation; 0 = unlimited"),
    useLimiter: z.number().int().min(0).max(2_147_483_647).default(0).describe("maximum uses; 0 = unlimited"),
    transient: z.boolean().default(false),
    http: HttpBlock.optional(),
    grpc: GrpcBlock.optional(),
    mcp: McpBlock.optional(),
    soap: SoapBlock.optional(),
    graphql: GraphqlBlock.optional(),
    smtp: SmtpBlock.optional(),
    socket: SocketBlock.optional(),
    kafka: KafkaBlock.optional(),
    rabbitmq: RabbitmqBlock.optional(),
    sse: SseBlock.optional(),
    s3: S3Block.optional(),
    response: MockResponse.optional(),
    oneOf: OneOf.optional(),
    proxy: Proxy.optional(),
    webhooks: z.array(Webhook).max(20).optional(),
    tags: z.array(z.string().min(1).max(100)).max(50).optional(),
    folderId: z.string().uuid().nullable().optional(),
    pathPrefix: z.string().max(500).optional(),
    serverName: z.string().max(200).optional(),
    mStore: z.record(z.string(), z.unknown()).optional(),
    extract: Extract.optional(),
  })
  .strict();
export type MockInput = z.input<typeof MockInput>;
export type MockDefinition = z.output<typeof MockInput> & { id: string; namespace: string };

export const PROTOCOLS = ["http", "grpc", "mcp", "soap", "graphql", "smtp", "socket", "kafka", "rabbitmq", "sse", "s3"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** The protocol a mock targets: the one protocol block it has (http when none). */
export function protocolOf(mock: Partial<Record<Protocol, unknown>>): Protocol {
  return PROTOCOLS.find((p) => mock[p] !== undefined) ?? "http";
}
