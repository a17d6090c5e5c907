"use client";
// /perf/schedules: cron schedules of saved load tests on the shared schedules
// screen; each card also names its load test and whom it runs as, its last
// run links to the result, and Run now runs the load test at once.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";
import { PerfStatusBadge } from "@/components/perf/status";
import { ScheduleListPage } from "@/components/schedules/schedule-list-page";
import { Badge } from "@/components/ui/badge";
import { PERF_STATUSES, type PerfStatus } from "@/server/contracts/perf";
import type { PerfScheduleView } from "@/server/contracts/perf-configs";
import { useNamespace } from "../../_components/namespace-context";
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
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.perf.schedules.pathKey() });
  const toggle = useMutation(trpc.perf.schedules.update.mutationOptions({ onSuccess: refresh, onError: toastError }));
  const remove = useMutation(trpc.perf.schedules.delete.mutationOptions({ onSuccess: refresh, onError: toastError }));
  const runNow = useMutation(trpc.perf.configs.run.mutationOptions({ onSuccess: (s) => (void queryClient.invalidateQueries({ queryKey: trpc.perf.pathKey() }), router.push(hrefWithNs(perfPaths.result(s.id)))), onError: toastError }));

  return (
    <ScheduleListPage<PerfScheduleView>
      title="Load schedules"
      description="Run saved load tests on a cron expression in a time zone. Each occurrence runs as whoever last saved the schedule, checked at that moment, and runs once even with several servers."
      namespace={namespace}
      list={list}
      empty={{
        title: "No load schedules yet",
        body: (
          <>
            A schedule runs a saved load test on a cron expression — <code className="font-mono text-xs">0 2 * * *</code> is every night at 02:00 — in the time zone you choose. Its runs build the load test&apos;s trend, so a slowdown shows the morning after.
          </>
        ),
      }}
      target={(s) => (
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
      )}
      lastRun={(s) =>
        s.lastResultId ? (
          <Link href={hrefWithNs(perfPaths.result(s.lastResultId))} aria-label={`Last run: ${s.lastStatus ?? "unknown"}, open the result`}>
            <LastStatus status={s.lastStatus} />
          </Link>
        ) : (
          <LastStatus status={s.lastStatus} />
        )
      }
      runNow={{
        run: (s) => runNow.mutate({ namespace, id: s.configId }),
        isPending: (s) => runNow.isPending && runNow.variables?.id === s.configId,
        disabled: (s) => !s.configName,
        title: "Runs the load test now, outside the schedule",
      }}
      toggle={toggle}
      remove={remove}
      deleteDescription="It stops running. Its past runs stay with the load test."
      dialog={(props) => <PerfScheduleDialog {...props} namespace={namespace} />}
    />
  );
}
