// Per-hit bookkeeping off the response path: request logs, use counters,
// undefined-request capture and live events are gathered in memory and
// written in batches. Each mock keeps at most LOG_KEEP records per batch
// (the request log keeps no more than that per mock anyway): all of them
// below that, the newest and a uniform sample of the rest above, so a flood
// of traffic costs a counter increment per hit, not a row; misses are
// folded by shape with a count. drain() flushes everything on shutdown.
import { logger } from "@/server/lib/logger";

export interface HitRecord {
  namespaceId: string;
  namespace: string;
  mockId: string;
  /** Limited mocks count their uses inline (exactly); the others are counted here. */
  countUse: boolean;
  /** Epoch milliseconds (a number: Date objects cost on this path). */
  calledAt: number;
  method: string;
  url: string;
  headers: Record<string, string[]>;
  query: Record<string, string[]>;
  body: unknown;
  status: number;
  durationMs: number;
  /**
   * What the adapter answered (its own object, not a copy: a text-rendered
   * body is a getter, read only for the records the recorder keeps); the
   * request log's response is {status, headers, body}, bounded when written.
   */
  answer?: { headers?: unknown; body?: unknown };
}

export interface MissRecord {
  namespaceId: string;
  namespace: string;
  /** http when absent. */
  protocol?: string;
  method: string;
  path: string;
  query: Record<string, string[]>;
  headers: Record<string, string[]>;
  body: unknown;
}

/** One mock's traffic in a batch. */
export interface MockHits {
  namespaceId: string;
  mockId: string;
  /** Hits in the batch, all counted. */
  hits: number;
  /** Hits to add to the mock's use counter. */
  uses: number;
  /** The batch's records, oldest first (at most LOG_KEEP): all of them, or the newest and a uniform sample of the rest. */
  records: HitRecord[];
  /** How many of the newest records no live tick has announced yet. */
  unannounced: number;
}

/** A miss and how often the same shape (namespace, protocol, method, path) was seen in the batch; the record is the latest. */
export interface FoldedMiss extends MissRecord {
  count: number;
}

export interface RecorderSinks {
  writeHits(batch: MockHits[]): Promise<void>;
  writeMisses(misses: FoldedMiss[]): Promise<void>;
  /** The newest records of each mock since the last announcement, between the slower batches under load. */
  announce?(records: HitRecord[]): Promise<void>;
}

/** Newest records kept per mock and batch: the request log's retention per mock (request-logs.ts). */
export const LOG_KEEP = 1000;
const FLUSH_EVERY_MS = 200;
/**
 * When a batch overflowed LOG_KEEP for some mock, the next one waits longer:
 * a mock taking thousands of hits a second would otherwise have its 1,000 log
 * rows rewritten every second, and PostgreSQL, on the same two cores as the
 * stub server, would take a third of a core doing it. Live events keep their
 * pace meanwhile (LIVE_EVERY_MS).
 */
const FLUSH_UNDER_LOAD_MS = 5000;
const LIVE_EVERY_MS = 1000;
/** Live stub.hit events per mock (and per namespace) and batch or tick: a screen cannot show thousands a second; the request log keeps them. */
export const ANNOUNCE_PER_BATCH = 100;
const MAX_MISS_SHAPES = 10_000;

/**
 * One mock's records in a batch: the newest hit, and a uniform sample of the
 * hits before it (reservoir sampling, Algorithm R) of at most LOG_KEEP - 1.
 * Below LOG_KEEP hits a batch keeps every record, as before. Above it, a
 * ring of the newest 1,000 kept every record alive for its last ~70 ms at
 * 15k hits/s, so each young-generation collection copied about a thousand
 * records' objects and V8 began allocating them in the old generation; the
 * sample keeps about LOG_KEEP·ln(hits/LOG_KEEP) records in a batch instead of
 * every one, and the rest die young (gRPC G1's p99, decisions.md).
 */
class MockWindow {
  hits = 0;
  uses = 0;
  /** Hits up to which live ticks have announced. */
  announced = 0;
  private newest: HitRecord | undefined;
  private sample: HitRecord[] = [];
  /** The arrival number (0-based) of each sampled record. */
  private seqs: number[] = [];

  constructor(
    readonly namespaceId: string,
    readonly mockId: string,
  ) {}

  add(record: HitRecord) {
    if (this.newest) this.offer(this.newest, this.hits - 1);
    this.newest = record;
    this.hits++;
    if (record.countUse) this.uses++;
  }

  /** Algorithm R over the hits before the newest: the seq-th of them is kept with probability (LOG_KEEP - 1) / (seq + 1). */
  private offer(record: HitRecord, seq: number) {
    if (this.sample.length < LOG_KEEP - 1) {
      this.sample.push(record);
      this.seqs.push(seq);
      return;
    }
    const slot = Math.floor(Math.random() * (seq + 1));
    if (slot < LOG_KEEP - 1) {
      this.sample[slot] = record;
      this.seqs[slot] = seq;
    }
  }

  /** Kept records with their arrival numbers, oldest first. */
  private ordered(): { record: HitRecord; seq: number }[] {
    const out = this.sample.map((record, i) => ({ record, seq: this.seqs[i] }));
    // The sample is in arrival order until the first replacement.
    if (this.hits > LOG_KEEP) out.sort((a, b) => a.seq - b.seq);
    if (this.newest) out.push({ record: this.newest, seq: this.hits - 1 });
    return out;
  }

  take(): MockHits {
    const kept = this.ordered();
    const first = kept.findIndex((k) => k.seq >= this.announced);
    return { namespaceId: this.namespaceId, mockId: this.mockId, hits: this.hits, uses: this.uses, records: kept.map((k) => k.record), unannounced: first < 0 ? 0 : kept.length - first };
  }

  /** The newest kept records since the last call (at most `max`), oldest first. */
  announce(max: number): HitRecord[] {
    const kept = this.ordered();
    const since = this.announced;
    this.announced = this.hits;
    const out: HitRecord[] = [];
    for (let i = kept.length - 1; i >= 0 && out.length < max && kept[i].seq >= since; i--) out.push(kept[i].record);
    return out.reverse();
  }
}

function allWindows(byNamespace: Map<string, Map<string, MockWindow>>): MockWindow[] {
  const out: MockWindow[] = [];
  for (const byMock of byNamespace.values()) for (const w of byMock.values()) out.push(w);
  return out;
}

export class HitRecorder {
  /** namespaceId → mockId → window: two lookups of interned strings, no key built per hit. */
  private hitWindows = new Map<string, Map<string, MockWindow>>();
  private missShapes = new Map<string, FoldedMiss>();
  private timer: NodeJS.Timeout | undefined;
  private liveTimer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private overflowed = false;
  /** The last batch overflowed: batches are written every FLUSH_UNDER_LOAD_MS, with live ticks between them. */
  private underLoad = false;
  /** Misses not captured because too many distinct shapes arrived in one batch. */
  dropped = 0;

  constructor(private readonly sinks: RecorderSinks) {}

  hit(record: HitRecord) {
    let byMock = this.hitWindows.get(record.namespaceId);
    if (!byMock) this.hitWindows.set(record.namespaceId, (byMock = new Map()));
    let w = byMock.get(record.mockId);
    if (!w) byMock.set(record.mockId, (w = new MockWindow(record.namespaceId, record.mockId)));
    w.add(record);
    if (w.hits === LOG_KEEP + 1) this.overflowed = true;
    this.schedule();
  }

  miss(record: MissRecord) {
    const key = `${record.namespaceId}\u0000${record.protocol ?? "http"}\u0000${record.method}\u0000${record.path}`;
    const seen = this.missShapes.get(key);
    if (seen) this.missShapes.set(key, { ...record, count: seen.count + 1 });
    else if (this.missShapes.size >= MAX_MISS_SHAPES) this.dropped++;
    else this.missShapes.set(key, { ...record, count: 1 });
    this.schedule();
  }

  private schedule() {
    if (this.underLoad && !this.liveTimer && this.sinks.announce) {
      this.liveTimer = setTimeout(() => {
        this.liveTimer = undefined;
        void this.announce();
      }, LIVE_EVERY_MS);
      this.liveTimer.unref();
    }
    if (this.timer || this.flushing) return;
    this.timer = setTimeout(
      () => {
        this.timer = undefined;
        void this.flush();
      },
      this.underLoad ? FLUSH_UNDER_LOAD_MS : FLUSH_EVERY_MS,
    );
    this.timer.unref();
  }

  private async announce() {
    const records: HitRecord[] = [];
    for (const w of allWindows(this.hitWindows)) records.push(...w.announce(ANNOUNCE_PER_BATCH));
    if (records.length === 0) return;
    try {
      await this.sinks.announce!(records);
    } catch (err) {
      logger().error({ err }, "could not publish live stub events");
    }
    if (this.underLoad) this.schedule();
  }

  /** Writes what is gathered; concurrent calls share one flush. */
  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => {
      this.flushing = undefined;
      if (this.queued) this.schedule();
    });
    return this.flushing;
  }

  private async flushOnce() {
    const windows = this.hitWindows;
    const misses = this.missShapes;
    this.hitWindows = new Map();
    this.missShapes = new Map();
    this.underLoad = this.overflowed;
    this.overflowed = false;
    try {
      if (windows.size) await this.sinks.writeHits(allWindows(windows).map((w) => w.take()));
      if (misses.size) await this.sinks.writeMisses([...misses.values()]);
    } catch (err) {
      // Bookkeeping must never take stub traffic down; the rows of a failed batch are lost and logged.
      logger().error({ err, namespaces: windows.size, misses: misses.size }, "could not write stub bookkeeping");
    }
  }

  /** Flushes everything still gathered (graceful shutdown). */
  async drain() {
    if (this.timer) clearTimeout(this.timer);
    if (this.liveTimer) clearTimeout(this.liveTimer);
    this.timer = undefined;
    this.liveTimer = undefined;
    await this.flush();
    if (this.queued) await this.flush();
  }

  /** Hits and miss shapes waiting to be written. */
  get queued() {
    let n = this.missShapes.size;
    for (const w of allWindows(this.hitWindows)) n += w.hits;
    return n;
  }
}
