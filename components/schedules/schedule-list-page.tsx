"use client";
// A schedules screen, whatever the schedules run (collections of the API
// tester, saved load tests): the title, the list of schedule cards (a
// skeleton while loading, the API's error, an empty state that teaches), the
// create/edit dialog and the delete confirmation. Enabling and deleting go
// through the page's tRPC mutations, which every schedule router takes alike;
// what a schedule runs, its last run and "Run now" are the page's.
import { CalendarClock, Plus } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { SkeletonRows } from "@/components/ui/skeleton";
import { type RunNow, ScheduleCard, type ScheduleSummary } from "./schedule-card";

type Namespaced<T> = T & { namespace: string | undefined };

/** The router's update, used here to switch a schedule on or off. */
export interface ToggleMutation<S> {
  mutate: (vars: Namespaced<{ id: string; patch: { enabled: boolean } }>, options: { onSuccess: (s: S) => void }) => void;
  isPending: boolean;
}

export interface DeleteMutation {
  mutate: (vars: Namespaced<{ id: string }>, options: { onSuccess: () => void }) => void;
  isPending: boolean;
}

export interface ScheduleDialogProps<S> {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The schedule to edit; null for a new one. */
  editing: S | null;
}

export interface ScheduleListPageProps<S extends ScheduleSummary> {
  title: string;
  description: string;
  namespace: string | undefined;
  list: { data?: { schedules: S[] }; error: unknown; isLoading: boolean };
  /** Shown while there is no schedule: what one is for, with an example expression. */
  empty: { title: string; body: React.ReactNode };
  /** A line on each card saying what the schedule runs. */
  target?: (s: S) => React.ReactNode;
  lastRun: (s: S) => React.ReactNode;
  runNow: RunNow<S>;
  toggle: ToggleMutation<S>;
  remove: DeleteMutation;
  /** What deleting keeps ("Its past runs stay under Runs."). */
  deleteDescription: string;
  dialog: (props: ScheduleDialogProps<S>) => React.ReactNode;
}

export function ScheduleListPage<S extends ScheduleSummary>({ title, description, namespace, list, empty, target, lastRun, runNow, toggle, remove, deleteDescription, dialog }: ScheduleListPageProps<S>) {
  const [editing, setEditing] = useState<{ schedule: S | null } | null>(null);
  const [deleting, setDeleting] = useState<S | null>(null);

  const setEnabled = (s: S, enabled: boolean) => toggle.mutate({ namespace, id: s.id, patch: { enabled } }, { onSuccess: (saved) => toast.success(`${saved.name} ${saved.enabled ? "enabled" : "disabled"}`) });
  const confirmDelete = (s: S) =>
    remove.mutate(
      { namespace, id: s.id },
      {
        onSuccess: () => {
          setDeleting(null);
          toast.success("Schedule deleted");
        },
      },
    );

  const newButton = (
    <Button onClick={() => setEditing({ schedule: null })}>
      <Plus aria-hidden /> New schedule
    </Button>
  );
  const schedules = list.data?.schedules ?? [];

  let body: React.ReactNode;
  if (list.error) body = <ApiErrorAlert error={list.error} title="The schedules could not be loaded" />;
  else if (!namespace || list.isLoading) body = <SkeletonRows rows={4} label="Loading the schedules" />;
  else if (!schedules.length)
    body = (
      <EmptyState icon={CalendarClock} title={empty.title} action={newButton}>
        {empty.body}
      </EmptyState>
    );
  else
    body = (
      <ul className="grid gap-4 lg:grid-cols-2" aria-label="Schedules">
        {schedules.map((s) => (
          <li key={s.id}>
            <ScheduleCard
              schedule={s}
              target={target?.(s)}
              lastRun={lastRun(s)}
              onToggle={(on) => setEnabled(s, on)}
              toggling={toggle.isPending}
              runNow={runNow}
              onEdit={() => setEditing({ schedule: s })}
              onDelete={() => setDeleting(s)}
            />
          </li>
        ))}
      </ul>
    );

  return (
    <>
      <PageHeader title={title} description={description} actions={schedules.length ? newButton : null} />
      {body}
      {dialog({ open: editing !== null, onOpenChange: (o) => (o ? undefined : setEditing(null)), editing: editing?.schedule ?? null })}
      <ConfirmDeleteDialog item={deleting} onClose={() => setDeleting(null)} fallbackName="the schedule" description={deleteDescription} confirmLabel="Delete schedule" pending={remove.isPending} onConfirm={confirmDelete} />
    </>
  );
}
