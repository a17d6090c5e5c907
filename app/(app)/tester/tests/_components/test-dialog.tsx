"use client";
// Create or edit a standalone test: its collections in run order, the
// environment, iterations, delay and bail (a data file is set through the API
// or by running from the Runner; the form keeps one that is already saved).
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Controller, useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { CreateTestInput, type TestView } from "@/server/contracts/tester-tests-schedules";
import { CollectionChecklist, EnvironmentSelect } from "../../_components/run-target-fields";

// The form picks whole collections; a saved selection of single requests is kept as it is unless changed.
const TestForm = CreateTestInput.pick({ name: true, description: true, environmentId: true, delayMs: true, bail: true }).extend({
  collectionIds: z.array(z.string().uuid()).min(1, "pick at least one collection"),
  iterations: z.union([z.literal(""), z.coerce.number().int().min(1).max(10_000)]),
});
type Values = z.input<typeof TestForm>;

export function TestDialog({ open, onOpenChange, namespace, editing }: { open: boolean; onOpenChange: (open: boolean) => void; namespace: string | undefined; editing: TestView | null }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">{open ? <Form namespace={namespace} editing={editing} onDone={() => onOpenChange(false)} /> : null}</DialogContent>
    </Dialog>
  );
}

const idOf = (s: TestView["collectionIds"][number]) => (typeof s === "string" ? s : s.collectionId);

function Form({ namespace, editing, onDone }: { namespace: string | undefined; editing: TestView | null; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useForm<Values>({
    resolver: zodResolver(TestForm),
    defaultValues: editing
      ? { name: editing.name, description: editing.description, collectionIds: editing.collectionIds.map(idOf), environmentId: editing.environmentId, iterations: editing.iterations ?? "", delayMs: editing.delayMs, bail: editing.bail }
      : { name: "", description: "", collectionIds: [], environmentId: null, iterations: "", delayMs: 0, bail: false },
  });
  const done = (t: TestView) => {
    toast.success(`${t.name} saved`);
    void queryClient.invalidateQueries({ queryKey: trpc.apiTester.tests.pathKey() });
    onDone();
  };
  const fields = ["name", "description", "collectionIds", "environmentId", "iterations", "delayMs"] as const;
  const create = useMutation(trpc.apiTester.tests.create.mutationOptions({ onSuccess: done, onError: (e) => applyFieldErrors(e, form.setError, fields) }));
  const update = useMutation(trpc.apiTester.tests.update.mutationOptions({ onSuccess: done, onError: (e) => applyFieldErrors(e, form.setError, fields) }));
  const submit = form.handleSubmit((raw) => {
    const v = TestForm.parse(raw);
    const unchanged = editing && JSON.stringify(editing.collectionIds.map(idOf)) === JSON.stringify(v.collectionIds);
    const payload = { ...v, iterations: v.iterations === "" ? null : v.iterations, collectionIds: unchanged ? editing.collectionIds : v.collectionIds, description: v.description ?? "", delayMs: v.delayMs ?? 0, bail: v.bail ?? false, environmentId: v.environmentId ?? null };
    if (editing) update.mutate({ namespace, id: editing.id, patch: payload });
    else create.mutate({ namespace, test: { ...payload, data: null } });
  });
  const errors = form.formState.errors;
  return (
    <form className="flex flex-col gap-5" noValidate onSubmit={submit}>
      <DialogHeader>
        <DialogTitle>{editing ? `Edit ${editing.name}` : "New test"}</DialogTitle>
        <DialogDescription>A saved run: which collections, in which order, with which environment — like a Newman command line you can run again with one click.</DialogDescription>
      </DialogHeader>
      <ApiErrorAlert error={create.error ?? update.error} />
      <Field label="Name" htmlFor="test-name" error={errors.name?.message}>
        {(aria) => <Input {...aria} autoFocus placeholder="e.g. Checkout smoke test" {...form.register("name")} />}
      </Field>
      <Field label="Description" htmlFor="test-description" error={errors.description?.message}>
        {(aria) => <Input {...aria} placeholder="What it proves" {...form.register("description")} />}
      </Field>
      <Controller control={form.control} name="collectionIds" render={({ field, fieldState }) => <CollectionChecklist namespace={namespace} idPrefix="test-collection" value={field.value} onChange={field.onChange} error={fieldState.error?.message} />} />
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label="Environment" htmlFor="test-environment">
          {() => <Controller control={form.control} name="environmentId" render={({ field }) => <EnvironmentSelect id="test-environment" namespace={namespace} value={field.value ?? null} onChange={field.onChange} />} />}
        </Field>
        <Field label="Iterations" htmlFor="test-iterations" hint="empty: one per data row, else 1" error={errors.iterations?.message}>
          {(aria) => <Input {...aria} inputMode="numeric" placeholder="1" {...form.register("iterations")} />}
        </Field>
        <Field label="Delay between requests (ms)" htmlFor="test-delay" error={errors.delayMs?.message}>
          {(aria) => <Input {...aria} inputMode="numeric" {...form.register("delayMs", { valueAsNumber: true })} />}
        </Field>
      </div>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4 accent-primary" {...form.register("bail")} /> Stop at the first failure (bail)
      </label>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" pending={create.isPending || update.isPending}>
          {editing ? "Save test" : "Create test"}
        </Button>
      </DialogFooter>
    </form>
  );
}
