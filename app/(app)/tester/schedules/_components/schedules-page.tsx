"use client";
// The caller's cron schedules in the namespace: each with its next
// occurrences in its own time zone, an enable switch, "Run now" and its last
// run (linked to the run's page). Schedules are private to their owner.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CalendarClock, Pencil, Play, Plus, Trash2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { SkeletonRows } from "@/components/ui/skeleton";
import { describeCron } from "@/server/contracts/cron-schedule";
import type { ScheduleView } from "@/server/contracts/tester-tests-schedules";
import { useNamespace } from "../../../_components/namespace-context";
import { runPath } from "../../_components/run-links";
import { ScheduleDialog } from "./schedule-dialog";
import { formatInZone } from "@/components/lib/zoned-time";

function statusVariant(status: string | null) {
  if (status === "passed") return "success" as const;
  if (status === "failed" || status === "error" || status === "not run") return "destructive" as const;
  if (status === "skipped" || status === "cancelled") return "warning" as const;
  return "secondary" as const;
}

export function SchedulesPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const namespace = useNamespace().current?.name;
  const list = useQuery(trpc.apiTester.schedules.list.queryOptions({ namespace }, { enabled: !!namespace, refetchInterval: 30_000 }));
  const [dialog, setDialog] = useState<{ editing: ScheduleView | null } | null>(null);
  const [deleting, setDeleting] = useState<ScheduleView | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiTester.schedules.pathKey() });
  const toggle = useMutation(trpc.apiTester.schedules.update.mutationOptions({ onSuccess: (s) => (toast.success(`${s.name} ${s.enabled ? "enabled" : "disabled"}`), void refresh()), onError: (e) => toastError(e) }));
  const trigger = useMutation(
    trpc.apiTester.schedules.trigger.mutationOptions({
      onSuccess: (run) => {
        toast.success(`Run ${run.status}: ${run.counts.passedTests}/${run.counts.tests} tests passed`);
        void refresh();
        void queryClient.invalidateQueries({ queryKey: trpc.apiTester.testRuns.pathKey() });
      },
      onError: (e) => {
        toastError(e);
        void refresh();
      },
    }),
  );
  const remove = useMutation(trpc.apiTester.schedules.remove.mutationOptions({ onSuccess: () => (setDeleting(null), toast.success("Schedule deleted"), void refresh()), onError: (e) => toastError(e) }));

  const newButton = (
    <Button onClick={() => setDialog({ editing: null })}>
      <Plus aria-hidden /> New schedule
    </Button>
  );
  const schedules = list.data?.schedules ?? [];

  let body: React.ReactNode;
  if (list.error) body = <ApiErrorAlert error={list.error} title="The schedules could not be loaded" />;
  else if (!namespace || list.isLoading) body = <SkeletonRows rows={4} label="Loading the schedules" />;
  else if (!schedules.length)
    body = (
      <EmptyState icon={CalendarClock} title="No schedules yet" action={newButton}>
        A schedule runs collections on a cron expression — <code className="font-mono text-xs">0 9 * * 1-5</code> is every weekday at 09:00 — in the time zone you choose, like a Postman monitor. Each occurrence is a test run you find under Runs.
      </EmptyState>
    );
  else
    body = (
      <ul className="grid gap-4 lg:grid-cols-2" aria-label="Schedules">
        {schedules.map((s) => (
          <li key={s.id}>
            <Card>
              <CardHeader className="flex flex-row items-start justify-between gap-3">
                <div className="min-w-0">
                  <CardTitle className="truncate">{s.name}</CardTitle>
                  <p className="mt-1 text-sm text-muted-foreground">
                    <code className="font-mono">{s.cron}</code> · {s.timezone}
                    {describeCron(s.cron) ? ` · ${describeCron(s.cron)}` : ""}
                  </p>
                </div>
                <label className="flex shrink-0 items-center gap-2 text-sm">
                  <input type="checkbox" role="switch" aria-label={`${s.name} enabled`} className="size-4 accent-primary" checked={s.enabled} disabled={toggle.isPending} onChange={(e) => toggle.mutate({ namespace, id: s.id, patch: { enabled: e.target.checked } })} />
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
                  {s.lastRunId ? (
                    <Link className="underline underline-offset-2" href={runPath(s.lastRunId)}>
                      <Badge variant={statusVariant(s.lastRunStatus)}>{s.lastRunStatus ?? "unknown"}</Badge>
                      <span className="sr-only"> open the run</span>
                    </Link>
                  ) : s.lastRunStatus ? (
                    <Badge variant={statusVariant(s.lastRunStatus)}>{s.lastRunStatus}</Badge>
                  ) : (
                    <span className="text-muted-foreground">never</span>
                  )}
                  {s.lastRunAt ? <span className="text-muted-foreground">{formatInZone(s.lastRunAt, s.timezone)}</span> : null}
                </div>
                {s.lastError ? <p className="rounded-md border border-warning/30 bg-warning/10 p-2 text-xs">{s.lastError}</p> : null}
                <div className="flex flex-wrap gap-2">
                  <Button size="sm" onClick={() => trigger.mutate({ namespace, id: s.id })} pending={trigger.isPending && trigger.variables?.id === s.id}>
                    <Play aria-hidden /> Run now
                  </Button>
                  <Button size="sm" variant="outline" onClick={() => setDialog({ editing: s })}>
                    <Pencil aria-hidden /> Edit
                  </Button>
                  <Button size="sm" variant="outline" onClick={() => setDeleting(s)} aria-label={`Delete ${s.name}`}>
                    <Trash2 aria-hidden /> Delete
                  </Button>
                </div>
              </CardContent>
            </Card>
          </li>
        ))}
      </ul>
    );

  return (
    <>
      <PageHeader
        title="Schedules"
        description="Run collections on a cron expression in a time zone. Each occurrence checks that you can still reach its collections and environment before it starts, and runs once even with several servers."
        actions={schedules.length ? newButton : null}
      />
      {body}
      <ScheduleDialog open={dialog !== null} onOpenChange={(o) => (o ? undefined : setDialog(null))} namespace={namespace} editing={dialog?.editing ?? null} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title={`Delete ${deleting?.name ?? "the schedule"}?`}
        description="It stops running. Its past runs stay under Runs."
        confirmLabel="Delete schedule"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ namespace, id: deleting.id })}
      />
    </>
  );
}
