// The process's one HitRecorder for served traffic, with its sinks (request
// logs, use counters of unlimited mocks, undefined requests, live events), and
// the two calls every adapter's answer goes through: recordHit and recordMiss.
import type { ServedProtocol } from "@/server/engine/protocols";
import type { MockDefinition } from "@/server/contracts/mock";
import { publishLive, type LiveEvent } from "@/server/services/live-events";
import { recordRequestLogs, trimRequestLogs, type RequestLogRow } from "@/server/services/request-logs";
import { recordUndefinedRequests } from "@/server/services/undefined-requests";
import { ANNOUNCE_PER_BATCH, HitRecorder, LOG_KEEP, type HitRecord } from "./hit-recorder";
import type { ServingScope } from "./scope";
import { addUses } from "./use-limiter";

const g = globalThis as unknown as { __polymockStubRecorder?: HitRecorder };
const TRIM_EVERY_MS = 10 * 60_000;
let lastTrim = Date.now();

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

function logRow(r: HitRecord): RequestLogRow {
  const { answer, ...row } = r;
  return answer ? { ...row, response: { status: r.status, headers: answer.headers, body: answer.body } } : row;
}

export function stubRecorder(): HitRecorder {
  g.__polymockStubRecorder ??= new HitRecorder({
    async writeHits(batch) {
      await recordRequestLogs(batch.flatMap((m) => m.records.map(logRow)), { replacing: batch.filter((m) => m.hits >= LOG_KEEP) });
      await addUses(batch);
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

/** What the request log shows of a request; unset fields are the scope's. */
export interface LoggedRequest {
  method: string;
  url?: string;
  headers?: Record<string, string[]>;
  query?: Record<string, string[]>;
  body: unknown;
}

/** Logs a hit (request log, use counter, live event) unless the mock is transient. */
export function recordHit(scope: ServingScope, mock: MockDefinition, status: number, req: LoggedRequest, response?: { headers?: unknown; body?: unknown }) {
  if (mock.transient) return;
  stubRecorder().hit(new Hit(scope, mock, status, req, response));
}

/**
 * A HitRecord built by a constructor rather than an object literal: V8 tracks
 * survival per literal site and, having seen the request log keep every
 * record at start-up, allocated all later ones in the old generation, where
 * each dead record kept its request's young objects alive through the next
 * scavenges (decisions.md, "The lean gRPC path"). Instances of a class have
 * no such site.
 */
// The fields are HitRecord's, declared once there.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging, @typescript-eslint/no-empty-object-type
interface Hit extends HitRecord {}
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
class Hit {
  constructor(scope: ServingScope, mock: MockDefinition, status: number, req: LoggedRequest, response: { headers?: unknown; body?: unknown } | undefined) {
    this.namespaceId = scope.index.namespaceId;
    this.namespace = scope.namespace;
    this.mockId = mock.id;
    this.countUse = mock.useLimiter === 0;
    this.calledAt = Date.now();
    this.method = req.method;
    this.url = req.url ?? scope.path + scope.search;
    this.headers = req.headers ?? scope.headers;
    this.query = req.query ?? scope.query;
    this.body = req.body;
    this.status = status;
    this.durationMs = performance.now() - scope.started;
    this.answer = response;
  }
}

/** Captures an undefined request under its protocol. `path` may carry protocol detail (e.g. "/graphql query users"). */
export function recordMiss(scope: ServingScope, miss: { protocol: ServedProtocol | "tcp" | "udp"; method: string; path?: string; body: unknown }) {
  stubRecorder().miss({
    namespaceId: scope.index.namespaceId,
    namespace: scope.namespace,
    protocol: miss.protocol,
    method: miss.method,
    path: miss.path ?? scope.path,
    query: scope.query,
    headers: scope.headers,
    body: miss.body,
  });
}
