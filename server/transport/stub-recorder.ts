// The process's one HitRecorder for stub traffic, with its sinks: request
// logs, use counters of unlimited mocks, undefined requests, live events.
import { db } from "@/server/db/client";
import { ANNOUNCE_PER_BATCH, HitRecorder, LOG_KEEP, type HitRecord, type MockHits } from "@/server/services/hit-recorder";
import { publishLive, type LiveEvent } from "@/server/services/live-events";
import { recordRequestLogs, trimRequestLogs } from "@/server/services/request-logs";
import { recordUndefinedRequests } from "@/server/services/undefined-requests";

const g = globalThis as unknown as { __polymockStubRecorder?: HitRecorder };
const TRIM_EVERY_MS = 10 * 60_000;
let lastTrim = Date.now();

/** One UPDATE per mock with its number of uses in the batch. */
async function countUses(batch: MockHits[]) {
  for (const m of batch) {
    if (m.uses === 0) continue;
    await db().$executeRaw`UPDATE "Mock" SET "useCounter" = LEAST("useCounter"::bigint + ${m.uses}, 2147483647)::int WHERE "namespaceId" = ${m.namespaceId}::uuid AND "id" = ${m.mockId}`;
  }
}

/** The newest hits of each namespace, as live events (oldest first). */
function liveHits(records: HitRecord[]): LiveEvent[] {
  const byNamespace = new Map<string, HitRecord[]>();
  for (const r of records) {
    const list = byNamespace.get(r.namespaceId);
    if (list) list.push(r);
    else byNamespace.set(r.namespaceId, [r]);
  }
  const events: LiveEvent[] = [];
  for (const records of byNamespace.values()) {
    const newest = records.length <= ANNOUNCE_PER_BATCH ? records : records.sort((a, b) => a.calledAt - b.calledAt).slice(-ANNOUNCE_PER_BATCH);
    for (const h of newest) {
      events.push({ type: "stub.hit", namespaceId: h.namespaceId, at: new Date(h.calledAt).toISOString(), mockId: h.mockId, method: h.method, url: h.url, status: h.status, durationMs: Math.round(h.durationMs * 100) / 100 });
    }
  }
  return events;
}

export function stubRecorder(): HitRecorder {
  g.__polymockStubRecorder ??= new HitRecorder({
    async writeHits(batch) {
      await recordRequestLogs(batch.flatMap((m) => m.records), { replacing: batch.filter((m) => m.hits >= LOG_KEEP) });
      await countUses(batch);
      await publishLive(liveHits(batch.flatMap((m) => m.records.slice(m.records.length - Math.min(m.unannounced, ANNOUNCE_PER_BATCH)))));
      if (Date.now() - lastTrim > TRIM_EVERY_MS) {
        lastTrim = Date.now();
        void trimRequestLogs(LOG_KEEP).catch(() => {});
      }
    },
    async announce(records) {
      await publishLive(liveHits(records));
    },
    async writeMisses(misses) {
      await recordUndefinedRequests(misses.map((m) => ({ namespaceId: m.namespaceId, protocol: m.protocol, method: m.method, path: m.path, query: m.query, headers: m.headers, body: m.body, count: m.count })));
      await publishLive(misses.map((m): LiveEvent => ({ type: "stub.miss", namespaceId: m.namespaceId, at: new Date().toISOString(), method: m.method, path: m.path })));
    },
  });
  return g.__polymockStubRecorder;
}
