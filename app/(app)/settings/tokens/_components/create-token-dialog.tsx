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
import { CreateTokenInput } from "@/server/contracts/auth";
import { useNamespace } from "../../../_components/namespace-context";
import { PermissionCheckboxes } from "./permission-checkboxes";

type Values = z.input<typeof CreateTokenInput>;
const DEFAULTS: Values = { name: "", permissions: ["read", "write"], namespace: null, expiresInDays: 90 };
/** Radix Select needs a non-empty value for "no choice". */
const NONE = "__none__";
const EXPIRY_OPTIONS = [
  { value: "7", label: "7 days" },
  { value: "30", label: "30 days" },
  { value: "90", label: "90 days" },
  { value: "365", label: "1 year" },
  { value: NONE, label: "Never" },
];

export function CreateTokenDialog({ onCreated }: { onCreated: (secret: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { namespaces } = useNamespace();
  const [open, setOpen] = useState(false);
  const form = useForm<Values, unknown, z.output<typeof CreateTokenInput>>({ resolver: zodResolver(CreateTokenInput), defaultValues: DEFAULTS });
  const { errors } = form.formState;
  const create = useMutation(
    trpc.tokens.create.mutationOptions({
      onSuccess: (token) => {
        void queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
        toast.success(`Token “${token.name}” created`);
        setOpen(false);
        form.reset(DEFAULTS);
        onCreated(token.token);
      },
      onError: (err) => applyFieldErrors(err, form.setError, ["name", "permissions", "namespace", "expiresInDays"]),
    }),
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) create.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden /> Create token
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create API token</DialogTitle>
          <DialogDescription>A token can do at most what you can do. Give it only the permissions the job needs.</DialogDescription>
        </DialogHeader>
        <form className="flex flex-col gap-5" noValidate onSubmit={form.handleSubmit((v) => create.mutate(v))}>
          <ApiErrorAlert error={create.error} />
          <Field label="Name" htmlFor="token-name" hint="What uses it, e.g. “CI pipeline”." error={errors.name?.message}>
            {(aria) => <Input autoFocus {...aria} {...form.register("name")} />}
          </Field>
          <Controller
            control={form.control}
            name="permissions"
            render={({ field }) => <PermissionCheckboxes idPrefix="token-perm" value={field.value ?? []} onChange={field.onChange} error={errors.permissions?.message} />}
          />
          <div className="grid gap-5 sm:grid-cols-2">
            <Controller
              control={form.control}
              name="expiresInDays"
              render={({ field }) => (
                <Field label="Expires after" htmlFor="token-expiry">
                  {(aria) => (
                    <Select value={field.value ? String(field.value) : NONE} onValueChange={(v) => field.onChange(v === NONE ? undefined : Number(v))}>
                      <SelectTrigger {...aria}>
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        {EXPIRY_OPTIONS.map((o) => (
                          <SelectItem key={o.value} value={o.value}>
                            {o.label}
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
              name="namespace"
              render={({ field }) => (
                <Field label="Namespace" htmlFor="token-namespace" error={errors.namespace?.message}>
                  {(aria) => (
                    <Select value={field.value ?? NONE} onValueChange={(v) => field.onChange(v === NONE ? null : v)}>
                      <SelectTrigger {...aria}>
                        <SelectValue />
                      </SelectTrigger>
                      <SelectContent>
                        <SelectItem value={NONE}>All my namespaces</SelectItem>
                        {namespaces.map((ns) => (
                          <SelectItem key={ns.id} value={ns.name}>
                            Only {ns.name}
                          </SelectItem>
                        ))}
                      </SelectContent>
                    </Select>
                  )}
                </Field>
              )}
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" pending={create.isPending}>
              Create token
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
