// The mock: what a user stores and the engine serves. Every field of the
// spec's Mock table and of the public clients' wire shape
// (docs/decisions.md, "Mock engine"); unknown fields are refused so typos do
// not pass silently, while fields the server owns (a GET's bookkeeping) are
// accepted and dropped, so a fetched mock can be sent back as it is.
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

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isEmptyBlock = (v: unknown) => v === null || (isPlainObject(v) && Object.values(v).every((x) => x === undefined));

/**
 * A block that may arrive empty: the Go client sends every block as `{}` (and
 * some as null), which means "not set", not "an invalid block".
 */
function optionalBlock<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (isEmptyBlock(v) ? undefined : v), schema.optional());
}

/**
 * A protocol block for which `{}` is a valid mock on its own (SSE at the
 * prefix, SOAP or GraphQL answering anything, SMTP catching all): null is
 * "not set", and `{}` is dropped only beside another protocol's block
 * (MockInput's overwrite), so the Go client's empty blocks do not change the protocol.
 */
function emptyValidBlock<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (v === null ? undefined : v), schema.optional());
}

/** A field the server owns (GET returns it): accepted on input and dropped. */
// Typed `unknown` (not `undefined`) so a stored mock, whose bookkeeping is set, still fits the parsed type.
const serverOwned = (what: string) =>
  z
    .unknown()
    .transform((): unknown => undefined)
    .optional()
    .describe(`${what}; server-owned, ignored on input`);

/** Fields a stored mock carries on GET, or that the public clients send back, that the server owns. */
export const SERVER_OWNED_MOCK_FIELDS = {
  createdAt: serverOwned("creation time"),
  updatedAt: serverOwned("last change"),
  useCounter: serverOwned("uses so far"),
  version: serverOwned("version number"),
  deleted: serverOwned("in the recycle bin"),
  deletedAt: serverOwned("when it was deleted"),
  protocol: serverOwned("the protocol, derived from the block"),
  lastUse: serverOwned("last use (clients: Unix seconds)"),
  expireAt: serverOwned("expiry (clients: Unix seconds); ttl decides"),
  closedAt: serverOwned("when a chain closed (clients: Unix seconds)"),
  _meta: serverOwned("bookkeeping the Python client may nest"),
};

export const HttpMethod = z
  .string()
  .transform((m) => m.toUpperCase())
  .pipe(z.enum(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT"]));

export const HttpBlock = z
  .object({
    route: z.string().min(1).max(2000).optional().describe("path after /stubs/<namespace>; `:name` segments are parameters. Required unless routePattern is given"),
    routePattern: z
      .string()
      .min(1)
      .max(1000)
      .optional()
      .describe("RE2 regular expression the whole path (after /stubs/<namespace> and pathPrefix) must match; with route, both must fit"),
    httpMethod: HttpMethod.optional().describe("absent: any method"),
    conditions: Conditions.optional().describe("on the request body (JSON path)"),
    queryParams: Conditions.optional().describe("path is the query parameter name"),
    header: Conditions.optional().describe("path is the header name (case-insensitive)"),
    sortArray: z.boolean().optional(),
  })
  .strict()
  .refine((h) => h.route !== undefined || h.routePattern !== undefined, { message: "give route or routePattern", path: ["route"] });

export const GrpcMethodType = z.enum(["unary", "server-stream", "client-stream", "bidirectional"]);
export const GrpcBlock = z
  .object({
    service: z.string().min(1).max(500),
    method: z.string().min(1).max(500),
    methodType: GrpcMethodType.optional().describe("the RPC's streaming kind; default unary"),
    conditions: Conditions.optional(),
    meta: Conditions.optional(),
    sortArray: z.boolean().optional(),
  })
  .strict();

/**
 * A tool's JSON Schema as MCP's tools/list carries it: MCP requires an object schema at the
 * top. A record, not an object with a `type` property, so the OpenAPI document describes it as
 * the open JSON value it is (success responses are otherwise closed objects).
 */
const McpToolSchema = z.record(z.string(), z.unknown()).refine((schema) => schema.type === "object", { message: 'an MCP tool schema must be a JSON Schema of type "object"', path: ["type"] });

export const McpBlock = z
  .object({
    method: z.enum(["tools/call", "prompts/get", "resources/read"]),
    tool: z.string().max(200).optional(),
    resource: z.string().max(2000).optional(),
    prompt: z.string().max(200).optional(),
    description: z.string().max(4000).optional(),
    inputSchema: McpToolSchema.optional().describe("tools/call: the tool's input JSON Schema, listed by tools/list as given (absent: guessed from the conditions)"),
    outputSchema: McpToolSchema.optional().describe("tools/call: the tool's output JSON Schema, listed by tools/list; results then also carry an object payload as structuredContent"),
    conditions: Conditions.optional(),
    header: Conditions.optional().describe("path is the HTTP header name of the MCP request (case-insensitive)"),
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
    header: Conditions.optional().describe("path is the HTTP header name (case-insensitive)"),
    sortArray: z.boolean().optional(),
  })
  .strict();

export const GraphqlBlock = z
  .object({
    operation: z.enum(["query", "mutation", "subscription"]).optional().describe("default query"),
    field: z.string().max(500).optional().describe("top-level field answered; absent: every field of the operation"),
    type: z.string().max(500).optional().describe("the field's GraphQL type; informative, not matched"),
    path: z.string().max(2000).optional().describe("default /graphql (pathPrefix prepended)"),
    conditions: Conditions.optional().describe("JSON paths into the variables overlaid with the field's arguments ($.id)"),
    header: Conditions.optional().describe("path is the HTTP header name (case-insensitive)"),
    sortArray: z.boolean().optional(),
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
    headerConditions: SmtpConditions.optional().describe("each condition's path names the mail header (e.g. X-Priority)"),
  })
  .strict()
  .superRefine((block, ctx) => {
    // The other lists know their field; a header condition must say which header.
    block.headerConditions?.forEach((c, i) => {
      if (!c.path) ctx.addIssue({ code: "custom", path: ["headerConditions", i, "path"], message: "required: the header name" });
    });
  });

export const SocketBlock = z
  .object({ serverName: z.string().min(1).max(200), event: z.string().max(200).optional(), namespace: z.string().max(200).optional(), conditions: Conditions.optional() })
  .strict();
const StringMap = z.record(z.string().min(1).max(200), z.string().max(8000));
export const KafkaBlock = z
  .object({
    topic: z.string().min(1).max(500),
    serverName: z.string().max(200).optional(),
    consumerGroup: z.string().max(500).optional().describe("absent: the server's own group polymock.<namespace>.<serverName>"),
    conditions: Conditions.optional().describe("on the message value (JSON path)"),
    headers: Conditions.optional().describe("path is the Kafka header name (any case); the record key is the header `kafka-key`"),
    sortArray: z.boolean().optional(),
    outputTopic: z.string().max(500).optional().describe("topic the response is produced to"),
    outputBrokers: z.string().max(2000).optional().describe("comma-separated host:port list; absent: the server's brokers"),
    outputKey: z.string().max(2000).optional().describe("key of the produced message; templated"),
    outputHeaders: StringMap.optional().describe("headers of the produced message; templated"),
  })
  .strict();
/** Whether a subscription on `pattern` receives the concrete `subject` (`*` one token, `>` one or more). */
export function natsSubjectReceives(pattern: string, subject: string): boolean {
  const p = pattern.split(".");
  const s = subject.split(".");
  for (let i = 0; i < p.length; i++) {
    if (p[i] === ">") return s.length > i;
    if (i >= s.length) return false;
    if (p[i] !== "*" && p[i] !== s[i]) return false;
  }
  return p.length === s.length;
}
/** A NATS subject: dot-separated tokens; `*` matches one token, `>` (last only) the rest. */
export const NatsSubject = z
  .string()
  .min(1)
  .max(500)
  .refine((subject) => {
    const tokens = subject.split(".");
    return tokens.every((t, i) => t !== "" && !/\s/.test(t) && (t === "*" || t === ">" || !/[*>]/.test(t)) && (t !== ">" || i === tokens.length - 1));
  }, "a NATS subject: dot-separated tokens without spaces; `*` stands for one token, `>` (last) for the rest");
export const NatsBlock = z
  .object({
    subject: NatsSubject.describe("subject subscribed; `*` and `>` wildcards allowed"),
    serverName: z.string().max(200).optional().describe("the nats protocol server; absent: every nats server of the namespace"),
    queueGroup: z.string().max(200).regex(/^[^\s]*$/, "no spaces").optional().describe("subscribe in this queue group: each message goes to one member of the group"),
    conditions: Conditions.optional().describe("on the message data (JSON path)"),
    headers: Conditions.optional().describe("path is the NATS header name"),
    sortArray: z.boolean().optional(),
    outputSubject: NatsSubject.optional().describe("subject the reply is published to; absent: the request's reply subject (request/reply)"),
    outputHeaders: StringMap.optional().describe("headers of the reply; templated"),
  })
  .strict()
  .refine((n) => n.outputSubject === undefined || !/(^|\.)(\*|>)(\.|$)/.test(n.outputSubject), { message: "a subject to publish to has no wildcards", path: ["outputSubject"] })
  // A reply the mock's own subscription receives would be answered again, for ever.
  .refine((n) => n.outputSubject === undefined || !natsSubjectReceives(n.subject, n.outputSubject), { message: "the mock's own subject receives this subject: its replies would loop", path: ["outputSubject"] });
export const RabbitmqOutputProps = z
  .object({
    deliveryMode: z.number().int().min(0).max(2).optional().describe("1 transient, 2 persistent"),
    correlationId: z.string().max(500).optional(),
    replyTo: z.string().max(500).optional(),
    contentType: z.string().max(200).optional(),
    priority: z.number().int().min(0).max(255).optional(),
    messageId: z.string().max(500).optional(),
    type: z.string().max(200).optional(),
    appId: z.string().max(200).optional(),
  })
  .strict();
export const RabbitmqBlock = z
  .object({
    queue: z.string().min(1).max(500).optional().describe("queue consumed; required unless exchange is given"),
    exchange: z.string().max(500).optional(),
    routingKey: z.string().max(500).optional(),
    serverName: z.string().max(200).optional(),
    conditions: Conditions.optional().describe("on the message body (JSON path)"),
    headers: Conditions.optional().describe("path is the message header name"),
    sortArray: z.boolean().optional(),
    outputURL: z.string().max(2000).optional().describe("AMQP URL the response is published to; absent: the server's"),
    outputExchange: z.string().max(500).optional(),
    outputRoutingKey: z.string().max(500).optional(),
    outputQueue: z.string().max(500).optional(),
    outputProps: optionalBlock(RabbitmqOutputProps),
  })
  .strict()
  .refine((r) => r.queue !== undefined || r.exchange !== undefined, { message: "give queue or exchange", path: ["queue"] });
export const SseBlock = z
  .object({
    route: z.string().max(2000).optional().describe("used when eventPath is absent"),
    serverName: z.string().max(200).optional(),
    eventPath: z.string().max(2000).optional().describe("path after /stubs/<namespace> (and pathPrefix); `:name` segments are parameters"),
    eventName: z.string().max(200).optional().describe("event name of events that have none"),
    description: z.string().max(4000).optional().describe("shown in lists; not matched"),
    conditions: Conditions.optional().describe("on the query string as an object ($.symbol)"),
    queryParams: Conditions.optional().describe("path is the query parameter name"),
    header: Conditions.optional().describe("path is the header name (case-insensitive)"),
    headerConditions: Conditions.optional().describe("the public clients' name for `header`; both apply"),
    sortArray: z.boolean().optional(),
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
  .object({
    eventName: z.string().max(200).optional(),
    data: z.unknown().optional().describe("JSON value or text; null: none"),
    delay: z.number().int().min(0).max(600_000).optional().describe("milliseconds before this event"),
    id: z.string().max(1000).optional().describe("the event's `id:` field (Last-Event-ID on reconnection); templated"),
    retry: z.number().int().min(0).max(86_400_000).optional().describe("the event's `retry:` field: reconnection delay in milliseconds"),
    templatePath: z.string().min(1).max(500).optional().describe("uploaded template file whose rendered text is the event's data (instead of data)"),
  })
  .strict();

/** Defaults of an SSE chain's stream controls (docs/decisions.md, "SSE mocks"). */
export const SSE_CHAIN_DEFAULTS = { loopDelay: 1000, heartbeat: 0, maxLoops: 100, maxTime: 1200, logBatch: 10 };

export const SseEventChain = z
  .object({
    events: z
      .array(SseEvent)
      .max(10_000)
      .nullable()
      .default([])
      .transform((e) => e ?? []),
    loop: z.boolean().optional().describe("repeat the chain until maxLoops passes or maxTime"),
    loopDelay: z.number().int().min(100).max(3_600_000).optional().describe(`milliseconds between passes of a looping chain (default ${SSE_CHAIN_DEFAULTS.loopDelay})`),
    heartbeat: z.number().int().min(0).max(3_600_000).optional().describe("milliseconds between `:` comment lines while the stream waits; 0 = none"),
    maxLoops: z.number().int().min(1).max(1_000_000).optional().describe(`passes of a looping chain at most (default ${SSE_CHAIN_DEFAULTS.maxLoops})`),
    maxTime: z.number().int().min(1).max(86_400).optional().describe(`seconds after which the stream ends (default ${SSE_CHAIN_DEFAULTS.maxTime})`),
    logBatch: z.number().int().min(0).max(1_000_000).optional().describe(`events per progress line in the server log (default ${SSE_CHAIN_DEFAULTS.logBatch}; 0 = none)`),
  })
  .strict();

export const GrpcErrorDetailType = z.enum(["badRequest", "help", "debugInfo", "errorInfo", "localizedMessage", "preconditionFailure", "quotaFailure", "requestInfo", "resourceInfo", "retryInfo"]);
export const GrpcErrorDetail = z
  .object({ type: GrpcErrorDetailType, details: z.record(z.string(), z.unknown()).optional().describe("fields of the google.rpc message of that type") })
  .strict();

export const SoapFault = z
  .object({
    faultCode: z.string().min(1).max(500).optional().describe("Client/Sender, Server/Receiver, VersionMismatch, MustUnderstand, or a custom code (default Server)"),
    faultString: z.string().max(8000).optional().describe("1.1 faultstring / 1.2 Reason Text (default 'Fault')"),
    faultActor: z.string().max(2000).optional().describe("1.1 faultactor / 1.2 Role"),
    detail: z.unknown().optional().describe("XML text, or an object built into XML like a payload"),
    httpStatus: z.number().int().min(200).max(599).optional().describe("default 500"),
  })
  .strict();

const BASE64 = /^(?:[A-Za-z0-9+/_-]{4})*(?:[A-Za-z0-9+/_-]{2}(?:==)?|[A-Za-z0-9+/_-]{3}=?)?$/;
/** Base64, standard or URL-safe alphabet (as conditions' decode), padding optional, whitespace ignored. */
export function isBase64(text: string): boolean {
  return BASE64.test(text.replace(/\s+/g, ""));
}

/** Equal JSON values (key order ignored). */
function sameJson(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1)).map(([k, x]) => [k, norm(x)])) : Array.isArray(v) ? v.map(norm) : v);
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

export const MockResponse = z
  .object({
    statusCode: z.number().int().min(0).max(599).optional().describe("HTTP status (default 200); gRPC code for gRPC (0 = OK)"),
    payload: z.unknown().optional().describe("JSON value, or a string for raw text / XML; with decode=base64, the base64 text of the bytes"),
    body: z.unknown().optional().describe("alias of payload (the Python client's name); stored as payload"),
    decode: z.enum(["base64"]).optional().describe("base64: payload is base64 and the decoded bytes are sent"),
    headers: Headers.optional(),
    delay: z.number().int().min(0).max(600_000).optional().describe("milliseconds before the response"),
    payloadTemplatePath: z.string().min(1).max(500).optional().describe("uploaded template file used as the payload"),
    // The Go client sends `{events: null}` on every response: a chain without events is no chain (the payload is the one event).
    sseEventChain: z.preprocess((v) => (isEmptyBlock(v) || (isPlainObject(v) && (v.events == null || (Array.isArray(v.events) && v.events.length === 0))) ? undefined : v), SseEventChain.optional()),
    graphqlErrors: z.array(z.unknown()).max(1000).optional(),
    soapFault: optionalBlock(SoapFault).describe("SOAP mocks: answer this SOAP Fault (1.1 or 1.2 as the request) instead of the payload"),
    mcpIsError: z.boolean().optional().describe("MCP tools/call: the result has isError: true"),
    error: z.string().max(8000).optional().describe("gRPC: the status message (with a non-zero statusCode)"),
    errorDetails: z.array(GrpcErrorDetail).max(100).optional().describe("gRPC: google.rpc error details of the status"),
    streamDelayMs: z.number().int().min(0).max(600_000).optional().describe("gRPC streaming responses (payload = the list of messages): milliseconds before each message after the first"),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.body !== undefined && r.payload !== undefined && !sameJson(r.body, r.payload)) {
      ctx.addIssue({ code: "custom", path: ["body"], message: "body is an alias of payload; give one, or the same value in both" });
    }
    const payload = r.payload ?? r.body;
    if (r.decode === "base64" && payload !== undefined && (typeof payload !== "string" || !isBase64(payload))) {
      ctx.addIssue({ code: "custom", path: ["payload"], message: "with decode=base64 the payload must be base64 text" });
    }
  })
  .transform(({ body, ...r }) => (body !== undefined && r.payload === undefined ? { ...r, payload: body } : r));
export type MockResponse = z.infer<typeof MockResponse>;

export const OneOf = z
  .object({
    order: z.preprocess((v) => (v === "" || v === null ? undefined : v), z.enum(["order", "random"]).default("order")),
    offset: z.number().int().min(0).max(1_000_000).optional().describe("order: the index of the first response served (taken modulo the count); default 0"),
    responses: z.array(MockResponse).min(1).max(1000),
  })
  .strict();

export const Proxy = z
  .object({
    target: z.string().url().max(2000).describe("base URL; the stub request's path (after /stubs/<namespace>) and query are appended"),
    headers: Headers.optional().describe("added to the forwarded request"),
    timeoutMs: z.number().int().min(100).max(120_000).optional(),
    stripPrefix: z.boolean().optional().describe("drop the route's leading literal segments before appending the path"),
  })
  .strict()
  .superRefine((p, ctx) => {
    // Metadata and link-local targets are refused at call time too; saying so at save time names the field.
    const problem = outboundTargetProblem(p.target);
    if (problem) ctx.addIssue({ code: "custom", path: ["target"], message: problem });
  });

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
    http: optionalBlock(HttpBlock),
    grpc: optionalBlock(GrpcBlock),
    mcp: optionalBlock(McpBlock),
    soap: emptyValidBlock(SoapBlock),
    graphql: emptyValidBlock(GraphqlBlock),
    smtp: emptyValidBlock(SmtpBlock),
    socket: optionalBlock(SocketBlock),
    kafka: optionalBlock(KafkaBlock),
    rabbitmq: optionalBlock(RabbitmqBlock),
    nats: optionalBlock(NatsBlock),
    sse: emptyValidBlock(SseBlock),
    s3: optionalBlock(S3Block),
    response: optionalBlock(MockResponse),
    // The Go client always sends order/offset: a oneOf without responses is no oneOf.
    oneOf: z.preprocess((v) => (isEmptyBlock(v) || (isPlainObject(v) && v.responses == null) ? undefined : v), OneOf.optional()),
    proxy: optionalBlock(Proxy),
    webhooks: z.array(Webhook).max(20).optional(),
    tags: z.array(z.string().min(1).max(100)).max(50).optional(),
    folderId: z.string().uuid().nullable().optional(),
    pathPrefix: z.string().max(500).optional(),
    serverName: z.string().max(200).optional(),
    mStore: z.record(z.string(), z.unknown()).optional(),
    extract: Extract.optional(),
    ...SERVER_OWNED_MOCK_FIELDS,
  })
  .strict()
  .overwrite(dropEmptyBesideOthers)
  .superRefine(refuseOnlyEmptyBlocks);
export type MockInput = z.input<typeof MockInput>;
export type MockDefinition = z.output<typeof MockInput> & { id: string; namespace: string };

export const PROTOCOLS = ["http", "grpc", "mcp", "soap", "graphql", "smtp", "socket", "kafka", "rabbitmq", "nats", "sse", "s3"] as const;
export type Protocol = (typeof PROTOCOLS)[number];

/** The field an empty block lacks first, for blocks that cannot be empty (the others are valid as `{}`). */
const FIRST_REQUIRED: Partial<Record<Protocol, string>> = { http: "route", grpc: "service", mcp: "method", socket: "serverName", kafka: "topic", rabbitmq: "queue", nats: "subject", s3: "bucket" };

/**
 * Empty blocks are filler only beside a real one: a mock whose only block is
 * an empty `http: {}` (or null) names no endpoint, and is refused as before
 * rather than saved as a mock nothing can reach. (A block given empty parses
 * to a present key with an undefined value.)
 */
function refuseOnlyEmptyBlocks(def: Partial<Record<Protocol, unknown>>, ctx: z.RefinementCtx) {
  if (PROTOCOLS.some((p) => def[p] !== undefined)) return;
  const given = PROTOCOLS.find((p) => p in def && FIRST_REQUIRED[p]);
  if (given) ctx.addIssue({ code: "custom", path: [given, FIRST_REQUIRED[given]!], message: `the ${given} block is empty: give its ${FIRST_REQUIRED[given]}` });
}

/** Empty protocol blocks (`{}`) beside a block with content are the Go client's filler: dropped. */
function dropEmptyBesideOthers<T extends Partial<Record<Protocol, unknown>>>(def: T): T {
  const isEmpty = (p: Protocol) => def[p] !== undefined && Object.keys(def[p] as object).length === 0;
  if (!PROTOCOLS.some((p) => def[p] !== undefined && !isEmpty(p))) return def;
  for (const p of PROTOCOLS) if (isEmpty(p)) delete def[p];
  return def;
}

/** The protocol a mock targets: the one protocol block it has (http when none). */
export function protocolOf(mock: Partial<Record<Protocol, unknown>>): Protocol {
  return PROTOCOLS.find((p) => mock[p] !== undefined) ?? "http";
}
