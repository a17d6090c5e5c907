// Undefined requests: stub requests no mock answered. The stub path's recorder
// hands them over in batches (recordUndefinedRequests); repeats of one request
// shape (its signature) count up one row instead of adding rows. Users list
// them, ignore or delete them, or turn one into a mock.
import { createHash } from "node:crypto";
import type { z } from "zod";
import type { Actor } from "@/server/auth/actor";
import { MockInput } from "@/server/contracts/mock";
import type { SaveResult } from "@/server/contracts/mock-api";
import type { CreateMockFromUndefinedInput, ListUndefinedRequestsQuery, UndefinedRequestView } from "@/server/contracts/organisation-endpoints";
import { db, Prisma, type UndefinedRequest } from "@/server/db/client";
import { graphqlBlockOfCapture } from "@/server/engine/protocols/graphql";
import { soapMockOfCapture } from "@/server/engine/protocols/soap";
import { errors } from "@/server/errors";
import { saveMock } from "./mocks";
import { MOCK_FROM_UNDEFINED } from "./undefined-to-mock";
import type { NamespaceScope } from "./namespace-access";
import { boundCapturedBody, boundCapturedRecord, storableText } from "./request-logs";

export interface UndefinedRequestItem {
  namespaceId: string;
  /** Default "http". */
  protocol?: string;
  method: string;
  /** Path after /stubs/<namespace>. */
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  body: unknown;
  /** How many times this request was seen (default 1). */
  count?: number;
}

/** Signatures longer than this end in a hash, so the unique index's entries stay small. */
const MAX_SIGNATURE = 512;
/** Distinct signatures per INSERT: 10 parameters each stays far below PostgreSQL's 65,535. */
const ROWS_PER_STATEMENT = 2000;

/**
 * The identity of a request shape: protocol (when not http), upper-case method,
 * path, and the sorted names of its query parameters — not their values, so
 * /orders?page=1 and /orders?page=2 are one row, /orders?status=x another.
 */
export function signatureOf(item: Pick<UndefinedRequestItem, "protocol" | "method" | "path" | "query">): string {
  const keys = Object.keys(item.query ?? {}).sort();
  const protocol = item.protocol && item.protocol !== "http" ? `${item.protocol}:` : "";
  const text = `${protocol}${item.method.toUpperCase()} ${item.path}${keys.length ? `?${keys.join("&")}` : ""}`.replace(/\u0000/g, "\ufffd");
  if (text.length <= MAX_SIGNATURE) return text;
  return `${text.slice(0, MAX_SIGNATURE - 80)}… sha256:${createHash("sha256").update(text).digest("hex")}`;
}

interface PendingRow {
  namespaceId: string;
  protocol: string;
  method: string;
  path: string;
  signature: string;
  headers: string;
  query: string;
  body: string | null;
  count: number;
}

/**
 * Upserts a batch by (namespace, signature): new shapes insert a row, known
 * ones add to `count` and move `lastSeenAt`, keeping the latest request as the
 * sample. One INSERT … ON CONFLICT DO UPDATE statement per batch (up to
 * 2,000 distinct signatures). Rows for a namespace that no longer exists are
 * skipped rather than failing the batch.
 */
export async function recordUndefinedRequests(items: UndefinedRequestItem[]): Promise<void> {
  // PostgreSQL refuses to update one row twice in one statement, so repeats
  // within the batch are folded first; the later request is the sample.
  const folded = new Map<string, PendingRow>();
  for (const item of items) {
    const method = storableText(item.method.toUpperCase(), 32);
    const path = storableText(item.path, 8192);
    const query = boundCapturedRecord(item.query);
    const signature = signatureOf({ protocol: item.protocol, method, path, query: item.query });
    const key = `${item.namespaceId}\u0000${signature}`;
    const body = boundCapturedBody(item.body);
    folded.set(key, {
      namespaceId: item.namespaceId,
      protocol: storableText(item.protocol ?? "http", 32),
      method,
      path,
      signature: storableText(signature, MAX_SIGNATURE * 4),
      headers: JSON.stringify(boundCapturedRecord(item.headers)),
      query: JSON.stringify(query),
      body: body === undefined ? null : JSON.stringify(body),
      count: Math.min((folded.get(key)?.count ?? 0) + (item.count ?? 1), 2_147_483_647),
    });
  }
  // One lock order for every writer (namespace, signature): concurrent batches from several processes cannot deadlock.
  const rows = [...folded.values()].sort((a, b) => (a.namespaceId === b.namespaceId ? (a.signature < b.signature ? -1 : 1) : a.namespaceId < b.namespaceId ? -1 : 1));
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
    const values = rows
      .slice(i, i + ROWS_PER_STATEMENT)
      .map((r) => Prisma.sql`(${r.namespaceId}::uuid, ${r.protocol}::text, ${r.method}::text, ${r.path}::text, ${r.signature}::text, ${r.headers}::jsonb, ${r.query}::jsonb, ${r.body}::jsonb, ${r.count}::int)`);
    await db().$executeRaw`
      INSERT INTO "UndefinedRequest" ("id", "namespaceId", "protocol", "method", "path", "signature", "headers", "query", "body", "count", "firstSeenAt", "lastSeenAt")
      SELECT gen_random_uuid(), v.ns, v.protocol, v.method, v.path, v.signature, v.headers, v.query, v.body, v.count, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC'
      FROM (VALUES ${Prisma.join(values)}) AS v(ns, protocol, method, path, signature, headers, query, body, count)
      JOIN "Namespace" n ON n."id" = v.ns
      ON CONFLICT ("namespaceId", "signature") DO UPDATE SET
        "count" = LEAST("UndefinedRequest"."count"::bigint + EXCLUDED."count", 2147483647)::int,
        "lastSeenAt" = EXCLUDED."lastSeenAt",
        "path" = EXCLUDED."path",
        "headers" = EXCLUDED."headers",
        "query" = EXCLUDED."query",
        "body" = EXCLUDED."body"`;
  }
}

type View = z.output<typeof UndefinedRequestView>;

function view(r: UndefinedRequest): View {
  return {
    id: r.id,
    protocol: r.protocol,
    method: r.method,
    path: r.path,
    query: (r.query ?? {}) as Record<string, unknown>,
    headers: (r.headers ?? {}) as Record<string, unknown>,
    body: r.body ?? null,
    count: r.count,
    firstSeenAt: r.firstSeenAt.toISOString(),
    lastSeenAt: r.lastSeenAt.toISOString(),
    ignored: r.ignored,
  };
}

export async function listUndefinedRequests(scope: NamespaceScope, q: z.output<typeof ListUndefinedRequestsQuery>) {
  const where: Prisma.UndefinedRequestWhereInput = { namespaceId: scope.id };
  if (!q.includeIgnored) where.ignored = false;
  if (q.search) {
    where.OR = [{ path: { contains: q.search, mode: "insensitive" } }, { method: { contains: q.search, mode: "insensitive" } }];
  }
  const [rows, total] = await Promise.all([
    db().undefinedRequest.findMany({ where, orderBy: [{ lastSeenAt: "desc" }, { id: "asc" }], skip: q.offset, take: q.limit }),
    db().undefinedRequest.count({ where }),
  ]);
  return { undefinedRequests: rows.map(view), total, limit: q.limit, offset: q.offset };
}

export async function setUndefinedRequestIgnored(scope: NamespaceScope, id: string, ignored: boolean): Promise<View> {
  // updateMany scopes the write to the namespace; a row of another namespace is "not found".
  const { count } = await db().undefinedRequest.updateMany({ where: { id, namespaceId: scope.id }, data: { ignored } });
  const row = count ? await db().undefinedRequest.findUnique({ where: { id } }) : null;
  if (!row) throw errors.notFound("Undefined request");
  return view(row);
}

export async function deleteUndefinedRequests(scope: NamespaceScope, ids: string[]) {
  const { count } = await db().undefinedRequest.deleteMany({ where: { namespaceId: scope.id, id: { in: ids } } });
  return { deleted: count };
}

export async function clearUndefinedRequests(scope: NamespaceScope) {
  const { count } = await db().undefinedRequest.deleteMany({ where: { namespaceId: scope.id } });
  return { deleted: count };
}

/** Per protocol, the mock block (and default response) a captured request becomes. */
const CAPTURE_TARGETS: Record<string, (row: UndefinedRequest) => { block: Record<string, unknown>; response: unknown } | undefined> = {
  http: (row) => ({ block: { http: { route: row.path, httpMethod: row.method } }, response: { statusCode: 200, payload: {} } }),
  sse: (row) => ({ block: { sse: { eventPath: row.path } }, response: { sseEventChain: { events: [{ data: {} }] } } }),
  // "CONNECT <path>" (no mock at that path) or "MESSAGE <path> <event>" (no mock for that message).
  socket: (row) => {
    const space = row.path.indexOf(" ");
    const serverName = space < 0 ? row.path : row.path.slice(0, space);
    const event = row.method === "MESSAGE" && space >= 0 ? row.path.slice(space + 1) : undefined;
    return { block: { socket: { serverName, event } }, response: { payload: {} } };
  },
  // The runner's TCP/UDP listeners capture "MESSAGE /<serverName> <event>" too: they are socket mocks.
  tcp: (row) => CAPTURE_TARGETS.socket(row),
  udp: (row) => CAPTURE_TARGETS.socket(row),
  mcp: (row) => fromShape("mcp", row),
  // "/<package.Service>/<Method>", the call's path: answers OK with an empty message.
  grpc: (row) => {
    const m = /^\/([^/]+)\/([^/]+)$/.exec(row.path);
    return m ? { block: { grpc: { service: m[1], method: m[2] } }, response: { statusCode: 0, payload: {} } } : undefined;
  },
  s3: (row) => fromShape("s3", row),
  // "/<serverName>": a mock that accepts every mail to that server (the runner's "MAIL" captures).
  smtp: (row) => ({ block: { smtp: { serverName: row.path.replace(/^\//, "") } }, response: { payload: "OK: message queued" } }),
  // "<path> <operation> <field>"
  graphql: (row) => {
    const graphql = graphqlBlockOfCapture(row.path);
    return graphql ? { block: { graphql }, response: { statusCode: 200, payload: {} } } : undefined;
  },
  // "<path> <operation>": answers an empty <operation>Response.
  soap: (row) => {
    const soap = soapMockOfCapture(row.path);
    return soap ? { block: { soap: soap.soap }, response: soap.response } : undefined;
  },
};

/** MCP and S3 rows (./undefined-to-mock); a `response` key there replaces the default answer. */
function fromShape(protocol: "mcp" | "s3", row: UndefinedRequest) {
  const shaped = MOCK_FROM_UNDEFINED[protocol](row);
  if (!shaped) return undefined;
  const { response, ...block } = shaped;
  return { block, response: "response" in shaped ? response : { statusCode: 200, payload: {} } };
}

/**
 * A mock of the captured request's protocol (HTTP: the captured method and path;
 * SSE: the path; WebSocket: the path and event; GraphQL: path, operation and
 * field; SOAP: path and operation; MCP and S3 per ./undefined-to-mock), answering 200 with {} (SSE:
 * one event with {}) unless the body gives a response, saved through saveMock (duplicate detection, versions,
 * notification); then the undefined request is deleted: it is resolved, and
 * if the mock ever stops answering, the next miss shows up as a new row.
 */
export async function createMockFromUndefinedRequest(actor: Actor, scope: NamespaceScope, id: string, input: z.output<typeof CreateMockFromUndefinedInput>): Promise<SaveResult> {
  const { target } = await captureTarget(scope, id);
  const parsed = MockInput.safeParse({ id: input.id, ...target.block, response: input.response ?? target.response, tags: input.tags });
  if (!parsed.success) {
    // The captured method or path is not something a mock can hold (e.g. a WebDAV method, a 5 KB path).
    const details = parsed.error.issues.map((i) => ({ location: "body" as const, field: i.path.map(String).join("."), message: i.message }));
    throw errors.validation(`The captured request cannot become a mock: ${details[0]?.field} ${details[0]?.message}`, details);
  }
  return saveAndResolve(actor, scope, id, parsed.data);
}

/** The captured request and the mock it becomes; 404 when it is not in the namespace, 400 for a protocol with no such mapping. */
async function captureTarget(scope: NamespaceScope, id: string) {
  const row = await db().undefinedRequest.findFirst({ where: { id, namespaceId: scope.id } });
  if (!row) throw errors.notFound("Undefined request");
  const target = Object.hasOwn(CAPTURE_TARGETS, row.protocol) ? CAPTURE_TARGETS[row.protocol](row) : undefined;
  if (!target) {
    throw errors.validation(`Undefined ${row.protocol} requests cannot become a mock this way`, [{ location: "path", field: "id", message: `protocol ${row.protocol}` }]);
  }
  return { row, target };
}

/**
 * saveMock runs its own transaction; the delete after it is a separate
 * statement. If that one fails, the mock exists and the captured request
 * stays listed (deletable by hand): nothing is half-written.
 */
async function saveAndResolve(actor: Actor, scope: NamespaceScope, id: string, def: z.output<typeof MockInput>, intent?: "overwrite" | "create_new") {
  const result = await saveMock(actor, scope, def, intent);
  await db().undefinedRequest.deleteMany({ where: { id, namespaceId: scope.id } });
  return result;
}

/**
 * What the mock editor opens with for an undefined request (the web console's
 * "create mock from this"): the captured request, and a draft mock for its
 * method and path answering 200 with {} — the same mock create-mock makes.
 */
export async function mockDraftFromUndefinedRequest(scope: NamespaceScope, id: string): Promise<{ request: View; draft: z.input<typeof MockInput> }> {
  const { row, target } = await captureTarget(scope, id);
  return { request: view(row), draft: { ...target.block, response: target.response } as z.input<typeof MockInput> };
}

/**
 * Saves a mock the user made (in the editor) from an undefined request, with
 * saveMock's duplicate detection and intents; once saved, the undefined
 * request is resolved and deleted, as with createMockFromUndefinedRequest.
 */
export async function saveMockForUndefinedRequest(actor: Actor, scope: NamespaceScope, id: string, def: z.output<typeof MockInput>, intent?: "overwrite" | "create_new"): Promise<SaveResult> {
  const row = await db().undefinedRequest.findFirst({ where: { id, namespaceId: scope.id }, select: { id: true } });
  if (!row) throw errors.notFound("Undefined request");
  return saveAndResolve(actor, scope, id, def, intent);
}
