// What a cron field says while it is typed, with the same croner code the
// server uses: the problem, or a plain-English hint and the next occurrences
// in the chosen time zone, so a mistake shows before saving.
import { cronError, describeCron, nextOccurrences, timezoneError } from "@/server/contracts/cron-schedule";
import { formatInZone } from "@/components/lib/zoned-time";

/** Occurrences the schedule dialogs list under the cron field. */
const PREVIEW = 5;

export interface CronPreview {
  error: string | null;
  hint: string | null;
  upcoming: string[];
}

export function cronPreview(cron: string, timezone: string, now = new Date()): CronPreview {
  const error = cronError(cron) ?? timezoneError(timezone);
  if (error) return { error, hint: null, upcoming: [] };
  return { error: null, hint: describeCron(cron), upcoming: nextOccurrences(cron, timezone, now, PREVIEW).map((d) => formatInZone(d, timezone)) };
}
