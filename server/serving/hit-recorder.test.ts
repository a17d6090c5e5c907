import { afterEach, describe, expect, it, vi } from "vitest";
import { ANNOUNCE_PER_BATCH, HitRecorder, LOG_KEEP, type FoldedMiss, type HitRecord, type MissRecord, type MockHits } from "./hit-recorder";

const hit = (i: number, mockId = `m${i % 3}`, countUse = true): HitRecord => ({ namespaceId: "n", namespace: "sandbox", mockId, countUse, calledAt: Date.now(), method: "GET", url: `/x/${i}`, headers: {}, query: {}, body: null, status: 200, durationMs: 1 });
const miss = (path = "/nope", protocol?: string): MissRecord => ({ namespaceId: "n", namespace: "sandbox", protocol, method: "GET", path, query: {}, headers: {}, body: null });

function collecting() {
  const hits: MockHits[] = [];
  const misses: FoldedMiss[] = [];
  const rec = new HitRecorder({ writeHits: async (b) => void hits.push(...b), writeMisses: async (m) => void misses.push(...m) });
  return { rec, hits, misses };
}

describe("HitRecorder", () => {
  it("writes gathered hits and misses in batches, off the caller's path, and drains everything", async () => {
    const { rec, hits, misses } = collecting();
    for (let i = 0; i < 2500; i++) rec.hit(hit(i));
    rec.miss(miss());
    expect(hits).toEqual([]); // nothing written synchronously
    expect(rec.queued).toBe(2501);
    await rec.drain();
    expect(hits.reduce((n, w) => n + w.records.length, 0)).toBe(2500);
    expect(hits.reduce((n, w) => n + w.hits, 0)).toBe(2500);
    expect(hits.map((h) => h.mockId).sort()).toEqual(["m0", "m1", "m2"]);
    expect(misses).toHaveLength(1);
    expect(rec.queued).toBe(0);
  });

  it("keeps every record of a mock while a batch has at most LOG_KEEP hits", async () => {
    const { rec, hits } = collecting();
    for (let i = 0; i < LOG_KEEP; i++) rec.hit(hit(i, "busy"));
    await rec.drain();
    expect(hits[0].records.map((r) => r.url)).toEqual(Array.from({ length: LOG_KEEP }, (_, i) => `/x/${i}`));
  });

  it("above LOG_KEEP hits keeps the newest and a uniform sample of the rest, in order, and still counts every hit and use", async () => {
    const { rec, hits } = collecting();
    const n = LOG_KEEP * 20;
    for (let i = 0; i < n; i++) rec.hit(hit(i, "busy", i % 2 === 0));
    await rec.drain();
    expect(hits).toHaveLength(1);
    const [w] = hits;
    expect(w.hits).toBe(n);
    expect(w.uses).toBe(n / 2);
    expect(w.records).toHaveLength(LOG_KEEP);
    const seqs = w.records.map((r) => Number(r.url.slice(3)));
    expect(seqs.at(-1)).toBe(n - 1);
    expect(new Set(seqs).size).toBe(LOG_KEEP);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // Uniform over the batch: each quarter holds about a quarter of the sample (σ ≈ 14 records).
    for (let q = 0; q < 4; q++) {
      const inQuarter = seqs.filter((s) => s >= (q * n) / 4 && s < ((q + 1) * n) / 4).length;
      expect(inQuarter).toBeGreaterThan(LOG_KEEP / 4 - 90);
      expect(inQuarter).toBeLessThan(LOG_KEEP / 4 + 90);
    }
  });

  it("folds misses of one shape into one record with a count; protocols are distinct shapes", async () => {
    const { rec, misses } = collecting();
    for (let i = 0; i < 5; i++) rec.miss(miss("/a"));
    rec.miss(miss("/a", "graphql"));
    rec.miss(miss("/b"));
    await rec.drain();
    expect(misses.map((m) => [m.protocol ?? "http", m.path, m.count]).sort()).toEqual([["graphql", "/a", 1], ["http", "/a", 5], ["http", "/b", 1]]);
  });

  it("a failing sink is logged, not thrown", async () => {
    const rec = new HitRecorder({ writeHits: async () => { throw new Error("db down"); }, writeMisses: async () => {} });
    rec.hit(hit(1));
    await expect(rec.drain()).resolves.toBeUndefined();
  });

  describe("under sustained load", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("writes batches every 5 s after one overflowed, announces the newest hits every second meanwhile, and never announces a hit twice", async () => {
      vi.useFakeTimers();
      const hits: MockHits[] = [];
      const announced: HitRecord[][] = [];
      const rec = new HitRecorder({ writeHits: async (b) => void hits.push(...b), writeMisses: async () => {}, announce: async (r) => void announced.push(r) });
      let i = 0;
      const burst = (n: number) => {
        for (let k = 0; k < n; k++) rec.hit(hit(i++, "busy"));
      };
      burst(LOG_KEEP + 5); // overflows the first batch: written after the usual 200 ms
      await vi.advanceTimersByTimeAsync(200);
      expect(hits).toHaveLength(1);
      expect(hits[0].unannounced).toBe(LOG_KEEP);

      burst(300); // the next batch waits 5 s; a live tick announces the newest 100 after 1 s
      await vi.advanceTimersByTimeAsync(1000);
      expect(hits).toHaveLength(1);
      expect(announced).toHaveLength(1);
      expect(announced[0].map((r) => r.url)).toEqual(Array.from({ length: ANNOUNCE_PER_BATCH }, (_, k) => `/x/${i - ANNOUNCE_PER_BATCH + k}`));

      burst(7); // only what came since the last tick
      await vi.advanceTimersByTimeAsync(1000);
      expect(announced[1].map((r) => r.url)).toEqual(Array.from({ length: 7 }, (_, k) => `/x/${i - 7 + k}`));

      await vi.advanceTimersByTimeAsync(3000);
      expect(hits).toHaveLength(2);
      expect(hits[1].hits).toBe(307);
      expect(hits[1].unannounced).toBe(0);

      burst(1); // that batch did not overflow: back to 200 ms
      await vi.advanceTimersByTimeAsync(200);
      expect(hits).toHaveLength(3);
    });
  });
});
