// Dates as people read them. Rendered only in the browser (lists load after
// mount), so the viewer's locale and time zone apply without hydration drift.
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
// Log lines a few milliseconds apart must not look simultaneous.
const precise = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit", fractionalSecondDigits: 3, hourCycle: "h23" });

export function formatDateTime(iso: string | null | undefined, fallback = "—"): string {
  return iso ? dateTime.format(new Date(iso)) : fallback;
}

/** "Nov 23, 16:12:03.417": to the millisecond, for request logs. */
export function formatPreciseTime(iso: string | null | undefined, fallback = "—"): string {
  return iso ? precise.format(new Date(iso)) : fallback;
}

export function formatDate(iso: string | null | undefined, fallback = "—"): string {
  return iso ? dateOnly.format(new Date(iso)) : fallback;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

/** "in 3 days", "2 hours ago", "now". */
export function formatRelative(iso: string | null | undefined, fallback = "—", now = Date.now()): string {
  if (!iso) return fallback;
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(0, "second");
}
