// The API tester's execution history: each user's sent requests per
// namespace, newest first. recordHistory is called by the execute endpoints:
// it masks the secret values that were sent, keeps at most 64 KiB of each
// body, and prunes the user's entries in that namespace to the newest
// HISTORY_KEEP in the same transaction as the insert.
import type { z } from "zod";
import type { Actor } from "@/server/auth/actor";
import type { ExecutedResponse, SentRequest } from "@/server/contracts/tester-execution";
import { HISTORY_BODY_BYTES, HISTORY_KEEP, type HistoryEntry, type HistoryQuery, type HistoryResponse, type HistoryVerdict } from "@/server/contracts/tester-history";
import { SECRET_MASK } from "@/server/contracts/tester-request";
import { db, type Prisma, type TesterHistory } from "@/server/db/client";
import type { NamespaceScope } from "../namespace-access";
import { transaction } from "./access";
import { maskSecretValues } from "./secrets";

export interface RecordHistoryInput {
  /** The saved request that was sent, if it was one. */
  requestId?: string | null;
  collectionId?: string | null;
  /** What went out, with real values: masked here. */
  sent: SentRequest;
  /** null when nothing came back (see `error`). */
  response: ExecutedResponse | null;
  verdict?: HistoryVerdict | null;
  error?: string | null;
  /** The secret values the request was built with (environment and collection secrets); each is masked wherever it appears. */
  secretValues?: readonly string[];
}

/** PostgreSQL text cannot hold U+0000. */
const storable = (text: string) => text.replaceAll("\0", "\uFFFD");

/** At most `limit` bytes of UTF-8, cut on a character boundary. */
function capUtf8(text: string, limit: number): { text: string; cut: boolean } {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= limit) return { text, cut: false };
  let end = limit;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--; // back to the start of the character that does not fit
  return { text: bytes.subarray(0, end).toString("utf8"), cut: true };
}

function capBody(body: string, encoding: "utf8" | "base64"): { body: string; cut: boolean } {
  if (encoding === "utf8") {
    const { text, cut } = capUtf8(body, HISTORY_BODY_BYTES);
    return { body: text, cut };
  }
  const bytes = Buffer.from(body, "base64");
  if (bytes.length <= HISTORY_BODY_BYTES) return { body, cut: false };
  return { body: bytes.subarray(0, HISTORY_BODY_BYTES).toString("base64"), cut: true };
}

/** Masks secrets in a base64 body byte-wise (as latin1 text, one character per byte): other bytes are kept exactly. */
function maskBase64(body: string, secrets: readonly string[]): string {
  const latin1 = (s: string) => Buffer.from(s, "utf8").toString("latin1");
  const values = [...new Set(secrets.filter((v) => v !== "" && v !== SECRET_MASK))].sort((a, b) => b.length - a.length).map(latin1);
  let text = Buffer.from(body, "base64").toString("latin1");
  for (const value of values) text = text.split(value).join(latin1(SECRET_MASK));
  return Buffer.from(text, "latin1").toString("base64");
}

/** The sent request as history keeps it: secret values masked, the body capped. */
export function maskedSent(sent: SentRequest, secrets: readonly string[]): SentRequest {
  const mask = (s: string) => storable(maskSecretValues(s, secrets));
  const out: SentRequest = { method: storable(sent.method), url: mask(sent.url), headers: sent.headers.map((h) => ({ key: storable(h.key), value: mask(h.value) })) };
  if (sent.body !== undefined) {
    const encoding = sent.bodyEncoding ?? "utf8";
    const masked = encoding === "base64" ? maskBase64(sent.body, secrets) : maskSecretValues(sent.body, secrets);
    out.body = capBody(masked, encoding).body;
    if (sent.bodyEncoding) out.bodyEncoding = sent.bodyEncoding;
  }
  return out;
}

function responseSummary(response: ExecutedResponse): HistoryResponse {
  const { body, cut } = capBody(response.body, response.bodyEncoding);
  return {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
    body,
    bodyEncoding: response.bodyEncoding,
    bodyTruncated: response.bodyTruncated || cut,
    size: response.size,
    timeMs: response.timings.totalMs,
    url: response.url,
  };
}

function view(row: TesterHistory): HistoryEntry {
  return {
    id: row.id,
    requestId: row.requestId,
    collectionId: row.collectionId,
    method: row.method,
    url: row.url,
    status: row.status,
    timeMs: row.timeMs,
    size: row.size,
    request: row.sent as SentRequest,
    response: (row.response ?? null) as HistoryResponse | null,
    verdict: (row.verdict ?? null) as HistoryVerdict | null,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Records one sent request for the user in the namespace and prunes their oldest entries beyond HISTORY_KEEP. */
export async function recordHistory(actor: Actor, scope: NamespaceScope, input: RecordHistoryInput): Promise<HistoryEntry> {
  const secrets = input.secretValues ?? [];
  const sent = maskedSent(input.sent, secrets);
  const response = input.response ? responseSummary(input.response) : null;
  return transaction(async (tx) => {
    // A saved request deleted meanwhile is simply not linked.
    const requestId = input.requestId ? ((await tx.testerRequest.findFirst({ where: { id: input.requestId, collection: { namespaceId: scope.id } }, select: { id: true } }))?.id ?? null) : null;
    const row = await tx.testerHistory.create({
      data: {
        namespaceId: scope.id,
        userId: actor.user.id,
        requestId,
        collectionId: input.collectionId ?? null,
        method: sent.method,
        url: sent.url,
        status: response?.status ?? null,
        timeMs: response?.timeMs ?? null,
        size: response?.size.body ?? null,
        sent: sent as unknown as Prisma.InputJsonValue,
        response: (response ?? undefined) as Prisma.InputJsonValue | undefined,
        verdict: (input.verdict ?? undefined) as Prisma.InputJsonValue | undefined,
        error: input.error == null ? null : storable(maskSecretValues(input.error, secrets)),
      },
    });
    await tx.$executeRaw`
      DELETE FROM "TesterHistory" WHERE id IN (
        SELECT id FROM "TesterHistory" WHERE "namespaceId" = ${scope.id}::uuid AND "userId" = ${actor.user.id}::uuid
        ORDER BY "createdAt" DESC, id DESC OFFSET ${HISTORY_KEEP})`;
    return view(row);
  });
}

export async function listHistory(actor: Actor, scope: NamespaceScope, query: z.output<typeof HistoryQuery>) {
  const where: Prisma.TesterHistoryWhereInput = { namespaceId: scope.id, userId: actor.user.id, ...(query.requestId ? { requestId: query.requestId } : {}) };
  const [rows, total] = await db().$transaction([
    db().testerHistory.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: query.offset, take: query.limit }),
    db().testerHistory.count({ where }),
  ]);
  return { history: rows.map(view), total, limit: query.limit, offset: query.offset };
}
