// Cron expressions of API-tester schedules, through croner: validation with
// its own messages, the next occurrences in an IANA time zone, and a short
// human hint. Browser-safe (no database, no node:*), so the UI validates live with the same code
// the server uses.
import { Cron } from "croner";

/** Nicknames croner knows; everything else must be the classic five fields (minute granularity, like Postman monitors). */
const NICKNAMES = new Set(["@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly"]);

export function timezoneError(timezone: string): string | null {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: timezone });
    return null;
  } catch {
    return `'${timezone}' is not an IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)`;
  }
}

/** null when the expression is usable; otherwise what is wrong with it. */
export function cronError(expression: string): string | null {
  const text = expression.trim();
  if (!text) return "the cron expression is empty";
  if (!NICKNAMES.has(text.toLowerCase())) {
    const parts = text.split(/\s+/).length;
    if (parts !== 5) return `a cron expression has five fields (minute hour day-of-month month day-of-week), this has ${parts}`;
  }
  try {
    new Cron(text, { paused: true });
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

function pattern(expression: string, timezone: string) {
  return new Cron(expression.trim(), { paused: true, timezone });
}

/** The first `count` occurrences strictly after `after`. Assumes a valid expression and zone. */
export function nextOccurrences(expression: string, timezone: string, after: Date, count: number): Date[] {
  return pattern(expression, timezone).nextRuns(count, after);
}

export function nextOccurrence(expression: string, timezone: string, after: Date): Date | null {
  return pattern(expression, timezone).nextRun(after);
}

/**
 * Occurrences in (from, to], oldest first, at most `limit`: what was missed
 * while no scheduler ran.
 */
export function occurrencesBetween(expression: string, timezone: string, from: Date, to: Date, limit: number): Date[] {
  const cron = pattern(expression, timezone);
  const out: Date[] = [];
  let cursor: Date | null = from;
  while (out.length < limit) {
    cursor = cron.nextRun(cursor);
    if (!cursor || cursor > to) break;
    out.push(cursor);
  }
  return out;
}

const DAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];
const pad = (n: string) => n.padStart(2, "0");

/** A short English reading of common shapes; null when the expression is not one of them. */
export function describeCron(expression: string): string | null {
  const text = expression.trim().toLowerCase();
  const nick: Record<string, string> = { "@yearly": "once a year (1 January, 00:00)", "@annually": "once a year (1 January, 00:00)", "@monthly": "on the 1st of every month at 00:00", "@weekly": "every Sunday at 00:00", "@daily": "every day at 00:00", "@midnight": "every day at 00:00", "@hourly": "every hour, on the hour" };
  if (nick[text]) return nick[text];
  const f = text.split(/\s+/);
  if (f.length !== 5) return null;
  const [min, hour, dom, mon, dow] = f;
  const everyDay = dom === "*" && mon === "*";
  if (f.every((x) => x === "*")) return "every minute";
  const step = /^\*\/(\d+)$/;
  if (step.test(min) && hour === "*" && everyDay && dow === "*") return `every ${min.match(step)![1]} minutes`;
  if (/^\d+$/.test(min) && hour === "*" && everyDay && dow === "*") return `every hour at minute ${min}`;
  if (/^\d+$/.test(min) && step.test(hour) && everyDay && dow === "*") return `every ${hour.match(step)![1]} hours at minute ${min}`;
  if (/^\d+$/.test(min) && /^\d+$/.test(hour)) {
    const at = `at ${pad(hour)}:${pad(min)}`;
    if (everyDay && dow === "*") return `every day ${at}`;
    if (everyDay && dow === "1-5") return `on weekdays ${at}`;
    if (everyDay && /^[0-6]$/.test(dow)) return `every ${DAYS[Number(dow)]} ${at}`;
    if (/^\d+$/.test(dom) && mon === "*" && dow === "*") return `on day ${dom} of every month ${at}`;
  }
  return null;
}
