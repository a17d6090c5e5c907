// Following a load run until it ends, wherever it runs (this process or
// runner agents): the stored parts are read each second, so the same code
// serves a local run and one split over runners. Used by the endpoints that
// answer with the finished run or stream its progress (execute-perf).
import { db } from "@/server/db/client";
import type { SeriesPoint } from "@/server/perf/k6/engine";
import { mergeSeries } from "@/server/perf/merge";
import type { PerfStatus } from "@/server/contracts/perf";

const POLL_MS = 1_000;
const ACTIVE = ["queued", "running"];

export interface WatchEvents {
  /** Points of seconds not sent before (the parts' points added up). */
  onPoints?: (points: SeriesPoint[]) => void;
  onStatus?: (status: PerfStatus) => void;
  signal?: AbortSignal;
}

/** Resolves with the final status once the run has ended (or when the signal aborts: its status then). */
export async function watchPerfRun(resultId: string, events: WatchEvents = {}): Promise<PerfStatus> {
  let lastT = 0;
  let lastStatus: string | undefined;
  for (;;) {
    const result = await db().perfResult.findUnique({ where: { id: resultId }, select: { status: true, parts: { select: { series: true } } } });
    if (!result) return "error";
    if (result.status !== lastStatus) {
      lastStatus = result.status;
      events.onStatus?.(result.status as PerfStatus);
    }
    if (events.onPoints) {
      // The newest second may still be missing a part's point: send only seconds every part has passed, except at the end.
      const merged = mergeSeries(result.parts.map((p) => p.series as unknown as SeriesPoint[]));
      const done = !ACTIVE.includes(result.status);
      const complete = done ? Infinity : Math.min(...result.parts.map((p) => ((p.series as unknown as SeriesPoint[]).at(-1)?.t ?? 0)));
      const fresh = merged.filter((p) => p.t > lastT && p.t <= complete);
      if (fresh.length) {
        lastT = fresh.at(-1)!.t;
        events.onPoints(fresh);
      }
    }
    if (!ACTIVE.includes(result.status) || events.signal?.aborted) return result.status as PerfStatus;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
