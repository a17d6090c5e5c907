"use client";
// /perf/schedules: cron schedules of saved load tests, each with its next
// occurrences in its own time zone, an enable switch, whom it runs as, its
// last run (linked to the result), Run now (runs the load test at once),
// Edit and Delete.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { CalendarClock, Pencil, Play, Plus, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";
import { PerfStatusBadge } from "@/components/perf/status";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { SkeletonRows } from "@/components/ui/skeleton";
import { describeCron } from "@/server/contracts/cron-schedule";
import { PERF_STATUSES, type PerfStatus } from "@/server/contracts/perf";
import type { PerfScheduleView } from "@/server/contracts/perf-configs";
import { useNamespace } from "../../_components/namespace-context";
import { formatInZone } from "@/components/lib/zoned-time";
import { perfPaths } from "./paths";
import { PerfScheduleDialog } from "./perf-schedule-dialog";

function LastStatus({ status }: { status: string | null }) {
  if (!status) return <span className="text-muted-foreground">never</span>;
  if ((PERF_STATUSES as readonly string[]).includes(status)) return <PerfStatusBadge status={status as PerfStatus} />;
  return <Badge variant="warning">{status}</Badge>;
}

export function PerfSchedulesPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const list = useQuery(trpc.perf.schedules.list.queryOptions({ namespace }, { enabled: !!namespace, refetchInterval: 30_000 }));
  const [dialog, setDialog] = useState<{ editing: PerfScheduleView | null } | null>(null);
  const [deleting, setDeleting] = useState<PerfScheduleView | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.perf.schedules.pathKey() });
  const toggle = useMutation(trpc.perf.schedules.update.mutationOptions({ onSuccess: (s) => (toast.success(`${s.name} ${s.enabled ? "enabled" : "disabled"}`), void refresh()), onError: toastError }));
  const runNow = useMutation(trpc.perf.configs.run.mutationOptions({ onSuccess: (s) => (void queryClient.invalidateQueries({ queryKey: trpc.perf.pathKey() }), router.push(hrefWithNs(perfPaths.result(s.id)))), onError: toastError }));
  const remove = useMutation(trpc.perf.schedules.delete.mutationOptions({ onSuccess: () => (setDeleting(null), toast.success("Schedule deleted"), void refresh()), onError: toastError }));

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
      <EmptyState icon={CalendarClock} title="No load schedules yet" action={newButton}>
        A schedule runs a saved load test on a cron expression — <code className="font-mono text-xs">0 2 * * *</code> is every night at 02:00 — in the time zone you choose. Its runs build the load test&apos;s trend, so a slowdown shows the morning after.
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
                  <p className="mt-1 text-sm">
                    {s.configName ? (
                      <Link className="underline underline-offset-2" href={hrefWithNs(perfPaths.config(s.configId))}>
                        {s.configName}
                      </Link>
                    ) : (
                      <span className="text-destructive">its load test was deleted</span>
                    )}
                    {s.runsAs ? <span className="text-muted-foreground"> · runs as {s.runsAs}</span> : null}
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
                  {s.lastResultId ? (
                    <Link href={hrefWithNs(perfPaths.result(s.lastResultId))} aria-label={`Last run: ${s.lastStatus ?? "unknown"}, open the result`}>
                      <LastStatus status={s.lastStatus} />
                    </Link>
                  ) : (
                    <LastStatus status={s.lastStatus} />
                  )}
                  {s.lastRunAt ? <span className="text-muted-foreground">{formatInZone(s.lastRunAt, s.timezone)}</span> : null}
                </div>
                {s.lastError ? <p className="rounded-md border border-warning/30 bg-warning/10 p-2 text-xs">{s.lastError}</p> : null}
                <div className="flex flex-wrap gap-2">
                  <Button size="sm" disabled={!s.configName} onClick={() => runNow.mutate({ namespace, id: s.configId })} pending={runNow.isPending && runNow.variables?.id === s.configId} title="Runs the load test now, outside the schedule">
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
      <PageHeader title="Load schedules" description="Run saved load tests on a cron expression in a time zone. Each occurrence runs as whoever last saved the schedule, checked at that moment, and runs once even with several servers." actions={schedules.length ? newButton : null} />
      {body}
      <PerfScheduleDialog open={dialog !== null} onOpenChange={(o) => (o ? undefined : setDialog(null))} namespace={namespace} editing={dialog?.editing ?? null} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title={`Delete ${deleting?.name ?? "the schedule"}?`}
        description="It stops running. Its past runs stay with the load test."
        confirmLabel="Delete schedule"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ namespace, id: deleting.id })}
      />
    </>
  );
}
