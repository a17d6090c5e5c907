// The request log as the web console shows it: newest first, for the whole
// namespace or one mock, with what was answered (status, time, response) next
// to what was asked. The spec's per-mock shape stays in request-logs.ts.
import { db } from "@/server/db/client";
import type { NamespaceScope } from "./namespace-access";

export interface RequestLogEntry {
  id: string;
  mockId: string;
  calledAt: string;
  method: string;
  url: string;
  status: number;
  durationMs: number;
  headers: Record<string, unknown>;
  query: Record<string, unknown>;
  body: unknown;
  response: unknown;
}

export async function listRequestLogs(scope: NamespaceScope, q: { mockId?: string; limit: number }): Promise<{ entries: RequestLogEntry[]; count: number }> {
  const rows = await db().requestLog.findMany({
    where: { namespaceId: scope.id, ...(q.mockId ? { mockId: q.mockId } : {}) },
    orderBy: [{ calledAt: "desc" }, { id: "desc" }],
    take: q.limit,
  });
  const entries = rows.map((r) => ({
    id: r.id.toString(),
    mockId: r.mockId,
    calledAt: r.calledAt.toISOString(),
    method: r.method,
    url: r.url,
    status: r.status,
    durationMs: r.durationMs,
    headers: (r.headers ?? {}) as Record<string, unknown>,
    query: (r.query ?? {}) as Record<string, unknown>,
    body: r.body ?? null,
    response: r.response ?? null,
  }));
  return { entries, count: entries.length };
}
