// k6's executors: how a scenario's iterations are started on its VUs over
// time (constant-vus, ramping-vus, per-vu-iterations, shared-iterations,
// constant-arrival-rate, ramping-arrival-rate). They work on a VU group's
// slots through ExecutorContext; the group does the VUs' bookkeeping and
// recording. Looping executors hand a VU a lease (it goes on by itself until
// the end, a count, or being turned off); arrival-rate executors start one
// iteration at a time.
import { arrivalsUntil, rampAt, type Scenario, scenarioLengthMs } from "./scenarios";

/** A VU as the executors see it. */
export interface ExecutorSlot {
  vu: { setActive(active: boolean): void };
  busy: boolean;
  dead: boolean;
}

export interface ExecutorContext<Slot extends ExecutorSlot = ExecutorSlot> {
  /** Runs up to `count` iterations (-1: no limit) on the slot while `until` (epoch ms; 0: none) is ahead; resolves with how many ran. */
  lease(slot: Slot, s: Scenario, count: number, until: number, sharedIndex: number): Promise<number>;
  /** A new VU for the scenario (arrival-rate executors grow up to maxVUs). */
  makeSlot(s: Scenario): Promise<Slot>;
  /** Resolves after `ms`, or at once when the run stops. */
  sleep(ms: number): Promise<void>;
  stopped: AbortSignal;
  /** The shared-iterations counter of a scenario, and taking one iteration from it. */
  sharedSlot(scenario: string): number;
  claim(index: number): boolean;
  /** An arrival came with no VU free and none left to make. */
  dropped(s: Scenario): void;
}

/** Runs scenario `s` on its pool of VUs; `zero` is the run's start (performance.now() time). */
export async function runScenario<Slot extends ExecutorSlot>(s: Scenario, pool: Slot[], zero: number, x: ExecutorContext<Slot>): Promise<void> {
  const stopped = x.stopped;
  if (s.startTimeMs > 0) await x.sleep(zero + s.startTimeMs - performance.now());
  if (stopped.aborted) return;
  const begin = performance.now();
  const end = begin + scenarioLengthMs(s);
  // The VUs compare Date.now() with it.
  const until = performance.timeOrigin + end;
  const hardStop = end + s.gracefulStopMs;
  const running = () => !stopped.aborted && performance.now() < end;
  const untilHardStop = () => x.sleep(hardStop - performance.now());
  switch (s.executor) {
    case "constant-vus":
      await Promise.all(
        pool.map(async (slot) => {
          while (running() && !slot.dead) await x.lease(slot, s, -1, until, -1);
        }),
      );
      break;
    case "per-vu-iterations":
      await Promise.all(
        pool.map(async (slot) => {
          let done = 0;
          while (done < s.iterations && running() && !slot.dead) done += await x.lease(slot, s, s.iterations - done, until, -1);
        }),
      );
      break;
    case "shared-iterations": {
      const slotIndex = x.sharedSlot(s.name);
      await Promise.all(
        pool.map(async (slot) => {
          while (running() && !slot.dead && x.claim(slotIndex)) await x.lease(slot, s, -1, until, slotIndex);
        }),
      );
      break;
    }
    case "ramping-vus": {
      const active = new Set<Slot>();
      const loops = new Map<Slot, Promise<void>>();
      while (running()) {
        const target = Math.round(rampAt(s.startVUs, s.stages, performance.now() - begin));
        for (const slot of pool) {
          if (active.size >= target) break;
          if (active.has(slot) || slot.dead || loops.has(slot)) continue;
          active.add(slot);
          slot.vu.setActive(true);
          const loop = (async () => {
            while (active.has(slot) && running() && !slot.dead) await x.lease(slot, s, -1, until, -1);
          })();
          loops.set(slot, loop);
          void loop.finally(() => loops.delete(slot));
        }
        // Ramping down: the newest VUs stop after their current iteration (gracefulRampDown).
        for (const slot of [...active].reverse()) {
          if (active.size <= target) break;
          active.delete(slot);
          slot.vu.setActive(false);
        }
        await x.sleep(50);
      }
      for (const slot of active) slot.vu.setActive(false);
      active.clear();
      await Promise.race([Promise.all(loops.values()), untilHardStop()]);
      break;
    }
    case "constant-arrival-rate":
    case "ramping-arrival-rate": {
      const ramp = s.executor === "ramping-arrival-rate" ? s.stages : [{ durationMs: s.durationMs, target: s.rate }];
      const startRate = s.executor === "ramping-arrival-rate" ? s.startRate : s.rate;
      const inFlight = new Set<Promise<unknown>>();
      const track = (p: Promise<unknown>) => {
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      };
      let started = 0;
      let growing = 0;
      while (running()) {
        const due = Math.floor(arrivalsUntil(startRate, ramp, s.timeUnitMs, performance.now() - begin) + 1e-9);
        while (started < due) {
          started++;
          const free = pool.find((x) => !x.busy && !x.dead);
          if (free) {
            free.busy = true;
            track(x.lease(free, s, 1, 0, -1));
          } else if (pool.length + growing < s.maxVUs) {
            growing++;
            track(
              x.makeSlot(s).then((slot) => {
                growing--;
                pool.push(slot);
                return x.lease(slot, s, 1, 0, -1);
              }),
            );
          } else x.dropped(s);
        }
        const rate = rampAt(startRate, ramp, performance.now() - begin);
        await x.sleep(rate > 0 ? Math.min(10, Math.max(1, s.timeUnitMs / rate / 2)) : 10);
      }
      await Promise.race([Promise.all(inFlight), untilHardStop()]);
      break;
    }
  }
}
