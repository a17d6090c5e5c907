// The namespace at a glance (the web console's dashboard): active mocks per
// protocol, stub hits over time from the request log, and the latest mock
// changes from the version history.
import { PROTOCOLS, type Protocol } from "@/server/contracts/mock";
import { db } from "@/server/db/client";
import type { NamespaceScope } from "./namespace-access";

/** Window → bucket size in seconds. */
export const HIT_RANGES = { "1h": { seconds: 3600, bucket: 300 }, "24h": { seconds: 86_400, bucket: 3600 }, "7d": { seconds: 7 * 86_400, bucket: 6 * 3600 } } as const;
export type HitRange = keyof typeof HIT_RANGES;

export interface DashboardSummary {
  mocksByProtocol: { protocol: Protocol; count: number }[];
  activeMocks: number;
  deletedMocks: number;
  openUndefinedRequests: number;
  hits: { at: string; hits: number; errors: number }[];
  totalHits: number;
  recent: { mockId: string; version: number; change: string; createdBy: string | null; at: string; deleted: boolean }[];
}

export async function dashboardSummary(scope: NamespaceScope, range: HitRange, now = new Date()): Promise<DashboardSummary> {
  const { seconds, bucket } = HIT_RANGES[range];
  // Buckets are aligned to the bucket size; the window starts at the first bucket that overlaps it.
  const end = Math.floor(now.getTime() / 1000 / bucket) * bucket;
  const start = end - seconds + bucket;
  const [byProtocol, deletedMocks, openUndefinedRequests, hitRows, versions] = await Promise.all([
    db().mock.groupBy({ by: ["protocol"], where: { namespaceId: scope.id, deletedAt: null }, _count: { _all: true } }),
    db().mock.count({ where: { namespaceId: scope.id, deletedAt: { not: null } } }),
    db().undefinedRequest.count({ where: { namespaceId: scope.id, ignored: false } }),
    // calledAt is stored as UTC without a zone: epoch arithmetic on it is UTC.
    db().$queryRaw<{ t: bigint; hits: bigint; errors: bigint }[]>`
      SELECT (floor(extract(epoch FROM "calledAt") / ${bucket}) * ${bucket})::bigint AS t,
             count(*) AS hits, count(*) FILTER (WHERE "status" >= 400) AS errors
      FROM "RequestLog"
      WHERE "namespaceId" = ${scope.id}::uuid AND "calledAt" >= (to_timestamp(${start}) AT TIME ZONE 'UTC')
      GROUP BY 1`,
    db().mockVersion.findMany({
      where: { mock: { namespaceId: scope.id } },
      orderBy: [{ createdAt: "desc" }, { version: "desc" }],
      take: 10,
      select: { version: true, change: true, createdBy: true, createdAt: true, mock: { select: { id: true, deletedAt: true } } },
    }),
  ]);
  const counts = new Map(byProtocol.map((r) => [r.protocol, r._count._all]));
  const mocksByProtocol = PROTOCOLS.map((protocol) => ({ protocol, count: counts.get(protocol) ?? 0 }));
  const byBucket = new Map(hitRows.map((r) => [Number(r.t), r]));
  const hits: DashboardSummary["hits"] = [];
  for (let t = start; t <= end; t += bucket) {
    const row = byBucket.get(t);
    hits.push({ at: new Date(t * 1000).toISOString(), hits: Number(row?.hits ?? 0), errors: Number(row?.errors ?? 0) });
  }
  return {
    mocksByProtocol,
    activeMocks: mocksByProtocol.reduce((n, p) => n + p.count, 0),
    deletedMocks,
    openUndefinedRequests,
    hits,
    totalHits: hits.reduce((n, h) => n + h.hits, 0),
    recent: versions.map((v) => ({ mockId: v.mock.id, version: v.version, change: v.change, createdBy: v.createdBy, at: v.createdAt.toISOString(), deleted: Boolean(v.mock.deletedAt) })),
  };
}
