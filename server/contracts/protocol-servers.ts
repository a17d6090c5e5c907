// Protocol servers: the namespaced listeners (smtp, tcp, udp) and broker
// connections (kafka, rabbitmq, nats) that mocks name by `serverName`; the
// protocol runner reconciles against them and reports each one's live state.
import { z } from "zod";
import { IdParams, NamespaceName, OkResponse, Timestamp } from "./common";
import { endpoint } from "./endpoint";

export const SERVER_PROTOCOLS = ["smtp", "tcp", "udp", "kafka", "rabbitmq", "nats"] as const;
export const ServerProtocol = z.enum(SERVER_PROTOCOLS);
export type ServerProtocol = z.infer<typeof ServerProtocol>;
/** Protocols whose server is a listener of the runner (host/port); the others connect to a broker. */
export const LISTENER_PROTOCOLS: readonly ServerProtocol[] = ["smtp", "tcp", "udp"];

export const ListenerState = z.enum(["listening", "error", "stopped"]);
export type ListenerState = z.infer<typeof ListenerState>;

export const TcpFraming = z.enum(["newline", "length-prefixed", "raw"]);
export type TcpFraming = z.infer<typeof TcpFraming>;

export const TcpOptions = z
  .object({
    framing: TcpFraming.default("newline").describe("newline: one message per line; length-prefixed: a 4-byte big-endian length before each message; raw: what arrives until the connection is idle for idleMs"),
    idleMs: z.number().int().min(1).max(60_000).default(100).describe("raw framing: a message ends after this many quiet milliseconds"),
  })
  .strict();
export type TcpOptions = z.infer<typeof TcpOptions>;
export const SmtpOptions = z
  .object({
    auth: z.boolean().default(false).describe("require SMTP AUTH (checked against the credentials)"),
    starttls: z.boolean().default(false).describe("offer STARTTLS with a self-signed certificate"),
  })
  .strict();
/** UDP: one datagram is one message, so nothing to choose. Brokers: free-form client options. */
const EmptyOptions = z.object({}).strict();
const BrokerOptions = z.record(z.string(), z.unknown());
const OPTIONS: Record<ServerProtocol, z.ZodType> = { tcp: TcpOptions, udp: EmptyOptions, smtp: SmtpOptions, kafka: BrokerOptions, rabbitmq: BrokerOptions, nats: BrokerOptions };

export const ServerName = z
  .string()
  .min(1, "must not be empty")
  .max(100, "at most 100 characters")
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, "letters, digits, '.', '_' and '-', starting with a letter or digit");
const Host = z.string().min(1).max(253).regex(/^[A-Za-z0-9.:_-]+$/, "a host name or IP address");
const Port = z.number().int().min(1, "1 to 65535").max(65535, "1 to 65535");
const Broker = z.string().min(1).max(300).regex(/^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/, "host:port");
export const ServerCredentials = z
  .object({ username: z.string().min(1).max(200).optional(), password: z.string().min(1).max(1000).optional() })
  .strict()
  .describe("stored encrypted, never returned (the view shows hasCredentials)");

const Fields = {
  name: ServerName.describe("what a mock's serverName names; unique in the namespace"),
  protocol: ServerProtocol,
  host: Host.nullable().optional().describe("listeners: the address to bind; absent = the runner's HOST"),
  port: Port.nullable().optional().describe("listeners: required"),
  url: z.string().url().max(2000).nullable().optional().describe("rabbitmq, nats: the broker URL"),
  brokers: z.array(Broker).max(50).optional().describe("kafka: bootstrap brokers, host:port"),
  credentials: ServerCredentials.nullable().optional().describe("null removes stored credentials; absent keeps them"),
  options: z.record(z.string(), z.unknown()).optional().describe("per protocol: tcp {framing, idleMs}; smtp {auth, starttls}; udp none"),
  namespace: NamespaceName.optional().describe("names the namespace, like ?namespace=; must agree with it when both are given"),
};

/** The cross-field rules of a complete server; `options` is replaced by its parsed, defaulted form. */
export function checkServer(value: { protocol: ServerProtocol; host?: string | null; port?: number | null; url?: string | null; brokers?: string[]; options?: Record<string, unknown> }, ctx: z.RefinementCtx) {
  const { protocol } = value;
  const listener = LISTENER_PROTOCOLS.includes(protocol);
  if (listener && value.port == null) ctx.addIssue({ code: "custom", path: ["port"], message: `required for ${protocol}` });
  if (!listener && value.port != null) ctx.addIssue({ code: "custom", path: ["port"], message: `not used by ${protocol} (give ${protocol === "kafka" ? "brokers" : "url"})` });
  if (protocol === "kafka" && !value.brokers?.length) ctx.addIssue({ code: "custom", path: ["brokers"], message: "required for kafka: at least one host:port" });
  if ((protocol === "rabbitmq" || protocol === "nats") && !value.url) ctx.addIssue({ code: "custom", path: ["url"], message: `required for ${protocol}` });
  if (listener && (value.url || value.brokers?.length)) ctx.addIssue({ code: "custom", path: [value.url ? "url" : "brokers"], message: `not used by ${protocol} (give host and port)` });
  const parsed = OPTIONS[protocol].safeParse(value.options ?? {});
  if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ code: "custom", path: ["options", ...issue.path.map(String)], message: issue.message });
}

/** The options a protocol's listener runs with, defaults filled in. */
export function optionsFor<P extends "tcp" | "smtp">(protocol: P, stored: unknown): P extends "tcp" ? TcpOptions : z.infer<typeof SmtpOptions> {
  const schema = protocol === "tcp" ? TcpOptions : SmtpOptions;
  const parsed = schema.safeParse(stored ?? {});
  return (parsed.success ? parsed.data : schema.parse({})) as never;
}

export const CreateProtocolServerInput = z.object(Fields).strict().superRefine(checkServer);
export type CreateProtocolServerInput = z.infer<typeof CreateProtocolServerInput>;
/** Only the fields given change; the result must still be a complete server (checked by the service). */
export const UpdateProtocolServerInput = z.object(Fields).partial().strict();
export type UpdateProtocolServerInput = z.infer<typeof UpdateProtocolServerInput>;

export const ProtocolServerView = z.object({
  id: z.string().uuid(),
  namespace: z.string(),
  name: z.string(),
  protocol: ServerProtocol,
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  url: z.string().nullable(),
  brokers: z.array(z.string()),
  options: z.record(z.string(), z.unknown()),
  hasCredentials: z.boolean(),
  state: ListenerState.describe("the runner's listener (or connection) state"),
  stateReason: z.string().nullable().describe("why, when state is error (e.g. the port is in use)"),
  stateAt: Timestamp.nullable().describe("when the runner last wrote the state"),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type ProtocolServerView = z.infer<typeof ProtocolServerView>;
export const ProtocolServerList = z.object({ servers: z.array(ProtocolServerView), count: z.number().int() });
export const ProtocolServerTestResult = z.object({
  ok: z.boolean(),
  message: z.string(),
  state: ListenerState,
  latencyMs: z.number().optional(),
});

const tag = "Protocol servers";
export const protocolServerEndpoints = {
  list: endpoint({ method: "GET", path: "/api/v1/protocol-servers", tag, summary: "List the namespace's protocol servers with their live state", auth: "user", namespaced: true, permission: "read", response: ProtocolServerList }),
  create: endpoint({ method: "POST", path: "/api/v1/protocol-servers", tag, summary: "Create a protocol server; the runner starts it", auth: "user", namespaced: true, permission: "write", body: CreateProtocolServerInput, response: ProtocolServerView, successStatus: 201, statuses: { 409: "a server with this name exists in the namespace" } }),
  get: endpoint({ method: "GET", path: "/api/v1/protocol-servers/{id}", tag, summary: "One protocol server with its live state", auth: "user", namespaced: true, permission: "read", params: IdParams, response: ProtocolServerView }),
  update: endpoint({ method: "PUT", path: "/api/v1/protocol-servers/{id}", tag, summary: "Change the fields given; the runner restarts the listener", auth: "user", namespaced: true, permission: "write", params: IdParams, body: UpdateProtocolServerInput, response: ProtocolServerView, statuses: { 409: "a server with this name exists in the namespace" } }),
  remove: endpoint({ method: "DELETE", path: "/api/v1/protocol-servers/{id}", tag, summary: "Delete a protocol server; the runner stops it", auth: "user", namespaced: true, permission: "delete", params: IdParams, response: OkResponse }),
  test: endpoint({ method: "POST", path: "/api/v1/protocol-servers/{id}/test", tag, summary: "Check the server answers: a TCP connection to a listener or broker, the runner's state for UDP", auth: "user", namespaced: true, permission: "read", params: IdParams, response: ProtocolServerTestResult }),
} as const;
