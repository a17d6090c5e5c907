"use client";
// Create or edit a load test schedule: which load test, a cron expression
// checked as it is typed (croner, the server's own), a plain-English hint
// and the next occurrences in the chosen time zone.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { cronError, describeCron, nextOccurrences, timezoneError } from "@/server/contracts/cron-schedule";
import { CreatePerfScheduleInput, type PerfScheduleView } from "@/server/contracts/perf-configs";
import { browserTimeZone, formatInZone, knownTimeZones } from "@/components/lib/zoned-time";

type Values = z.input<typeof CreatePerfScheduleInput>;
const PREVIEW = 5;

export function PerfScheduleDialog({ open, onOpenChange, namespace, editing, configId }: { open: boolean; onOpenChange: (open: boolean) => void; namespace: string | undefined; editing: PerfScheduleView | null; configId?: string }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">{open ? <ScheduleForm namespace={namespace} editing={editing} configId={configId} onDone={() => onOpenChange(false)} /> : null}</DialogContent>
    </Dialog>
  );
}

function preview(cron: string, timezone: string) {
  const error = cronError(cron) ?? timezoneError(timezone);
  if (error) return { error, hint: null, upcoming: [] as string[] };
  return { error: null, hint: describeCron(cron), upcoming: nextOccurrences(cron, timezone, new Date(), PREVIEW).map((d) => formatInZone(d, timezone)) };
}

function ScheduleForm({ namespace, editing, configId, onDone }: { namespace: string | undefined; editing: PerfScheduleView | null; configId?: string; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const zones = useMemo(() => knownTimeZones(), []);
  const configs = useQuery(trpc.perf.configs.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const form = useForm<Values>({
    resolver: zodResolver(CreatePerfScheduleInput),
    defaultValues: editing
      ? { name: editing.name, configId: editing.configId, cron: editing.cron, timezone: editing.timezone, enabled: editing.enabled }
      : { name: "", configId: configId ?? "", cron: "0 2 * * *", timezone: browserTimeZone(), enabled: true },
  });
  const cron = useWatch({ control: form.control, name: "cron" });
  const timezone = useWatch({ control: form.control, name: "timezone" }) ?? "UTC";
  const p = preview(cron, timezone);
  const done = (s: PerfScheduleView) => {
    toast.success(editing ? `${s.name} saved` : `${s.name} scheduled`);
    void queryClient.invalidateQueries({ queryKey: trpc.perf.schedules.pathKey() });
    onDone();
  };
  const fields = ["name", "configId", "cron", "timezone"] as const;
  const create = useMutation(trpc.perf.schedules.create.mutationOptions({ onSuccess: done, onError: (err) => applyFieldErrors(err, form.setError, fields) }));
  const update = useMutation(trpc.perf.schedules.update.mutationOptions({ onSuccess: done, onError: (err) => applyFieldErrors(err, form.setError, fields) }));
  const submit = form.handleSubmit((raw) => {
    const v = CreatePerfScheduleInput.parse(raw);
    if (editing) update.mutate({ namespace, id: editing.id, patch: v });
    else create.mutate({ namespace, schedule: v });
  });
  const list = configs.data?.configs ?? [];

  return (
    <form className="flex flex-col gap-5" noValidate onSubmit={submit}>
      <DialogHeader>
        <DialogTitle>{editing ? `Edit ${editing.name}` : "New load schedule"}</DialogTitle>
        <DialogDescription>Runs a saved load test on a cron expression, read in the time zone you pick. Each run is stored like any other, so the load test&apos;s trend shows them.</DialogDescription>
      </DialogHeader>
      <ApiErrorAlert error={create.error ?? update.error} />
      <Field label="Name" htmlFor="perf-schedule-name" error={form.formState.errors.name?.message}>
        {(aria) => <Input {...aria} autoFocus placeholder="e.g. Nightly checkout load" {...form.register("name")} />}
      </Field>
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
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Cron expression" htmlFor="perf-schedule-cron" error={form.formState.errors.cron?.message ?? (cron ? (cronError(cron) ?? undefined) : undefined)} hint={p.hint ? `Runs ${p.hint}` : "minute hour day-of-month month day-of-week, or @daily, @hourly…"}>
          {(aria) => <Input {...aria} className="font-mono" placeholder="0 2 * * *" {...form.register("cron")} />}
        </Field>
        <Field label="Time zone" htmlFor="perf-schedule-timezone" error={form.formState.errors.timezone?.message ?? (timezoneError(timezone) ?? undefined)}>
          {(aria) => (
            <>
              <Input {...aria} list="perf-schedule-timezones" placeholder="Europe/Berlin" {...form.register("timezone")} />
              <datalist id="perf-schedule-timezones">
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
        {p.upcoming.length ? (
          <ol className="list-decimal pl-5 tabular-nums" data-testid="schedule-preview">
            {p.upcoming.map((u) => (
              <li key={u}>{u}</li>
            ))}
          </ol>
        ) : (
          <p className="text-muted-foreground">{p.error ?? "No occurrence ahead."}</p>
        )}
      </section>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4 accent-primary" {...form.register("enabled")} /> Enabled
      </label>
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
