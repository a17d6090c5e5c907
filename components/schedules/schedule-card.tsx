"use client";
// One cron schedule in a schedules list: its expression and time zone in
// words, what it runs (the page's line), an enable switch, its next
// occurrences in its own time zone, its last run, and Run now, Edit, Delete.
import { Pencil, Play, Trash2 } from "lucide-react";
import { formatInZone } from "@/components/lib/zoned-time";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { describeCron } from "@/server/contracts/cron-schedule";

/** What every schedule view shows, whatever it runs. */
export interface ScheduleSummary {
  id: string;
  name: string;
  cron: string;
  timezone: string;
  enabled: boolean;
  nextOccurrences: string[];
  lastRunAt: string | null;
  lastError: string | null;
}

/** Running a schedule now, outside its cron: the page decides what that starts. */
export interface RunNow<S> {
  run: (s: S) => void;
  isPending: (s: S) => boolean;
  /** Why it cannot run now, shown by a disabled button (a deleted target). */
  disabled?: (s: S) => boolean;
  title?: string;
}

export interface ScheduleCardProps<S extends ScheduleSummary> {
  schedule: S;
  /** A line under the expression saying what the schedule runs. */
  target?: React.ReactNode;
  /** The last run's status, linked to it when it can be opened. */
  lastRun: React.ReactNode;
  onToggle: (enabled: boolean) => void;
  toggling: boolean;
  runNow: RunNow<S>;
  onEdit: () => void;
  onDelete: () => void;
}

export function ScheduleCard<S extends ScheduleSummary>({ schedule: s, target, lastRun, onToggle, toggling, runNow, onEdit, onDelete }: ScheduleCardProps<S>) {
  const words = describeCron(s.cron);
  return (
    <Card>
      <CardHeader className="flex flex-row items-start justify-between gap-3">
        <div className="min-w-0">
          <CardTitle className="truncate">{s.name}</CardTitle>
          <p className="mt-1 text-sm text-muted-foreground">
            <code className="font-mono">{s.cron}</code> · {s.timezone}
            {words ? ` · ${words}` : ""}
          </p>
          {target}
        </div>
        <label className="flex shrink-0 items-center gap-2 text-sm">
          <input type="checkbox" role="switch" aria-label={`${s.name} enabled`} className="size-4 accent-primary" checked={s.enabled} disabled={toggling} onChange={(e) => onToggle(e.target.checked)} />
          {s.enabled ? "Enabled" : "Disabled"}
        </label>
      </CardHeader>
      <CardContent className="flex flex-col gap-3 text-sm">
        <section aria-label={`Next occurrences of ${s.name}`}>
          <h3 className="font-medium">Next occurrences</h3>
          {s.nextOccurrences.length ? (
            <ol className="list-decimal pl-5 tabular-nums">
              {s.nextOccurrences.map((at) => (
                <li key={at}>
                  <time dateTime={at}>{formatInZone(at, s.timezone)}</time>
                </li>
              ))}
            </ol>
          ) : (
            <p className="text-muted-foreground">None while disabled.</p>
          )}
        </section>
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium">Last run:</span>
          {lastRun}
          {s.lastRunAt ? <span className="text-muted-foreground">{formatInZone(s.lastRunAt, s.timezone)}</span> : null}
        </div>
        {s.lastError ? <p className="rounded-md border border-warning/30 bg-warning/10 p-2 text-xs">{s.lastError}</p> : null}
        <div className="flex flex-wrap gap-2">
          <Button size="sm" disabled={runNow.disabled?.(s)} onClick={() => runNow.run(s)} pending={runNow.isPending(s)} title={runNow.title}>
            <Play aria-hidden /> Run now
          </Button>
          <Button size="sm" variant="outline" onClick={onEdit}>
            <Pencil aria-hidden /> Edit
          </Button>
          <Button size="sm" variant="outline" onClick={onDelete} aria-label={`Delete ${s.name}`}>
            <Trash2 aria-hidden /> Delete
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}
