// kafkajs clients of the runner: every socket (bootstrap brokers and the ones
// the cluster's metadata points to) passes the outbound policy, as a Kafka
// webhook's do (server/services/webhook-kafka.ts). Broker lists are user data.
import type { ISocketFactory, SASLOptions } from "kafkajs";
import kafkajs from "kafkajs";
import { BlockedTargetError } from "@/server/lib/ssrf";
import { assertAllowedBroker, guardedSockets, splitBroker } from "@/server/services/webhook-kafka";

// kafkajs is CommonJS: named ESM imports fail under Node's loader.
const { Kafka, logLevel } = kafkajs;
export type KafkaClient = InstanceType<typeof Kafka>;

export interface ClientOptions {
  clientId: string;
  brokers: string[];
  credentials?: { username?: string; password?: string } | null;
  /** Protocol-server options: `ssl: true`, `saslMechanism` (plain, scram-sha-256, scram-sha-512). */
  options?: Record<string, unknown>;
  /** Wraps the guarded factory (tests use it to cut connections abruptly). */
  wrapSockets?: (factory: ISocketFactory) => ISocketFactory;
}

/** Throws a BlockedTargetError (or a format error) for a broker the policy refuses. */
export function checkBrokers(brokers: string[]): void {
  if (brokers.length === 0) throw new Error("no brokers given");
  for (const b of brokers) {
    const { host, port } = splitBroker(b);
    assertAllowedBroker(host, port);
  }
}

function saslOf(credentials: ClientOptions["credentials"], options: Record<string, unknown>): SASLOptions | undefined {
  if (!credentials?.username) return undefined;
  const mechanism = String(options.saslMechanism ?? "plain").toLowerCase();
  const auth = { username: credentials.username, password: credentials.password ?? "" };
  if (mechanism === "scram-sha-256") return { mechanism, ...auth };
  if (mechanism === "scram-sha-512") return { mechanism, ...auth };
  return { mechanism: "plain", ...auth };
}

export function kafkaClient(opts: ClientOptions, blocked: { error?: BlockedTargetError } = {}): KafkaClient {
  const options = opts.options ?? {};
  const sockets = guardedSockets(blocked);
  return new Kafka({
    clientId: opts.clientId,
    brokers: opts.brokers,
    ssl: options.ssl === true,
    sasl: saslOf(opts.credentials, options),
    connectionTimeout: 3000,
    requestTimeout: 10_000,
    // Few quick retries: a lost cluster is the session's back-off's job, not kafkajs's minutes-long one.
    retry: { retries: 2, initialRetryTime: 200, maxRetryTime: 1000 },
    logLevel: logLevel.NOTHING,
    socketFactory: opts.wrapSockets ? opts.wrapSockets(sockets) : sockets,
  });
}

/** A kafkajs failure as the reason shown on the protocol server. */
export function kafkaErrorReason(err: unknown, brokers: string[], blocked?: { error?: BlockedTargetError }): string {
  if (blocked?.error) return blocked.error.message;
  if (err instanceof BlockedTargetError) return err.message;
  const e = err as Error & { code?: string; originalError?: Error & { code?: string } };
  const where = brokers.join(",");
  const inner = e?.originalError;
  const code = e?.code ?? inner?.code;
  if (code === "ECONNREFUSED" || /ECONNREFUSED/.test(`${e?.message} ${inner?.message}`)) return `connection refused by ${where}`;
  if (code === "ENOTFOUND" || /ENOTFOUND|getaddrinfo/.test(`${e?.message} ${inner?.message}`)) return `host not found: ${where}`;
  if (/timeout|timed out/i.test(`${e?.message} ${inner?.message}`)) return `no answer from ${where}`;
  return `${where}: ${inner?.message ?? e?.message ?? String(err)}`;
}
