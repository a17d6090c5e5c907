"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { blankAs } from "@/components/lib/form";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { CreateNamespaceInput } from "@/server/contracts/namespaces";

const CreateForm = CreateNamespaceInput.extend({
  description: blankAs(CreateNamespaceInput.shape.description, undefined),
  owner: blankAs(CreateNamespaceInput.shape.owner, undefined),
});
type Values = z.input<typeof CreateForm>;
const DEFAULTS: Values = { name: "", description: "", owner: "" };

export function CreateNamespaceDialog() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const form = useForm<Values, unknown, z.output<typeof CreateForm>>({ resolver: zodResolver(CreateForm), defaultValues: DEFAULTS });
  const { errors } = form.formState;
  const create = useMutation(
    trpc.namespaces.create.mutationOptions({
      onSuccess: (ns) => {
        void queryClient.invalidateQueries({ queryKey: trpc.namespaces.pathKey() });
        toast.success(`Namespace ${ns.name} created`);
        setOpen(false);
      },
      onError: (err) => applyFieldErrors(err, form.setError, ["name", "description", "owner"]),
    }),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) form.reset(DEFAULTS);
        else create.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden /> Create namespace
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create namespace</DialogTitle>
          <DialogDescription>A namespace holds one team&apos;s or project&apos;s mocks, apart from everyone else&apos;s. Its owner manages its members.</DialogDescription>
        </DialogHeader>
        <form className="flex flex-col gap-5" noValidate onSubmit={form.handleSubmit((v) => create.mutate(v))}>
          <ApiErrorAlert error={create.error} />
          <Field label="Name" htmlFor="ns-name" hint="Lowercase letters, digits, '-' and '_'; it appears in stub URLs." error={errors.name?.message}>
            {(aria) => <Input autoComplete="off" autoFocus {...aria} {...form.register("name")} />}
          </Field>
          <Field label="Description" htmlFor="ns-description" error={errors.description?.message}>
            {(aria) => <Input autoComplete="off" {...aria} {...form.register("description")} />}
          </Field>
          <Field label="Owner" htmlFor="ns-owner" hint="Username of the owner; empty makes you the owner." error={errors.owner?.message}>
            {(aria) => <Input autoComplete="off" {...aria} {...form.register("owner")} />}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" pending={create.isPending}>
              Create namespace
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
