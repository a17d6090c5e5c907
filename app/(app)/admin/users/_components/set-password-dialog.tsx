"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { type AdminUserView, SetPasswordInput } from "@/server/contracts/users";

export function SetPasswordDialog({ user, onClose }: { user: AdminUserView | null; onClose: () => void }) {
  const trpc = useTRPC();
  const form = useForm<z.infer<typeof SetPasswordInput>>({ resolver: zodResolver(SetPasswordInput), defaultValues: { password: "" } });
  useEffect(() => {
    if (user) form.reset({ password: "" });
  }, [user, form]);
  const setPassword = useMutation(
    trpc.users.setPassword.mutationOptions({
      onSuccess: () => {
        toast.success(`Password of ${user?.username ?? "the user"} set; their sessions ended`);
        onClose();
      },
      onError: (err) => applyFieldErrors(err, form.setError, ["password"]),
    }),
  );
  return (
    <Dialog
      open={user !== null}
      onOpenChange={(o) => {
        if (!o) {
          setPassword.reset();
          onClose();
        }
      }}
    >
      <DialogContent className="max-w-md">
        <DialogHeader>
          <DialogTitle>Set password of {user?.username}</DialogTitle>
          <DialogDescription>They are signed out everywhere and log in with the new password.</DialogDescription>
        </DialogHeader>
        <form className="flex flex-col gap-5" noValidate onSubmit={form.handleSubmit((v) => user && setPassword.mutate({ id: user.id, password: v.password }))}>
          <ApiErrorAlert error={setPassword.error} />
          <Field label="New password" htmlFor="set-password" hint="At least 8 characters." error={form.formState.errors.password?.message}>
            {(aria) => <Input type="password" autoComplete="new-password" autoFocus {...aria} {...form.register("password")} />}
          </Field>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" pending={setPassword.isPending}>
              Set password
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
