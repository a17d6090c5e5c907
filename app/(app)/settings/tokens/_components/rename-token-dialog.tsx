"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { CreateTokenInput, type TokenView } from "@/server/contracts/auth";

const RenameForm = CreateTokenInput.pick({ name: true });

export function RenameTokenDialog({ token, onClose }: { token: TokenView | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useForm<z.infer<typeof RenameForm>>({ resolver: zodResolver(RenameForm), defaultValues: { name: "" } });
  useEffect(() => {
    if (token) form.reset({ name: token.name });
  }, [token, form]);
  const rename = useMutation(
    trpc.tokens.update.mutationOptions({
      onSuccess: (t) => {
        void queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
        toast.success(`Token renamed to “${t.name}”`);
        onClose();
      },
      onError: (err) => applyFieldErrors(err, form.setError, ["name"]),
    }),
  );
  return (
    <Dialog
      open={token !== null}
      onOpenChange={(o) => {
        if (!o) {
          rename.reset();
          onClose();
        }
      }}
    >
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Rename token</DialogTitle>
        </DialogHeader>
        <form className="flex flex-col gap-5" noValidate onSubmit={form.handleSubmit((v) => token && rename.mutate({ id: token.id, patch: { name: v.name } }))}>
          <ApiErrorAlert error={rename.error} />
          <Field label="Name" htmlFor="rename-token" error={form.formState.errors.name?.message}>
            {(aria) => <Input autoFocus {...aria} {...form.register("name")} />}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" pending={rename.isPending}>
              Save name
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
