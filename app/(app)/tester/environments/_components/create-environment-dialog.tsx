"use client";
// Names a new, empty environment; the page opens it in the editor once created.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { CreateEnvironmentInput, type EnvironmentView } from "@/server/contracts/tester-environments";

const NameForm = z.object({ name: CreateEnvironmentInput.shape.name });
type NameValues = z.input<typeof NameForm>;

export function CreateEnvironmentDialog({ open, onOpenChange, namespace, onCreated }: { open: boolean; onOpenChange: (open: boolean) => void; namespace: string | undefined; onCreated: (env: EnvironmentView) => void }) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-md">{open ? <CreateForm namespace={namespace} onCreated={onCreated} onCancel={() => onOpenChange(false)} /> : null}</DialogContent>
    </Dialog>
  );
}

function CreateForm({ namespace, onCreated, onCancel }: { namespace: string | undefined; onCreated: (env: EnvironmentView) => void; onCancel: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useForm<NameValues>({ resolver: zodResolver(NameForm), defaultValues: { name: "" } });
  const create = useMutation(
    trpc.apiTester.environments.create.mutationOptions({
      onSuccess: (env) => {
        toast.success(`${env.name} created`);
        void queryClient.invalidateQueries({ queryKey: trpc.apiTester.environments.pathKey() });
        onCreated(env);
      },
      onError: (err) => applyFieldErrors(err, form.setError, ["name"]),
    }),
  );
  return (
    <form className="flex flex-col gap-5" noValidate onSubmit={form.handleSubmit((v) => create.mutate({ namespace, environment: { name: v.name } }))}>
      <DialogHeader>
        <DialogTitle>New environment</DialogTitle>
        <DialogDescription>A named set of variables, such as “Local” or “Staging”. You add its variables next.</DialogDescription>
      </DialogHeader>
      <ApiErrorAlert error={create.error} />
      <Field label="Name" htmlFor="new-environment-name" error={form.formState.errors.name?.message}>
        {(aria) => <Input {...aria} autoFocus placeholder="e.g. Staging" {...form.register("name")} />}
      </Field>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" pending={create.isPending}>
          Create environment
        </Button>
      </DialogFooter>
    </form>
  );
}
