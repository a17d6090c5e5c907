import { describe, expect, it } from "vitest";
import { HitRecorder, type HitRecord, type MissRecord } from "./hit-recorder";

const hit = (i: number): HitRecord => ({ namespaceId: "n", namespace: "sandbox", mockId: `m${i % 3}`, countUse: true, calledAt: new Date(), method: "GET", url: "/x", headers: {}, query: {}, body: null, status: 200, durationMs: 1 });
const miss = (): MissRecord => ({ namespaceId: "n", namespace: "sandbox", method: "GET", path: "/nope", query: {}, headers: {}, body: null });

describe("HitRecorder", () => {
  it("writes queued hits and misses in batches, off the caller's path, and drains everything", async () => {
    const written: { hits: number; misses: number }[] = [];
    const rec = new HitRecorder({
      writeHits: async (h) => void written.push({ hits: h.length, misses: 0 }),
      writeMisses: async (m) => void written.push({ hits: 0, misses: m.length }),
    });
    for (let i = 0; i < 2500; i++) rec.hit(hit(i));
    rec.miss(miss());
    expect(written).toEqual([]); // nothing written synchronously
    await rec.drain();
    expect(written.reduce((n, w) => n + w.hits, 0)).toBe(2500);
    expect(written.reduce((n, w) => n + w.misses, 0)).toBe(1);
    expect(Math.max(...written.map((w) => w.hits))).toBeLessThanOrEqual(1000);
    expect(rec.queued).toBe(0);
  });

  it("a failing sink is logged, not thrown", async () => {
    const rec = new HitRecorder({ writeHits: async () => { throw new Error("db down"); }, writeMisses: async () => {} });
    rec.hit(hit(1));
    await expect(rec.drain()).resolves.toBeUndefined();
  });
});
