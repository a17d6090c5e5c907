// The protocol-server form holds the fields of every protocol at once
// (switching the protocol keeps what was typed); these helpers turn it into
// the contract's create or update input for the chosen protocol, so
// validation and field errors come from the contract itself.
import { z } from "zod";
import { CreateProtocolServerInput, LISTENER_PROTOCOLS, type ProtocolServerView, type ServerProtocol, type TcpFraming, UpdateProtocolServerInput } from "@/server/contracts/protocol-servers";

export const PROTOCOL_LABEL: Record<ServerProtocol, string> = { smtp: "SMTP", tcp: "TCP", udp: "UDP", kafka: "Kafka", rabbitmq: "RabbitMQ", nats: "NATS" };

export const FRAMING_LABEL: Record<TcpFraming, string> = {
  newline: "One message per line",
  "length-prefixed": "4-byte length before each message",
  raw: "Raw: a message ends after a quiet pause",
};

export interface ServerFormValues {
  protocol: ServerProtocol;
  name: string;
  host: string;
  port: string;
  url: string;
  /** Kafka bootstrap brokers, one host:port per line (commas work too). */
  brokers: string;
  options: { framing: TcpFraming; idleMs: string; auth: boolean; starttls: boolean };
  credentials: { username: string; password: string };
  /** Editing: remove the stored credentials (unless new ones are typed). */
  clearCredentials: boolean;
}

export function isListener(p: ServerProtocol): boolean {
  return LISTENER_PROTOCOLS.includes(p);
}

export function emptyValues(): ServerFormValues {
  return { protocol: "tcp", name: "", host: "", port: "", url: "", brokers: "", options: { framing: "newline", idleMs: "100", auth: false, starttls: false }, credentials: { username: "", password: "" }, clearCredentials: false };
}

export function valuesFrom(s: ProtocolServerView): ServerFormValues {
  const o = s.options as { framing?: TcpFraming; idleMs?: number; auth?: boolean; starttls?: boolean };
  const empty = emptyValues();
  return {
    ...empty,
    protocol: s.protocol,
    name: s.name,
    host: s.host ?? "",
    port: s.port == null ? "" : String(s.port),
    url: s.url ?? "",
    brokers: s.brokers.join("\n"),
    options: { framing: o.framing ?? "newline", idleMs: String(o.idleMs ?? 100), auth: Boolean(o.auth), starttls: Boolean(o.starttls) },
  };
}

const blank = (s: string) => (s.trim() === "" ? undefined : s.trim());
/** A number box: empty is "not given"; anything else goes to the contract as a number (NaN fails there). */
const numberOf = (s: string) => (s.trim() === "" ? null : Number(s));

/** The options the protocol's listener takes; brokers keep theirs (free-form, set through the API). */
function optionsOf(v: ServerFormValues): Record<string, unknown> | undefined {
  if (v.protocol === "tcp") return { framing: v.options.framing, ...(v.options.framing === "raw" ? { idleMs: numberOf(v.options.idleMs) ?? undefined } : {}) };
  if (v.protocol === "smtp") return { auth: v.options.auth, starttls: v.options.starttls };
  if (v.protocol === "udp") return {};
  return undefined;
}

/** Credentials are write-only: typed ones replace the stored ones, "clear" removes them, nothing keeps them. */
function credentialsOf(v: ServerFormValues) {
  const username = blank(v.credentials.username);
  const password = v.credentials.password === "" ? undefined : v.credentials.password;
  if (username !== undefined || password !== undefined) return { username, password };
  return v.clearCredentials ? null : undefined;
}

function toInput(v: ServerFormValues) {
  const listener = isListener(v.protocol);
  return {
    name: v.name.trim(),
    protocol: v.protocol,
    // Fields of the other kind are sent empty, so switching a server's protocol clears them.
    host: listener ? (blank(v.host) ?? null) : null,
    port: listener ? numberOf(v.port) : null,
    url: v.protocol === "rabbitmq" || v.protocol === "nats" ? (blank(v.url) ?? null) : null,
    brokers: v.protocol === "kafka" ? v.brokers.split(/[\s,]+/).filter(Boolean) : [],
    options: optionsOf(v),
    credentials: credentialsOf(v),
  };
}

export const CreateServerForm = z.preprocess((v: ServerFormValues) => toInput(v), CreateProtocolServerInput);
export const UpdateServerForm = z.preprocess((v: ServerFormValues) => toInput(v), UpdateProtocolServerInput);
export type ServerFormOutput = z.output<typeof CreateServerForm> | z.output<typeof UpdateServerForm>;

/** Where the server is: host:port for a listener (the runner's HOST when no host is set), the brokers or the URL. */
export function addressOf(s: Pick<ProtocolServerView, "protocol" | "host" | "port" | "url" | "brokers">): string {
  if (isListener(s.protocol)) return `${s.host ?? "*"}:${s.port ?? "?"}`;
  if (s.protocol === "kafka") return s.brokers.join(", ");
  return s.url ?? "";
}
