// The process's one HitRecorder for stub traffic, with its sinks: request
// logs, use counters of unlimited mocks, undefined requests, live events.
import { db } from "@/server/db/client";
import { HitRecorder, LOG_KEEP, type MockHits } from "@/server/services/hit-recorder";
import { publishLive, type LiveEvent } from "@/server/services/live-events";
import { recordRequestLogs, trimMockLogs, trimRequestLogs } from "@/server/services/request-logs";
import { recordUndefinedRequests } from "@/server/services/undefined-requests";

const g = globalThis as unknown as { __polymockStubRecorder?: HitRecorder };
const TRIM_EVERY_MS = 10 * 60_000;
/** Live stub.hit events per namespace and batch: a screen cannot show thousands a second; the request log keeps them. */
export const LIVE_HITS_PER_BATCH = 100;
let lastTrim = Date.now();

/** One UPDATE per mock with its number of uses in the batch. */
async function countUses(batch: MockHits[]) {
  for (const m of batch) {
    if (m.uses === 0) continue;
    await db().$executeRaw`UPDATE "Mock" SET "useCounter" = LEAST("useCounter"::bigint + ${m.uses}, 2147483647)::int WHERE "namespaceId" = ${m.namespaceId}::uuid AND "id" = ${m.mockId}`;
  }
}

/** The newest hits of each namespace, as live events (oldest first). */
function liveHits(batch: MockHits[]): LiveEvent[] {
  const byNamespace = new Map<string, MockHits["records"]>();
  for (const m of batch) {
    const list = byNamespace.get(m.namespaceId);
    if (list) list.push(...m.records.slice(-LIVE_HITS_PER_BATCH));
    else byNamespace.set(m.namespaceId, m.records.slice(-LIVE_HITS_PER_BATCH));
  }
  const events: LiveEvent[] = [];
  for (const records of byNamespace.values()) {
    const newest = records.length <= LIVE_HITS_PER_BATCH ? records : records.sort((a, b) => a.calledAt - b.calledAt).slice(-LIVE_HITS_PER_BATCH);
    for (const h of newest) {
      events.push({ type: "stub.hit", namespaceId: h.namespaceId, at: new Date(h.calledAt).toISOString(), mockId: h.mockId, method: h.method, url: h.url, status: h.status, durationMs: Math.round(h.durationMs * 100) / 100 });
    }
  }
  return events;
}

export function stubRecorder(): HitRecorder {
  g.__polymockStubRecorder ??= new HitRecorder({
    async writeHits(batch) {
      await recordRequestLogs(batch.flatMap((m) => m.records));
      for (const m of batch) if (m.hits >= LOG_KEEP) await trimMockLogs(m.namespaceId, m.mockId, LOG_KEEP);
      await countUses(batch);
      await publishLive(liveHits(batch));
      if (Date.now() - lastTrim > TRIM_EVERY_MS) {
        lastTrim = Date.now();
        void trimRequestLogs(LOG_KEEP).catch(() => {});
      }
    },
    async writeMisses(misses) {
      await recordUndefinedRequests(misses.map((m) => ({ namespaceId: m.namespaceId, protocol: m.protocol, method: m.method, path: m.path, query: m.query, headers: m.headers, body: m.body, count: m.count })));
      await publishLive(misses.map((m): LiveEvent => ({ type: "stub.miss", namespaceId: m.namespaceId, at: new Date().toISOString(), method: m.method, path: m.path })));
    },
  });
  return g.__polymockStubRecorder;
}
