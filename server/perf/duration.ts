// k6 writes durations as Go does ("30s", "1m30s", "250ms", "1.5h") and
// accepts a bare number as milliseconds. One parser for options, stages,
// timeouts and `delayAbortEval`.
const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, "µs": 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+(?:\.\d+)?|\.\d+)(ns|us|µs|ms|s|m|h|d)/y;

export class DurationError extends Error {}

/** Milliseconds of a k6 duration; throws DurationError naming what it could not read. */
export function parseDuration(input: string | number): number {
  if (typeof input === "number") {
    if (!Number.isFinite(input) || input < 0) throw new DurationError(`invalid duration ${input}: must be a finite number of milliseconds ≥ 0`);
    return input;
  }
  const text = input.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === "") throw new DurationError("invalid duration \"\": empty");
  let ms = 0;
  PART.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    PART.lastIndex = at;
    const m = PART.exec(text);
    if (!m) throw new DurationError(`invalid duration "${input}": expected a number and a unit (ms, s, m, h) at "${text.slice(at)}"`);
    ms += Number(m[1]) * UNIT_MS[m[2]];
    at = PART.lastIndex;
  }
  return ms;
}

/** k6's way of printing a duration in summaries: "1m30s", "250ms", "1.2s". */
export function formatDuration(ms: number): string {
  if (ms < 1) return `${round(ms * 1000, 2)}µs`;
  if (ms < 1000) return `${round(ms, 2)}ms`;
  if (ms < 60_000) return `${round(ms / 1000, 2)}s`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = round((ms % 60_000) / 1000, 1);
  return `${h ? `${h}h` : ""}${m ? `${m}m` : ""}${s ? `${s}s` : ""}` || "0s";
}

function round(n: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
