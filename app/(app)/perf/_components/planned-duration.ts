// How long a run is meant to take, from the options it was given (the saved
// config's or the run's): the duration, or the stages added up. Null when the
// script's own options decide, which the page does not know.
import { parseDuration } from "@/server/perf/duration";

export function plannedMs(options: Record<string, unknown>): number | null {
  try {
    if (Array.isArray(options.stages)) return (options.stages as { duration?: string | number }[]).reduce((n, s) => n + parseDuration(s.duration ?? 0), 0);
    if (typeof options.duration === "string" || typeof options.duration === "number") return parseDuration(options.duration);
  } catch {
    return null;
  }
  return null;
}
