"use client";
// Create or edit a load test schedule: the shared cron schedule form with a
// picker of the saved load test it runs.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/app/_trpc/client";
import { browserTimeZone } from "@/components/lib/zoned-time";
import { CronScheduleDialog, CronScheduleForm } from "@/components/schedules/cron-schedule-dialog";
import { Field } from "@/components/ui/field";
import { CreatePerfScheduleInput, type PerfScheduleView } from "@/server/contracts/perf-configs";

export function PerfScheduleDialog({ open, onOpenChange, namespace, editing, configId }: { open: boolean; onOpenChange: (open: boolean) => void; namespace: string | undefined; editing: PerfScheduleView | null; configId?: string }) {
  return (
    <CronScheduleDialog open={open} onOpenChange={onOpenChange}>
      {(close) => <PerfScheduleForm namespace={namespace} editing={editing} configId={configId} onDone={close} />}
    </CronScheduleDialog>
  );
}

function PerfScheduleForm({ namespace, editing, configId, onDone }: { namespace: string | undefined; editing: PerfScheduleView | null; configId?: string; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const configs = useQuery(trpc.perf.configs.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.perf.schedules.pathKey() });
  const create = useMutation(trpc.perf.schedules.create.mutationOptions({ onSuccess: refresh }));
  const update = useMutation(trpc.perf.schedules.update.mutationOptions({ onSuccess: refresh }));
  const list = configs.data?.configs ?? [];

  return (
    <CronScheduleForm
      namespace={namespace}
      editing={editing}
      onDone={onDone}
      schema={CreatePerfScheduleInput}
      defaultValues={
        editing
          ? { name: editing.name, configId: editing.configId, cron: editing.cron, timezone: editing.timezone, enabled: editing.enabled }
          : { name: "", configId: configId ?? "", cron: "0 2 * * *", timezone: browserTimeZone(), enabled: true }
      }
      create={create}
      update={update}
      fields={["name", "configId", "cron", "timezone"]}
      text={{
        idPrefix: "perf-schedule",
        newTitle: "New load schedule",
        description: "Runs a saved load test on a cron expression, read in the time zone you pick. Each run is stored like any other, so the load test's trend shows them.",
        namePlaceholder: "e.g. Nightly checkout load",
        cronPlaceholder: "0 2 * * *",
      }}
      targetFields={(form) => (
        <Field label="Load test" htmlFor="perf-schedule-config" error={form.formState.errors.configId?.message} hint={configs.data && !list.length ? "Save a load test first: schedules run saved load tests." : undefined}>
          {(aria) => (
            <select {...aria} className="h-9 rounded-md border bg-background px-3 text-sm" {...form.register("configId")}>
              <option value="">Choose a load test</option>
              {list.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
    />
  );
}
