"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { CreateDelegatedInput } from "@/server/contracts/auth";
import { useNamespace } from "../../../_components/namespace-context";
import { PermissionCheckboxes } from "./permission-checkboxes";

type Values = z.input<typeof CreateDelegatedInput>;

export function CreateDelegatedDialog({ onCreated }: { onCreated: (secret: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { namespaces, current } = useNamespace();
  const [open, setOpen] = useState(false);
  const defaults = (): Values => ({ name: "", namespace: current?.name ?? "", permissions: ["read"] });
  const form = useForm<Values, unknown, z.output<typeof CreateDelegatedInput>>({ resolver: zodResolver(CreateDelegatedInput), defaultValues: defaults() });
  const { errors } = form.formState;
  const create = useMutation(
    trpc.tokens.delegated.create.mutationOptions({
      onSuccess: (c) => {
        void queryClient.invalidateQueries({ queryKey: trpc.tokens.delegated.list.queryKey() });
        toast.success(`Delegated credential “${c.name}” created`);
        setOpen(false);
        onCreated(c.token);
      },
      onError: (err) => applyFieldErrors(err, form.setError, ["name", "namespace", "permissions"]),
    }),
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (o) form.reset(defaults());
        else create.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">
          <Plus aria-hidden /> Create delegated credential
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create delegated credential</DialogTitle>
          <DialogDescription>It is frozen to one namespace and expires after 90 days; rotating it starts the 90 days again.</DialogDescription>
        </DialogHeader>
        <form className="flex flex-col gap-5" noValidate onSubmit={form.handleSubmit((v) => create.mutate(v))}>
          <ApiErrorAlert error={create.error} />
          <Field label="Name" htmlFor="delegated-name" hint="What acts with it, e.g. “load runner 1”." error={errors.name?.message}>
            {(aria) => <Input autoFocus {...aria} {...form.register("name")} />}
          </Field>
          <Controller
            control={form.control}
            name="namespace"
            render={({ field }) => (
              <Field label="Namespace" htmlFor="delegated-namespace" error={errors.namespace?.message && "Choose a namespace"}>
                {(aria) => (
                  <Select value={field.value || undefined} onValueChange={field.onChange}>
                    <SelectTrigger {...aria}>
                      <SelectValue placeholder="Choose a namespace" />
                    </SelectTrigger>
                    <SelectContent>
                      {namespaces.map((ns) => (
                        <SelectItem key={ns.id} value={ns.name}>
                          {ns.name}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                )}
              </Field>
            )}
          />
          <Controller
            control={form.control}
            name="permissions"
            render={({ field }) => <PermissionCheckboxes idPrefix="delegated-perm" value={field.value ?? []} onChange={field.onChange} error={errors.permissions?.message} />}
          />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" pending={create.isPending}>
              Create credential
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
