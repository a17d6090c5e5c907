// Which broker a broker-admin call talks to: a protocol server of the
// namespace (its address, options and stored credentials) or the inline
// address of the body, after the outbound-target policy (server/lib/ssrf.ts)
// has looked at every host. Names resolved later are checked again at connect
// time by safeLookup.
import net from "node:net";
import type { KafkaTargetInput, RabbitTargetInput } from "@/server/contracts/broker-admin";
import { db } from "@/server/db/client";
import { AppError } from "@/server/errors";
import { assertAllowedTarget, BlockedTargetError } from "@/server/lib/ssrf";
import type { NamespaceScope } from "../namespace-access";
import { storedCredentials } from "../protocol-servers";
import { splitBroker } from "../webhook-kafka";

export interface Credentials {
  username?: string;
  password?: string;
}

export interface KafkaTarget {
  brokers: string[];
  ssl: boolean;
  credentials: Credentials | null;
  timeoutMs: number;
}

export interface RabbitTarget {
  /** The AMQP URL with the credentials in it. */
  url: string;
  /** For messages: the URL without its password. */
  display: string;
  vhost: string;
  managementUrl: string;
  credentials: Credentials;
  timeoutMs: number;
}

/** A refused host is the caller's input: a 400 naming the field, never a connection attempt. */
export function blocked(err: BlockedTargetError, field: string): AppError {
  return new AppError("target_blocked", err.message, { status: 400, details: [{ location: "body", field, message: err.message }] });
}

function checkHost(host: string, port: number, field: string) {
  try {
    assertAllowedTarget(new URL(`http://${net.isIPv6(host) ? `[${host}]` : host}:${port}/`));
  } catch (err) {
    if (err instanceof BlockedTargetError) throw blocked(err, field);
    throw err;
  }
}

async function protocolServer(scope: NamespaceScope, name: string, protocol: "kafka" | "rabbitmq") {
  const row = await db().protocolServer.findFirst({ where: { namespaceId: scope.id, name } });
  if (!row) throw new AppError("not_found", `Protocol server '${name}' not found in namespace '${scope.name}'`);
  if (row.protocol !== protocol) {
    throw new AppError("validation", `Protocol server '${name}' is a ${row.protocol} server, not ${protocol}`, { details: [{ location: "body", field: "serverName", message: `is ${row.protocol}` }] });
  }
  return row;
}

export async function kafkaTarget(scope: NamespaceScope, input: KafkaTargetInput): Promise<KafkaTarget> {
  let brokers = input.brokers ?? [];
  let ssl = input.ssl ?? false;
  let credentials: Credentials | null = input.credentials ?? null;
  let field = "brokers";
  if (input.serverName) {
    const row = await protocolServer(scope, input.serverName, "kafka");
    brokers = row.brokers;
    ssl = (row.options as Record<string, unknown> | null)?.ssl === true;
    credentials = storedCredentials(row);
    field = "serverName";
  }
  for (const broker of brokers) {
    const { host, port } = splitBroker(broker);
    checkHost(host, port, field);
  }
  return { brokers, ssl, credentials, timeoutMs: input.timeoutMs };
}

/**
 * The management API's address: the body's, else the protocol server's
 * options.managementUrl, else the AMQP host on 15672 (15671 over TLS), the
 * plugin's defaults.
 */
function defaultManagementUrl(amqp: URL): string {
  const tls = amqp.protocol === "amqps:";
  return `${tls ? "https" : "http"}://${amqp.host.replace(/:\d+$/, "")}:${tls ? 15671 : 15672}`;
}

export async function rabbitTarget(scope: NamespaceScope, input: RabbitTargetInput & { managementUrl?: string }): Promise<RabbitTarget> {
  let raw = input.url;
  let credentials: Credentials = input.credentials ?? {};
  let managementUrl = input.managementUrl;
  let field = "url";
  if (input.serverName) {
    const row = await protocolServer(scope, input.serverName, "rabbitmq");
    raw = row.url ?? undefined;
    credentials = storedCredentials(row) ?? {};
    const option = (row.options as Record<string, unknown> | null)?.managementUrl;
    managementUrl ??= typeof option === "string" ? option : undefined;
    field = "serverName";
  }
  let url: URL;
  try {
    url = new URL(raw ?? "");
    if (url.protocol !== "amqp:" && url.protocol !== "amqps:") throw new Error("scheme");
  } catch {
    throw new AppError("validation", `The broker URL of '${input.serverName ?? "the body"}' is not an amqp:// URL`, { details: [{ location: "body", field, message: "not an amqp:// URL" }] });
  }
  const port = Number(url.port) || (url.protocol === "amqps:" ? 5671 : 5672);
  checkHost(url.hostname.replace(/^\[|\]$/g, ""), port, field);
  // Credentials given apart win over the URL's own, like the runner's connection.
  if (credentials.username) url.username = encodeURIComponent(credentials.username);
  if (credentials.password) url.password = encodeURIComponent(credentials.password);
  const username = decodeURIComponent(url.username) || "guest";
  const password = decodeURIComponent(url.password) || "guest";
  const management = managementUrl ?? defaultManagementUrl(url);
  try {
    assertAllowedTarget(new URL(management));
  } catch (err) {
    if (err instanceof BlockedTargetError) throw blocked(err, "managementUrl");
    throw new AppError("validation", "managementUrl is not an http(s) URL", { details: [{ location: "body", field: "managementUrl", message: "not an http(s) URL" }] });
  }
  const display = new URL(url.href);
  display.password = "";
  const vhost = url.pathname.length > 1 ? decodeURIComponent(url.pathname.slice(1)) : "/";
  return { url: url.href, display: display.href.replace(/\/$/, ""), vhost, managementUrl: management.replace(/\/+$/, ""), credentials: { username, password }, timeoutMs: input.timeoutMs };
}
