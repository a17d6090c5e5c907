// Storing mocks: create or overwrite with duplicate detection, versions on
// every change, soft delete to the recycle bin, restore, purge. Every change
// notifies "mocks_changed" so each process rebuilds that namespace's index.
import { randomUUID } from "node:crypto";
import type { Actor } from "@/server/auth/actor";
import { MOCK_SCHEMA_VERSION, MockInput, protocolOf, type MockDefinition } from "@/server/contracts/mock";
import type { SaveResult, StoredMock } from "@/server/contracts/mock-api";
import { db, Prisma, type Mock } from "@/server/db/client";
import { notifyMocksChanged } from "@/server/db/notify";
import { compileMock } from "@/server/engine/compile-mock";
import { mcpServerPath } from "@/server/engine/protocols/mcp";
import { GRAPHQL_DEFAULT_PATH, graphqlSelector } from "@/server/engine/protocols/graphql";
import { soapEndpointMethod } from "@/server/engine/protocols/soap";
import { joinRoute } from "@/server/engine/route";
import { InvalidRegexError } from "@/server/engine/safe-regex";
import { AppError, errors } from "@/server/errors";
import { assertKnownGrpcMethods } from "./grpc-mock-check";
import type { NamespaceScope } from "./namespace-access";
import { assertProxyTargetNotSelf } from "./proxy-target";

type Tx = Prisma.TransactionClient;
export type MockBody = ReturnType<typeof MockInput.parse>;

/** Method and route text of a mock, for lists, conflicts and logs. */
export function endpointOf(def: MockBody): { method: string | null; route: string | null } {
  // A routePattern is part of the endpoint ("/api/* ~/users/\d+"): two patterns are two endpoints.
  if (def.http) return { method: def.http.httpMethod ?? null, route: joinRoute(def.pathPrefix, def.http.route ?? "*") + (def.http.routePattern ? ` ~${def.http.routePattern}` : "") };
  // GraphQL and SOAP: what their placers route and select on, so mocks of one field / operation at one path are duplicates.
  if (def.graphql) return { method: graphqlSelector(def.graphql.operation ?? "query", def.graphql.field || undefined), route: joinRoute(def.pathPrefix, def.graphql.path ?? GRAPHQL_DEFAULT_PATH) };
  if (def.soap) return { method: soapEndpointMethod(def.soap), route: joinRoute(def.pathPrefix, def.soap.path || "*") };
  if (def.grpc) return { method: def.grpc.method, route: def.grpc.service };
  if (def.mcp) return { method: def.mcp.method, route: def.mcp.tool ?? def.mcp.prompt ?? def.mcp.resource ?? null };
  if (def.sse) return { method: "GET", route: joinRoute(def.pathPrefix, def.sse.eventPath || def.sse.route || "/") };
  if (def.socket) return { method: def.socket.event ?? null, route: def.socket.serverName };
  if (def.kafka) return { method: "topic", route: def.kafka.topic };
  if (def.rabbitmq) return def.rabbitmq.queue !== undefined ? { method: "queue", route: def.rabbitmq.queue } : { method: "exchange", route: def.rabbitmq.exchange ?? null };
  if (def.nats) return { method: "subject", route: def.nats.subject };
  if (def.s3) return { method: "bucket", route: def.s3.bucket };
  if (def.smtp) return { method: "smtp", route: def.smtp.serverName ?? null };
  return { method: null, route: null };
}

export function summaryOf(def: MockBody): string {
  const { method, route } = endpointOf(def);
  return `${method ?? "ANY"} ${route ?? "(no route)"}`;
}

/** Canonical JSON: object keys sorted, so equal definitions compare equal. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));
}

function matchingKeys(def: MockBody): string {
  // SMTP mocks of one server differ by their five condition lists.
  if (def.smtp) {
    const { senderConditions, recipientConditions, subjectConditions, bodyConditions, headerConditions } = def.smtp;
    return canonical([senderConditions ?? [], recipientConditions ?? [], subjectConditions ?? [], bodyConditions ?? [], headerConditions ?? []]);
  }
  // RabbitMQ mocks of one queue differ by body and header conditions, and by the server and binding they consume through.
  if (def.rabbitmq) {
    const { conditions, headers, serverName, exchange, routingKey } = def.rabbitmq;
    return canonical([conditions ?? [], headers ?? [], serverName ?? "", exchange ?? "", routingKey ?? ""]);
  }
  // Kafka mocks of one topic differ by value and header conditions, and by the server and consumer group they consume through.
  if (def.kafka) {
    const { conditions, headers, serverName, consumerGroup } = def.kafka;
    return canonical([conditions ?? [], headers ?? [], serverName ?? "", consumerGroup ?? ""]);
  }
  // NATS mocks of one subject differ by conditions, and by the server and queue group they subscribe through.
  if (def.nats) {
    const { conditions, headers, serverName, queueGroup } = def.nats;
    return canonical([conditions ?? [], headers ?? [], serverName ?? "", queueGroup ?? ""]);
  }
  const block = (def.http ?? def.grpc ?? def.mcp ?? def.graphql ?? def.soap ?? def.sse ?? def.socket ?? def.s3 ?? {}) as Record<string, unknown>;
  // One tool name on two MCP server paths (pathPrefix) is two tools.
  const server = def.mcp ? [mcpServerPath(def.pathPrefix)] : [];
  return canonical([block.conditions ?? [], block.queryParams ?? [], block.header ?? [], block.meta ?? [], ...server]);
}

/** Refuses a mock the engine could not serve (e.g. a regex RE2 does not support) with a 400. */
export function assertServable(def: MockBody) {
  assertProxyTargetNotSelf(def.proxy);
  try {
    compileMock({ ...def, id: def.id ?? "new", namespace: "check" } as MockDefinition, 0, 0);
  } catch (err) {
    if (err instanceof InvalidRegexError) {
      const field = def.http?.routePattern !== undefined && err.pattern === def.http.routePattern ? "http.routePattern" : "conditions";
      throw errors.validation(`Invalid regular expression: ${err.message}`, [{ location: "body", field, message: err.message }]);
    }
    throw err;
  }
}

function storedView(row: Mock, namespace: string): StoredMock {
  const { folderId: _stale, closedAt: _owned, ...withoutFolder } = row.definition as Record<string, unknown>;
  return {
    ...(withoutFolder as Omit<MockBody, "closedAt">),
    // The column is the truth: deleting a folder moves its mocks without rewriting definitions.
    ...(row.folderId ? { folderId: row.folderId } : {}),
    id: row.id,
    namespace,
    createdAt: row.createdAt.getTime(),
    updatedAt: row.updatedAt.getTime(),
    useCounter: row.useCounter,
    version: row.version,
    deleted: Boolean(row.deletedAt),
    deletedAt: row.deletedAt ? row.deletedAt.getTime() : null,
    // The clients' name for when a mock left service; milliseconds like createdAt.
    ...(row.deletedAt ? { closedAt: row.deletedAt.getTime() } : {}),
    protocol: row.protocol as StoredMock["protocol"],
  };
}

function columnsOf(def: MockBody) {
  const { method, route } = endpointOf(def);
  return {
    protocol: protocolOf(def),
    method,
    route,
    chainId: def.chainId ?? null,
    folderId: def.folderId ?? null,
    tags: def.tags ?? [],
    priority: def.priority,
    useLimiter: def.useLimiter,
    schemaVersion: MOCK_SCHEMA_VERSION,
  };
}

/** The definition as stored: id and namespace live in columns. */
function definitionOf(def: MockBody): Prisma.InputJsonValue {
  const { id: _id, namespace: _ns, ...rest } = def;
  return rest as Prisma.InputJsonValue;
}

async function writeVersion(tx: Tx, row: Mock, actor: Actor, change: string) {
  await tx.mockVersion.create({ data: { mockPk: row.pk, version: row.version, definition: row.definition as Prisma.InputJsonValue, createdBy: actor.user.username, change } });
}

async function overwrite(tx: Tx, existing: Mock, def: MockBody, actor: Actor, change: string): Promise<Mock> {
  const row = await tx.mock.update({
    where: { pk: existing.pk },
    // The database increments, so two concurrent overwrites get distinct versions instead of a clash.
    data: { ...columnsOf(def), definition: definitionOf(def), version: { increment: 1 }, deletedAt: null },
  });
  await writeVersion(tx, row, actor, change);
  return row;
}

async function create(tx: Tx, scope: NamespaceScope, def: MockBody, actor: Actor): Promise<Mock> {
  const row = await tx.mock.create({
    data: { id: def.id ?? randomUUID(), namespaceId: scope.id, ...columnsOf(def), definition: definitionOf(def), createdBy: actor.user.username },
  });
  await writeVersion(tx, row, actor, "created");
  return row;
}

async function findDuplicate(tx: Tx, scope: NamespaceScope, def: MockBody) {
  const { method, route } = endpointOf(def);
  if (route === null) return null;
  const sameEndpoint = await tx.mock.findMany({ where: { namespaceId: scope.id, deletedAt: null, protocol: protocolOf(def), method, route } });
  const keys = matchingKeys(def);
  const body = canonical(definitionOf(def));
  for (const m of sameEndpoint) {
    const other = MockInput.safeParse(m.definition);
    if (!other.success || matchingKeys(other.data) !== keys) continue;
    return { mock: m, level: canonical(definitionOf(other.data)) === body ? ("strict" as const) : ("similar" as const) };
  }
  return null;
}

export async function saveMock(actor: Actor, scope: NamespaceScope, def: MockBody, intent?: "overwrite" | "create_new"): Promise<SaveResult> {
  assertServable(def);
  const result = await db().$transaction(async (tx) => {
    await assertKnownGrpcMethods(tx, scope.id, [{ def }]);
    if (def.folderId) {
      const folder = await tx.mockFolder.findFirst({ where: { id: def.folderId, namespaceId: scope.id }, select: { id: true } });
      if (!folder) throw errors.validation("No such folder in this namespace", [{ location: "body", field: "folderId", message: "unknown folder" }]);
    }
    if (def.id) {
      const sameId = await tx.mock.findUnique({ where: { namespaceId_id: { namespaceId: scope.id, id: def.id } } });
      if (sameId) {
        if (intent === "create_new") throw errors.conflict(`A mock with id '${def.id}' already exists`, [{ location: "body", field: "id", message: "already taken" }]);
        return { row: await overwrite(tx, sameId, def, actor, "overwritten"), overwritten: true };
      }
    }
    if (intent !== "create_new") {
      const dup = await findDuplicate(tx, scope, def);
      if (dup && intent === "overwrite") return { row: await overwrite(tx, dup.mock, { ...def, id: dup.mock.id }, actor, "overwritten"), overwritten: true };
      if (dup) {
        throw new AppError("duplicate_entity", `A mock for ${summaryOf(def)} with the same conditions exists: '${dup.mock.id}'. Use ?intent=overwrite or ?intent=create_new.`, {
          status: 409,
          extra: { matchLevel: dup.level, existing: { id: dup.mock.id, summary: summaryOf(def) } },
        });
      }
    }
    return { row: await create(tx, scope, def, actor), overwritten: false };
  });
  await notifyMocksChanged(scope.id);
  return { overwritten: result.overwritten, mock: { id: result.row.id, namespace: scope.name, createdAt: result.row.createdAt.getTime(), useCounter: result.row.useCounter } };
}

export async function findMock(scope: NamespaceScope, id: string, opts: { includeDeleted?: boolean } = {}) {
  const row = await db().mock.findUnique({ where: { namespaceId_id: { namespaceId: scope.id, id } } });
  if (!row || (row.deletedAt && !opts.includeDeleted)) throw errors.notFound("Mock");
  return row;
}

export async function getMock(scope: NamespaceScope, id: string): Promise<StoredMock> {
  return storedView(await findMock(scope, id, { includeDeleted: true }), scope.name);
}

export { storedView };

// Bulk writers (server/services/mock-rows.ts) fill the same columns from a definition.
export { columnsOf, definitionOf };
