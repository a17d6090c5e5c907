"use client";
// The caller's cron schedules of collection runs in the namespace, on the
// shared schedules screen: "Run now" runs the schedule at once and its last
// run links to the run's page. Schedules are private to their owner.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";
import { ScheduleListPage } from "@/components/schedules/schedule-list-page";
import { Badge } from "@/components/ui/badge";
import type { ScheduleView } from "@/server/contracts/tester-tests-schedules";
import { useNamespace } from "../../../_components/namespace-context";
import { runPath } from "../../_components/run-links";
import { ScheduleDialog } from "./schedule-dialog";

function statusVariant(status: string | null) {
  if (status === "passed") return "success" as const;
  if (status === "failed" || status === "error" || status === "not run") return "destructive" as const;
  if (status === "skipped" || status === "cancelled") return "warning" as const;
  return "secondary" as const;
}

function LastRun({ schedule: s }: { schedule: ScheduleView }) {
  if (s.lastRunId)
    return (
      <Link className="underline underline-offset-2" href={runPath(s.lastRunId)}>
        <Badge variant={statusVariant(s.lastRunStatus)}>{s.lastRunStatus ?? "unknown"}</Badge>
        <span className="sr-only"> open the run</span>
      </Link>
    );
  if (s.lastRunStatus) return <Badge variant={statusVariant(s.lastRunStatus)}>{s.lastRunStatus}</Badge>;
  return <span className="text-muted-foreground">never</span>;
}

export function SchedulesPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const namespace = useNamespace().current?.name;
  const list = useQuery(trpc.apiTester.schedules.list.queryOptions({ namespace }, { enabled: !!namespace, refetchInterval: 30_000 }));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.apiTester.schedules.pathKey() });
  const toggle = useMutation(trpc.apiTester.schedules.update.mutationOptions({ onSuccess: refresh, onError: (e) => toastError(e) }));
  const remove = useMutation(trpc.apiTester.schedules.remove.mutationOptions({ onSuccess: refresh, onError: (e) => toastError(e) }));
  const trigger = useMutation(
    trpc.apiTester.schedules.trigger.mutationOptions({
      onSuccess: (run) => {
        toast.success(`Run ${run.status}: ${run.counts.passedTests}/${run.counts.tests} tests passed`);
        refresh();
        void queryClient.invalidateQueries({ queryKey: trpc.apiTester.testRuns.pathKey() });
      },
      onError: (e) => {
        toastError(e);
        refresh();
      },
    }),
  );

  return (
    <ScheduleListPage<ScheduleView>
      title="Schedules"
      description="Run collections on a cron expression in a time zone. Each occurrence checks that you can still reach its collections and environment before it starts, and runs once even with several servers."
      namespace={namespace}
      list={list}
      empty={{
        title: "No schedules yet",
        body: (
          <>
            A schedule runs collections on a cron expression — <code className="font-mono text-xs">0 9 * * 1-5</code> is every weekday at 09:00 — in the time zone you choose, like a Postman monitor. Each occurrence is a test run you find under Runs.
          </>
        ),
      }}
      lastRun={(s) => <LastRun schedule={s} />}
      runNow={{ run: (s) => trigger.mutate({ namespace, id: s.id }), isPending: (s) => trigger.isPending && trigger.variables?.id === s.id }}
      toggle={toggle}
      remove={remove}
      deleteDescription="It stops running. Its past runs stay under Runs."
      dialog={(props) => <ScheduleDialog {...props} namespace={namespace} />}
    />
  );
}
