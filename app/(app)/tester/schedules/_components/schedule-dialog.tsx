"use client";
// Create or edit a schedule. The cron field is checked as it is typed with
// the same croner code the server uses, with a plain-English hint and the
// next occurrences in the chosen time zone, so a mistake shows before saving.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { Controller, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { cronError, describeCron, nextOccurrences, timezoneError } from "@/server/contracts/cron-schedule";
import { CreateScheduleInput, type ScheduleView } from "@/server/contracts/tester-tests-schedules";
import type { z } from "zod";
import { CollectionChecklist, EnvironmentSelect } from "../../_components/run-target-fields";
import { browserTimeZone, formatInZone, knownTimeZones } from "@/components/lib/zoned-time";

type Values = z.input<typeof CreateScheduleInput>;
const PREVIEW = 5;

export function ScheduleDialog({ open, onOpenChange, namespace, editing }: { open: boolean; onOpenChange: (open: boolean) => void; namespace: string | undefined; editing: ScheduleView | null }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">{open ? <ScheduleForm namespace={namespace} editing={editing} onDone={() => onOpenChange(false)} /> : null}</DialogContent>
    </Dialog>
  );
}

/** What the cron field says while typing: the problem, or a hint and the next occurrences. */
export function cronPreview(cron: string, timezone: string, now = new Date()): { error: string | null; hint: string | null; upcoming: string[] } {
  const error = cronError(cron) ?? timezoneError(timezone);
  if (error) return { error, hint: null, upcoming: [] };
  return { error: null, hint: describeCron(cron), upcoming: nextOccurrences(cron, timezone, now, PREVIEW).map((d) => formatInZone(d, timezone)) };
}

function ScheduleForm({ namespace, editing, onDone }: { namespace: string | undefined; editing: ScheduleView | null; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const zones = useMemo(() => knownTimeZones(), []);
  const form = useForm<Values>({
    resolver: zodResolver(CreateScheduleInput),
    defaultValues: editing
      ? { name: editing.name, cron: editing.cron, timezone: editing.timezone, collectionIds: editing.collectionIds, environmentId: editing.environmentId, enabled: editing.enabled }
      : { name: "", cron: "0 9 * * 1-5", timezone: browserTimeZone(), collectionIds: [], environmentId: null, enabled: true },
  });
  const cron = useWatch({ control: form.control, name: "cron" });
  const timezone = useWatch({ control: form.control, name: "timezone" }) ?? "UTC";
  const preview = cronPreview(cron, timezone);
  const done = (s: ScheduleView) => {
    toast.success(editing ? `${s.name} saved` : `${s.name} scheduled`);
    void queryClient.invalidateQueries({ queryKey: trpc.apiTester.schedules.pathKey() });
    onDone();
  };
  const fields = ["name", "cron", "timezone", "collectionIds", "environmentId"] as const;
  const create = useMutation(trpc.apiTester.schedules.create.mutationOptions({ onSuccess: done, onError: (err) => applyFieldErrors(err, form.setError, fields) }));
  const update = useMutation(trpc.apiTester.schedules.update.mutationOptions({ onSuccess: done, onError: (err) => applyFieldErrors(err, form.setError, fields) }));
  const submit = form.handleSubmit((raw) => {
    const v = CreateScheduleInput.parse(raw);
    if (editing) update.mutate({ namespace, id: editing.id, patch: v });
    else create.mutate({ namespace, schedule: v });
  });

  return (
    <form className="flex flex-col gap-5" noValidate onSubmit={submit}>
      <DialogHeader>
        <DialogTitle>{editing ? `Edit ${editing.name}` : "New schedule"}</DialogTitle>
        <DialogDescription>Runs the collections below on a cron expression, read in the time zone you pick. Only you see and run your schedules.</DialogDescription>
      </DialogHeader>
      <ApiErrorAlert error={create.error ?? update.error} />
      <Field label="Name" htmlFor="schedule-name" error={form.formState.errors.name?.message}>
        {(aria) => <Input {...aria} autoFocus placeholder="e.g. Nightly smoke test" {...form.register("name")} />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Cron expression" htmlFor="schedule-cron" error={form.formState.errors.cron?.message ?? (cron ? (cronError(cron) ?? undefined) : undefined)} hint={preview.hint ? `Runs ${preview.hint}` : "minute hour day-of-month month day-of-week, or @daily, @hourly…"}>
          {(aria) => <Input {...aria} className="font-mono" placeholder="0 9 * * 1-5" {...form.register("cron")} />}
        </Field>
        <Field label="Time zone" htmlFor="schedule-timezone" error={form.formState.errors.timezone?.message ?? (timezoneError(timezone) ?? undefined)}>
          {(aria) => (
            <>
              <Input {...aria} list="schedule-timezones" placeholder="Europe/Berlin" {...form.register("timezone")} />
              <datalist id="schedule-timezones">
                {zones.map((z) => (
                  <option key={z} value={z} />
                ))}
              </datalist>
            </>
          )}
        </Field>
      </div>
      <section aria-label="Next occurrences" className="rounded-md border bg-muted/30 p-3 text-sm">
        <h3 className="mb-1 font-medium">Next occurrences ({timezone})</h3>
        {preview.upcoming.length ? (
          <ol className="list-decimal pl-5 tabular-nums" data-testid="schedule-preview">
            {preview.upcoming.map((u) => (
              <li key={u}>{u}</li>
            ))}
          </ol>
        ) : (
          <p className="text-muted-foreground">{preview.error ?? "No occurrence ahead."}</p>
        )}
      </section>
      <Controller control={form.control} name="collectionIds" render={({ field, fieldState }) => <CollectionChecklist namespace={namespace} idPrefix="schedule-collection" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Environment" htmlFor="schedule-environment">
          {() => <Controller control={form.control} name="environmentId" render={({ field }) => <EnvironmentSelect id="schedule-environment" namespace={namespace} value={field.value ?? null} onChange={field.onChange} />} />}
        </Field>
        <label className="flex items-center gap-2 self-end pb-2 text-sm">
          <input type="checkbox" className="size-4 accent-primary" {...form.register("enabled")} /> Enabled
        </label>
      </div>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" pending={create.isPending || update.isPending}>
          {editing ? "Save schedule" : "Create schedule"}
        </Button>
      </DialogFooter>
    </form>
  );
}
