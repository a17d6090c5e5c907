"use client";
// Create or edit a cron schedule, whatever it runs (collections of the API
// tester, a saved load test): a name, the page's own pickers of what it runs,
// a cron expression checked as it is typed (croner, the server's own) with a
// plain-English hint and the next occurrences in the chosen time zone, and
// whether it is enabled. The page hands in its contract and its tRPC create
// and update mutations; every schedule router takes the same
// { namespace, schedule } and { namespace, id, patch } inputs.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMemo } from "react";
import { type DefaultValues, type Path, type UseFormReturn, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { applyFieldErrors } from "@/components/lib/api-error";
import { cn } from "@/components/lib/cn";
import { knownTimeZones } from "@/components/lib/zoned-time";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { cronError, timezoneError } from "@/server/contracts/cron-schedule";
import { cronPreview } from "./cron-preview";

/** The fields every schedule form has, whatever the schedule runs. */
export interface CronScheduleValues {
  name: string;
  cron: string;
  timezone?: string;
  enabled?: boolean;
}

/**
 * A tRPC mutation as the form calls it. The callbacks go with each call, so
 * the API's field errors land on the form that is open; the page's own
 * options only refresh its list.
 */
export interface SaveMutation<Vars, Saved> {
  mutate: (vars: Vars, options: { onSuccess: (saved: Saved) => void; onError: (error: unknown) => void }) => void;
  isPending: boolean;
  error: unknown;
}

/** The dialog; its form is mounted only while open, so each opening starts from the schedule's saved values. */
export function CronScheduleDialog({ open, onOpenChange, children }: { open: boolean; onOpenChange: (open: boolean) => void; children: (close: () => void) => React.ReactNode }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">{open ? children(() => onOpenChange(false)) : null}</DialogContent>
    </Dialog>
  );
}

export interface CronScheduleFormProps<V extends CronScheduleValues, Out, S extends { id: string; name: string }> {
  namespace: string | undefined;
  /** The schedule being edited; null for a new one. */
  editing: S | null;
  onDone: () => void;
  schema: z.ZodType<Out, V>;
  defaultValues: DefaultValues<V>;
  create: SaveMutation<{ namespace: string | undefined; schedule: Out }, S>;
  update: SaveMutation<{ namespace: string | undefined; id: string; patch: Out }, S>;
  /** Fields the API's errors may name, shown under them. */
  fields: readonly Path<V>[];
  text: {
    /** Prefix of the inputs' ids ("schedule" → "schedule-name", "schedule-cron"…). */
    idPrefix: string;
    newTitle: string;
    description: React.ReactNode;
    namePlaceholder: string;
    cronPlaceholder: string;
  };
  /** Pickers of what the schedule runs, between the name and the cron expression. */
  targetFields?: (form: UseFormReturn<V, unknown, Out>) => React.ReactNode;
  /**
   * Pickers under the preview; they get the Enabled box to place in their own
   * layout. Without them the box stands alone there.
   */
  trailingFields?: (form: UseFormReturn<V, unknown, Out>, enabledBox: (className?: string) => React.ReactNode) => React.ReactNode;
}

export function CronScheduleForm<V extends CronScheduleValues, Out, S extends { id: string; name: string }>({
  namespace,
  editing,
  onDone,
  schema,
  defaultValues,
  create,
  update,
  fields,
  text,
  targetFields,
  trailingFields,
}: CronScheduleFormProps<V, Out, S>) {
  const zones = useMemo(() => knownTimeZones(), []);
  const form = useForm<V, unknown, Out>({ resolver: zodResolver(schema), defaultValues });
  // The fields every schedule has, seen through their common shape (react-hook-form cannot name a generic form's paths).
  const common = form as unknown as UseFormReturn<CronScheduleValues>;
  const { errors } = common.formState;
  const cron = useWatch({ control: common.control, name: "cron" });
  const timezone = useWatch({ control: common.control, name: "timezone" }) ?? "UTC";
  const preview = cronPreview(cron, timezone);
  const id = (field: string) => `${text.idPrefix}-${field}`;

  const saved = {
    onSuccess: (s: S) => {
      toast.success(editing ? `${s.name} saved` : `${s.name} scheduled`);
      onDone();
    },
    onError: (err: unknown) => applyFieldErrors(err, form.setError, fields),
  };
  const submit = form.handleSubmit((v) => {
    if (editing) update.mutate({ namespace, id: editing.id, patch: v }, saved);
    else create.mutate({ namespace, schedule: v }, saved);
  });

  const enabledBox = (className?: string) => (
    <label className={cn("flex items-center gap-2 text-sm", className)}>
      <input type="checkbox" className="size-4 accent-primary" {...common.register("enabled")} /> Enabled
    </label>
  );

  return (
    <form className="flex flex-col gap-5" noValidate onSubmit={submit}>
      <DialogHeader>
        <DialogTitle>{editing ? `Edit ${editing.name}` : text.newTitle}</DialogTitle>
        <DialogDescription>{text.description}</DialogDescription>
      </DialogHeader>
      <ApiErrorAlert error={create.error ?? update.error} />
      <Field label="Name" htmlFor={id("name")} error={errors.name?.message}>
        {(aria) => <Input {...aria} autoFocus placeholder={text.namePlaceholder} {...common.register("name")} />}
      </Field>
      {targetFields?.(form)}
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Cron expression" htmlFor={id("cron")} error={errors.cron?.message ?? (cron ? (cronError(cron) ?? undefined) : undefined)} hint={preview.hint ? `Runs ${preview.hint}` : "minute hour day-of-month month day-of-week, or @daily, @hourly…"}>
          {(aria) => <Input {...aria} className="font-mono" placeholder={text.cronPlaceholder} {...common.register("cron")} />}
        </Field>
        <Field label="Time zone" htmlFor={id("timezone")} error={errors.timezone?.message ?? (timezoneError(timezone) ?? undefined)}>
          {(aria) => (
            <>
              <Input {...aria} list={id("timezones")} placeholder="Europe/Berlin" {...common.register("timezone")} />
              <datalist id={id("timezones")}>
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
      {trailingFields ? trailingFields(form, enabledBox) : enabledBox()}
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
