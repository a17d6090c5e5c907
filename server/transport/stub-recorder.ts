// The process's one HitRecorder for stub traffic, with its sinks: request
// logs, use counters of unlimited mocks, undefined requests, live events.
import { db } from "@/server/db/client";
import { HitRecorder, type HitRecord } from "@/server/services/hit-recorder";
import { publishLive, type LiveEvent } from "@/server/services/live-events";
import { recordRequestLogs, trimRequestLogs } from "@/server/services/request-logs";
import { recordUndefinedRequests } from "@/server/services/undefined-requests";

const g = globalThis as unknown as { __polymockStubRecorder?: HitRecorder };
const TRIM_EVERY_MS = 10 * 60_000;
let lastTrim = Date.now();

/** One UPDATE per mock with its number of uses in the batch. */
async function countUses(hits: HitRecord[]) {
  const uses = new Map<string, { namespaceId: string; mockId: string; n: number }>();
  for (const h of hits) {
    if (!h.countUse) continue;
    const key = `${h.namespaceId}\u0000${h.mockId}`;
    const u = uses.get(key);
    if (u) u.n++;
    else uses.set(key, { namespaceId: h.namespaceId, mockId: h.mockId, n: 1 });
  }
  for (const u of uses.values()) {
    await db().$executeRaw`UPDATE "Mock" SET "useCounter" = "useCounter" + ${u.n} WHERE "namespaceId" = ${u.namespaceId}::uuid AND "id" = ${u.mockId}`;
  }
}

export function stubRecorder(): HitRecorder {
  g.__polymockStubRecorder ??= new HitRecorder({
    async writeHits(hits) {
      await recordRequestLogs(hits.map((h) => ({ namespaceId: h.namespaceId, mockId: h.mockId, calledAt: h.calledAt, method: h.method, url: h.url, headers: h.headers, query: h.query, body: h.body, status: h.status, durationMs: h.durationMs })));
      await countUses(hits);
      await publishLive(
        hits.map((h): LiveEvent => ({ type: "stub.hit", namespaceId: h.namespaceId, at: h.calledAt.toISOString(), mockId: h.mockId, method: h.method, url: h.url, status: h.status, durationMs: Math.round(h.durationMs * 100) / 100 })),
      );
      if (Date.now() - lastTrim > TRIM_EVERY_MS) {
        lastTrim = Date.now();
        void trimRequestLogs().catch(() => {});
      }
    },
    async writeMisses(misses) {
      await recordUndefinedRequests(misses.map((m) => ({ namespaceId: m.namespaceId, protocol: m.protocol, method: m.method, path: m.path, query: m.query, headers: m.headers, body: m.body })));
      await publishLive(misses.map((m): LiveEvent => ({ type: "stub.miss", namespaceId: m.namespaceId, at: new Date().toISOString(), method: m.method, path: m.path })));
    },
  });
  return g.__polymockStubRecorder;
}
