// Protocol servers of a namespace (server/contracts/protocol-servers.ts):
// CRUD for the API and the UI, the state the runner writes back, and the
// NOTIFY that makes the runner reconcile.
import net from "node:net";
import type { z } from "zod";
import {
  CreateProtocolServerInput,
  LISTENER_PROTOCOLS,
  type ListenerState,
  type ProtocolServerTestResult,
  type ProtocolServerView,
  type ServerProtocol,
  type UpdateProtocolServerInput,
} from "@/server/contracts/protocol-servers";
import { db, Prisma, type ProtocolServer } from "@/server/db/client";
import { AppError, errors } from "@/server/errors";
import { decryptSecret, encryptSecret } from "@/server/lib/crypto";
import { assertAllowedTarget, BlockedTargetError, safeLookup } from "@/server/lib/ssrf";
import { validationError } from "@/server/validation-error";
import type { NamespaceScope } from "./namespace-access";

/** NOTIFY channel: the runner reconciles on each (protocol server writes, namespace delete and restore). */
export const PROTOCOL_SERVERS_CHANNEL = "protocol_servers_changed";

type Row = ProtocolServer & { namespace: { name: string } };
const withNamespace = { namespace: { select: { name: true } } } as const;

function view(row: Row): ProtocolServerView {
  return {
    id: row.id,
    namespace: row.namespace.name,
    name: row.name,
    protocol: row.protocol as ServerProtocol,
    host: row.host,
    port: row.port,
    url: row.url,
    brokers: row.brokers,
    options: (row.options ?? {}) as Record<string, unknown>,
    hasCredentials: row.credentialsEnc !== null,
    state: row.state as ListenerState,
    stateReason: row.stateReason,
    stateAt: row.stateAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Makes the runner reconcile; the payload (a row or namespace id) is informative only. */
export async function notifyProtocolServersChanged(id: string) {
  await db().$executeRaw`SELECT pg_notify(${PROTOCOL_SERVERS_CHANNEL}, ${id})`;
}

function nameTaken(name: string) {
  return errors.conflict(`A protocol server named '${name}' already exists in this namespace`, [{ location: "body", field: "name", message: "already exists" }]);
}

function isUniqueViolation(err: unknown) {
  return err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
}

async function find(scope: NamespaceScope, id: string): Promise<Row> {
  const row = await db().protocolServer.findFirst({ where: { id, namespaceId: scope.id }, include: withNamespace });
  if (!row) throw new AppError("not_found", `Protocol server '${id}' not found in namespace '${scope.name}'`);
  return row;
}

export async function listProtocolServers(scope: NamespaceScope) {
  const rows = await db().protocolServer.findMany({ where: { namespaceId: scope.id }, include: withNamespace, orderBy: { name: "asc" } });
  return { servers: rows.map(view), count: rows.length };
}

export async function getProtocolServer(scope: NamespaceScope, id: string) {
  return view(await find(scope, id));
}

/** The stored columns of a checked server; `credentials` undefined keeps what is stored. */
function columns(input: Omit<z.output<typeof CreateProtocolServerInput>, "namespace">) {
  const listener = LISTENER_PROTOCOLS.includes(input.protocol);
  return {
    name: input.name,
    protocol: input.protocol,
    host: listener ? (input.host ?? null) : null,
    port: listener ? (input.port ?? null) : null,
    url: input.url ?? null,
    brokers: input.brokers ?? [],
    options: (input.options ?? {}) as Prisma.InputJsonValue,
    ...(input.credentials === undefined ? {} : { credentialsEnc: input.credentials === null ? null : encryptSecret(JSON.stringify(input.credentials)) }),
  };
}

export async function createProtocolServer(scope: NamespaceScope, input: z.output<typeof CreateProtocolServerInput>) {
  try {
    const row = await db().protocolServer.create({ data: { namespaceId: scope.id, ...columns(input) }, include: withNamespace });
    await notifyProtocolServersChanged(row.id);
    return view(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(input.name);
    throw err;
  }
}

export async function updateProtocolServer(scope: NamespaceScope, id: string, patch: UpdateProtocolServerInput) {
  const current = await find(scope, id);
  const { namespace: _ns, ...changes } = patch;
  const merged = {
    name: current.name,
    protocol: current.protocol as ServerProtocol,
    host: current.host,
    port: current.port,
    url: current.url,
    brokers: current.brokers,
    // A protocol change starts its options afresh: the old protocol's do not apply.
    options: changes.protocol && changes.protocol !== current.protocol ? {} : (current.options as Record<string, unknown>),
    ...changes,
  };
  // The merged server must still be complete: the same rules as a creation, reported on the body.
  const checked = CreateProtocolServerInput.safeParse(merged);
  if (!checked.success) throw validationError(checked.error, "body");
  try {
    const row = await db().protocolServer.update({ where: { id: current.id }, data: columns({ ...checked.data, credentials: changes.credentials }), include: withNamespace });
    await notifyProtocolServersChanged(row.id);
    return view(row);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken(merged.name);
    throw err;
  }
}

export async function deleteProtocolServer(scope: NamespaceScope, id: string) {
  const row = await find(scope, id);
  await db().protocolServer.delete({ where: { id: row.id } });
  await notifyProtocolServersChanged(row.id);
  return { ok: true as const };
}

/** The credentials as given, for the runner (SMTP AUTH, broker logins); null when none are stored. */
export function storedCredentials(row: Pick<ProtocolServer, "credentialsEnc">): { username?: string; password?: string } | null {
  return row.credentialsEnc ? (JSON.parse(decryptSecret(row.credentialsEnc)) as { username?: string; password?: string }) : null;
}

/** Written by the runner: the live state of a server's listener. A row deleted meanwhile is ignored. */
export async function setListenerState(id: string, state: ListenerState, reason: string | null = null) {
  await db().protocolServer.updateMany({ where: { id }, data: { state, stateReason: reason, stateAt: new Date() } });
}

const TEST_TIMEOUT_MS = 3000;

/** host:port the test connects to: a listener on its own machine, a broker where it is. */
function testTarget(row: ProtocolServer): { host: string; port: number; broker: boolean } | null {
  if (LISTENER_PROTOCOLS.includes(row.protocol as ServerProtocol)) {
    // A wildcard bind is reached on loopback.
    const host = !row.host || row.host === "0.0.0.0" || row.host === "::" ? "127.0.0.1" : row.host;
    return row.port ? { host, port: row.port, broker: false } : null;
  }
  const first = row.protocol === "kafka" ? row.brokers[0] : row.url;
  if (!first) return null;
  const url = new URL(first.includes("://") ? first : `tcp://${first}`);
  const defaults: Record<string, number> = { rabbitmq: 5672, nats: 4222, kafka: 9092 };
  return { host: url.hostname.replace(/^\[|\]$/g, ""), port: Number(url.port) || defaults[row.protocol], broker: true };
}

function connectOnce(host: string, port: number, guarded: boolean): Promise<number> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host, port, timeout: TEST_TIMEOUT_MS, ...(guarded ? { lookup: safeLookup } : {}) });
    socket.once("connect", () => {
      socket.destroy();
      resolve(Math.round((performance.now() - t0) * 100) / 100);
    });
    socket.once("timeout", () => {
      socket.destroy();
      reject(new Error(`no answer within ${TEST_TIMEOUT_MS} ms`));
    });
    socket.once("error", reject);
  });
}

/**
 * Whether the server answers: a TCP connection to a TCP/SMTP listener or to
 * the broker; UDP has no handshake, so its test is the runner's own state.
 * Broker addresses are user data: they pass the outbound-target policy first.
 */
export async function testProtocolServer(scope: NamespaceScope, id: string): Promise<z.infer<typeof ProtocolServerTestResult>> {
  const row = await find(scope, id);
  const state = row.state as ListenerState;
  if (row.protocol === "udp") {
    return { ok: state === "listening", state, message: state === "listening" ? `UDP listener on port ${row.port} is up` : `UDP listener is ${state}${row.stateReason ? `: ${row.stateReason}` : ""}` };
  }
  const target = testTarget(row);
  if (!target) return { ok: false, state, message: "no address to connect to" };
  try {
    if (target.broker) assertAllowedTarget(new URL(`http://${target.host.includes(":") ? `[${target.host}]` : target.host}:${target.port}`));
    const latencyMs = await connectOnce(target.host, target.port, target.broker);
    return { ok: true, state, latencyMs, message: `connected to ${target.host}:${target.port}` };
  } catch (err) {
    const reason = err instanceof BlockedTargetError ? err.message : `${target.host}:${target.port}: ${(err as Error).message}`;
    return { ok: false, state, message: reason };
  }
}
