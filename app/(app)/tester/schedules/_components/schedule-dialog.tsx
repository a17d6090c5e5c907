"use client";
// Create or edit a schedule of collection runs: the shared cron schedule form
// with the collections it runs, in order, and the environment they run in.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Controller } from "react-hook-form";
import { useTRPC } from "@/app/_trpc/client";
import { browserTimeZone } from "@/components/lib/zoned-time";
import { CronScheduleDialog, CronScheduleForm } from "@/components/schedules/cron-schedule-dialog";
import { Field } from "@/components/ui/field";
import { CreateScheduleInput, type ScheduleView } from "@/server/contracts/tester-tests-schedules";
import { CollectionChecklist, EnvironmentSelect } from "../../_components/run-target-fields";

export function ScheduleDialog({ open, onOpenChange, namespace, editing }: { open: boolean; onOpenChange: (open: boolean) => void; namespace: string | undefined; editing: ScheduleView | null }) {
  return (
    <CronScheduleDialog open={open} onOpenChange={onOpenChange}>
      {(close) => <ScheduleForm namespace={namespace} editing={editing} onDone={close} />}
    </CronScheduleDialog>
  );
}

function ScheduleForm({ namespace, editing, onDone }: { namespace: string | undefined; editing: ScheduleView | null; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.apiTester.schedules.pathKey() });
  const create = useMutation(trpc.apiTester.schedules.create.mutationOptions({ onSuccess: refresh }));
  const update = useMutation(trpc.apiTester.schedules.update.mutationOptions({ onSuccess: refresh }));

  return (
    <CronScheduleForm
      namespace={namespace}
      editing={editing}
      onDone={onDone}
      schema={CreateScheduleInput}
      defaultValues={
        editing
          ? { name: editing.name, cron: editing.cron, timezone: editing.timezone, collectionIds: editing.collectionIds, environmentId: editing.environmentId, enabled: editing.enabled }
          : { name: "", cron: "0 9 * * 1-5", timezone: browserTimeZone(), collectionIds: [], environmentId: null, enabled: true }
      }
      create={create}
      update={update}
      fields={["name", "cron", "timezone", "collectionIds", "environmentId"]}
      text={{
        idPrefix: "schedule",
        newTitle: "New schedule",
        description: "Runs the collections below on a cron expression, read in the time zone you pick. Only you see and run your schedules.",
        namePlaceholder: "e.g. Nightly smoke test",
        cronPlaceholder: "0 9 * * 1-5",
      }}
      trailingFields={(form, enabledBox) => (
        <>
          <Controller control={form.control} name="collectionIds" render={({ field, fieldState }) => <CollectionChecklist namespace={namespace} idPrefix="schedule-collection" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />} />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Environment" htmlFor="schedule-environment">
              {() => <Controller control={form.control} name="environmentId" render={({ field }) => <EnvironmentSelect id="schedule-environment" namespace={namespace} value={field.value ?? null} onChange={field.onChange} />} />}
            </Field>
            {enabledBox("self-end pb-2")}
          </div>
        </>
      )}
    />
  );
}
