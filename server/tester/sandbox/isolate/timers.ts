// Inside the isolate: setTimeout and friends. A timer is only a note in the
// outbox; the host keeps the real clock and calls back in (bounded by the
// script's wall time), so no script code ever runs outside a timed entry.
import type { Run } from "./run";

export function makeTimers(run: Run, onError: (e: unknown) => void) {
  const schedule = (repeat: boolean) =>
    function (fn: unknown, ms?: unknown, ...args: unknown[]): number {
      if (typeof fn !== "function") throw new TypeError("The callback must be a function");
      if (run.timers.size >= run.limits.maxTimers) throw new RangeError(`Too many timers: at most ${run.limits.maxTimers} may be pending`);
      const delay = Math.max(0, Math.min(Number(ms) || 0, 2_147_483_647));
      const id = ++run.timerSeq;
      run.timers.set(id, { fn: fn as (...a: unknown[]) => unknown, args, ms: delay, repeat });
      run.outbox.timers.push({ id, ms: delay });
      return id;
    };
  const clear = function (id: unknown): void {
    const key = Number(id);
    if (run.timers.delete(key)) run.outbox.cancels.push(key);
  };
  const setTimeout = schedule(false);
  return {
    setTimeout,
    setInterval: schedule(true),
    setImmediate: (fn: unknown, ...args: unknown[]) => setTimeout(fn, 0, ...args),
    clearTimeout: clear,
    clearInterval: clear,
    clearImmediate: clear,
    /** The host's clock rang for timer `id`. */
    fire(id: number): void {
      const timer = run.timers.get(id);
      if (!timer) return;
      if (timer.repeat) run.outbox.timers.push({ id, ms: timer.ms });
      else run.timers.delete(id);
      try {
        timer.fn(...timer.args);
      } catch (e) {
        onError(e);
      }
    },
  };
}
