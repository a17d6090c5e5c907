// Per-hit bookkeeping off the response path: request logs, use counters,
// undefined-request capture and live events are queued in memory and written
// in batches. A full queue drops the oldest log rows rather than slowing stub
// traffic; drain() flushes everything on shutdown (SIGTERM).
import { logger } from "@/server/lib/logger";

export interface HitRecord {
  namespaceId: string;
  namespace: string;
  mockId: string;
  /** Limited mocks count their uses inline (exactly); the others are counted here. */
  countUse: boolean;
  calledAt: Date;
  method: string;
  url: string;
  headers: Record<string, string[]>;
  query: Record<string, string[]>;
  body: unknown;
  status: number;
  durationMs: number;
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

export interface RecorderSinks {
  writeHits(hits: HitRecord[]): Promise<void>;
  writeMisses(misses: MissRecord[]): Promise<void>;
}

const FLUSH_EVERY_MS = 200;
const BATCH = 1000;
const MAX_QUEUED = 50_000;

export class HitRecorder {
  private hits: HitRecord[] = [];
  private misses: MissRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  dropped = 0;

  constructor(private readonly sinks: RecorderSinks) {}

  hit(record: HitRecord) {
    if (this.hits.length >= MAX_QUEUED) {
      this.hits.shift();
      this.dropped++;
    }
    this.hits.push(record);
    this.schedule();
  }

  miss(record: MissRecord) {
    if (this.misses.length >= MAX_QUEUED) {
      this.misses.shift();
      this.dropped++;
    }
    this.misses.push(record);
    this.schedule();
  }

  private schedule() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, FLUSH_EVERY_MS);
    this.timer.unref();
  }

  /** Writes what is queued; concurrent calls share one flush. */
  flush(): Promise<void> {
    this.flushing ??= this.flushOnce().finally(() => {
      this.flushing = undefined;
      if (this.hits.length || this.misses.length) this.schedule();
    });
    return this.flushing;
  }

  private async flushOnce() {
    while (this.hits.length || this.misses.length) {
      const hits = this.hits.splice(0, BATCH);
      const misses = this.misses.splice(0, BATCH);
      try {
        if (hits.length) await this.sinks.writeHits(hits);
        if (misses.length) await this.sinks.writeMisses(misses);
      } catch (err) {
        // Bookkeeping must never take stub traffic down; the rows of a failed batch are lost and logged.
        logger().error({ err, hits: hits.length, misses: misses.length }, "could not write stub bookkeeping");
        return;
      }
    }
  }

  /** Flushes everything still queued (graceful shutdown). */
  async drain() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
    if (this.hits.length || this.misses.length) await this.flush();
  }

  get queued() {
    return this.hits.length + this.misses.length;
  }
}
