// A mock's request log: rows written in batches by the stub path's recorder
// (recordRequestLogs), read newest first by GET /api/v1/mocks/{id}/logs, and
// kept to the newest N per mock by trimRequestLogs.
//
// Captured requests come from anyone who can reach /stubs, so everything
// stored is bounded and cleaned first (boundCapturedRecord / boundCapturedBody):
// a hostile request must not bloat the database or fail a whole batch.
import type { z } from "zod";
import type { MockRequestLog } from "@/server/contracts/organisation-endpoints";
import { db, Prisma, rawPool, rawTransaction } from "@/server/db/client";
import { findMock } from "./mocks";
import type { NamespaceScope } from "./namespace-access";

/** Most bytes of JSON kept for each of a captured request's headers, query and body. */
export const MAX_CAPTURE_BYTES = 64 * 1024;
/** Deeper nesting is replaced by a marker: PostgreSQL refuses very deep jsonb, and walking it could overflow the stack. */
const MAX_DEPTH = 64;
export const TRUNCATED_KEY = "_truncated";

// PostgreSQL text and jsonb cannot hold U+0000, and jsonb refuses unpaired
// UTF-16 surrogates; both become U+FFFD instead of failing the batch.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function storableText(text: string, maxBytes = MAX_CAPTURE_BYTES): string {
  const clean = text.replace(UNSTORABLE, "\ufffd");
  return Buffer.byteLength(clean) <= maxBytes ? clean : cutUtf8(clean, maxBytes);
}

function cutUtf8(text: string, maxBytes: number): string {
  // A cut inside a multi-byte character decodes to one U+FFFD; harmless.
  return Buffer.from(text, "utf8").subarray(0, maxBytes).toString("utf8");
}

function clean(value: unknown, depth: number): unknown {
  if (typeof value === "string") return value.replace(UNSTORABLE, "\ufffd");
  if (value === null || typeof value !== "object") return typeof value === "number" && !Number.isFinite(value) ? null : value;
  if (depth >= MAX_DEPTH) return "[nested too deep]";
  if (Array.isArray(value)) return value.map((v) => clean(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k.replace(UNSTORABLE, "\ufffd")] = clean(v, depth + 1);
  return out;
}

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? "null");
}

/**
 * Headers or query parameters, cleaned and cut to `maxBytes` of JSON: entries
 * are kept in order while they fit; the rest are dropped and counted under
 * the key `_truncated`, so the shape (name → list of values) stays the same.
 */
const ESCAPED_UNSTORABLE = /\\u0000|\\ud[89a-f][0-9a-f]{2}/i;

/** Headers and query parameters as HTTP gives them: names to strings or lists of strings. */
function isFlatStrings(record: Record<string, unknown>): boolean {
  for (const v of Object.values(record)) {
    if (typeof v === "string") continue;
    if (!Array.isArray(v)) return false;
    for (const x of v) if (typeof x !== "string") return false;
  }
  return true;
}

export function boundCapturedRecord(record: Record<string, unknown> | null | undefined, maxBytes = MAX_CAPTURE_BYTES): Record<string, unknown> {
  // The usual small, clean record is kept as it is: one stringify instead of one per entry
  // (a UTF-16 unit is at most 3 UTF-8 bytes, so length * 3 bounds the byte size).
  // JSON.stringify writes NUL and lone surrogates as \u escapes, which is what the check looks for.
  if (record && isFlatStrings(record)) {
    const whole = JSON.stringify(record);
    if (whole.length * 3 <= maxBytes && !ESCAPED_UNSTORABLE.test(whole)) return record;
  }
  const out: Record<string, unknown> = {};
  let used = 2;
  let dropped = 0;
  let droppedBytes = 0;
  for (const [key, value] of Object.entries(record ?? {})) {
    const entry = { [key.replace(UNSTORABLE, "\ufffd")]: clean(value, 1) };
    const size = jsonBytes(entry);
    if (used + size > maxBytes) {
      dropped++;
      droppedBytes += size;
      continue;
    }
    Object.assign(out, entry);
    used += size;
  }
  if (dropped) out[TRUNCATED_KEY] = [`${dropped} entries (${droppedBytes} bytes) dropped past ${maxBytes} bytes`];
  return out;
}

/**
 * A request body, cleaned and cut to `maxBytes`: a larger text body keeps its
 * beginning, a larger JSON body becomes the beginning of its JSON text; both
 * end with a "…[truncated …]" marker.
 */
export function boundCapturedBody(body: unknown, maxBytes = MAX_CAPTURE_BYTES): unknown {
  if (body === undefined) return undefined;
  const cleaned = clean(body, 0);
  const text = typeof cleaned === "string" ? cleaned : (JSON.stringify(cleaned) ?? "null");
  const size = Buffer.byteLength(text);
  if (size <= maxBytes) return cleaned;
  return `${cutUtf8(text, maxBytes)}…[truncated: ${size} bytes in all]`;
}

/** Json? columns: undefined is SQL NULL (no body), null is the JSON value null. */
export function jsonColumn(value: unknown): Prisma.InputJsonValue | typeof Prisma.DbNull | typeof Prisma.JsonNull {
  if (value === undefined) return Prisma.DbNull;
  if (value === null) return Prisma.JsonNull;
  return value as Prisma.InputJsonValue;
}

export interface RequestLogRow {
  namespaceId: string;
  mockId: string;
  calledAt?: Date | number;
  method: string;
  /** Path after /stubs/<namespace>, with its query string. */
  url: string;
  headers: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  status: number;
  durationMs: number;
  response?: unknown;
}

/**
 * Writes a batch of request-log rows in one statement. The rows travel as one
 * JSON parameter (json_to_recordset): building a many-parameter createMany in
 * the web process cost more CPU than the stub traffic it records.
 */
export async function recordRequestLogs(rows: RequestLogRow[], options: { replacing?: { namespaceId: string; mockId: string }[] } = {}): Promise<number> {
  if (rows.length === 0) return 0;
  const payload = JSON.stringify(
    rows.map((r) => ({
      namespaceId: r.namespaceId,
      mockId: storableText(r.mockId, 200),
      calledAt: new Date(r.calledAt ?? Date.now()).toISOString(),
      method: storableText(r.method, 32),
      url: storableText(r.url, 8192),
      headers: boundCapturedRecord(r.headers),
      query: boundCapturedRecord(r.query),
      body: boundCapturedBody(r.body) ?? null,
      status: Number.isInteger(r.status) ? r.status : 0,
      durationMs: Number.isFinite(r.durationMs) ? r.durationMs : 0,
      response: boundCapturedBody(r.response) ?? null,
    })),
  );
  const insert = `
    INSERT INTO "RequestLog" ("namespaceId", "mockId", "calledAt", "method", "url", "headers", "query", "body", "status", "durationMs", "response")
    SELECT x."namespaceId"::uuid, x."mockId", (x."calledAt"::timestamptz AT TIME ZONE 'UTC'), x."method", x."url", x."headers", x."query", x."body", x."status", x."durationMs", x."response"
    FROM json_to_recordset($1::json) AS x("namespaceId" text, "mockId" text, "calledAt" text, "method" text, "url" text, "headers" jsonb, "query" jsonb, "body" jsonb, "status" int, "durationMs" float8, "response" jsonb)`;
  const replacing = options.replacing ?? [];
  // On the serving hot path: plain pg, not Prisma (server/db/client.ts, rawPool).
  if (replacing.length === 0) return (await rawPool().query(insert, [payload])).rowCount ?? 0;
  // A batch that brought a mock its whole retention (its newest LOG_KEEP hits) replaces that mock's log:
  // an indexed delete, not a sort of old and new rows; one transaction, so a reader never sees it empty.
  return rawTransaction(async (client) => {
    for (const m of replacing) await client.query(`DELETE FROM "RequestLog" WHERE "namespaceId" = $1::uuid AND "mockId" = $2`, [m.namespaceId, m.mockId]);
    return (await client.query(insert, [payload])).rowCount ?? 0;
  });
}

/**
 * Retention: keeps the newest `maxPerMock` rows of each mock (per namespace)
 * and deletes the rest, in one statement. Returns how many rows went.
 */
export async function trimRequestLogs(maxPerMock = 1000): Promise<number> {
  if (!Number.isInteger(maxPerMock) || maxPerMock < 0) throw new RangeError("maxPerMock must be a whole number ≥ 0");
  return db().$executeRaw`
    DELETE FROM "RequestLog" WHERE "id" IN (
      SELECT "id" FROM (
        SELECT "id", row_number() OVER (PARTITION BY "namespaceId", "mockId" ORDER BY "calledAt" DESC, "id" DESC) AS rn
        FROM "RequestLog"
      ) ranked
      WHERE ranked.rn > ${maxPerMock}
    )`;
}

/** The spec's Mock request log, newest first. Recycle-bin mocks keep their log. */
export async function getMockLogs(scope: NamespaceScope, mockId: string, limit: number): Promise<z.output<typeof MockRequestLog>> {
  const mock = await findMock(scope, mockId, { includeDeleted: true });
  const rows = await db().requestLog.findMany({
    where: { namespaceId: scope.id, mockId: mock.id },
    orderBy: [{ calledAt: "desc" }, { id: "desc" }],
    take: limit,
    select: { calledAt: true, url: true, headers: true, query: true, body: true },
  });
  return {
    id: mock.id,
    requests: rows.map((r) => ({
      calledAt: r.calledAt.toISOString(),
      req: { header: (r.headers ?? {}) as Record<string, unknown>, body: r.body ?? null, queryParam: (r.query ?? {}) as Record<string, unknown>, url: r.url },
    })),
  };
}
