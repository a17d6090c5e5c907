"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { Controller, useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { blankAs } from "@/components/lib/form";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { type AdminUserView, UpdateUserInput } from "@/server/contracts/users";
import { RoleSelect } from "./role-select";

const EditForm = UpdateUserInput.extend({ email: blankAs(UpdateUserInput.shape.email, null) });
type Values = z.input<typeof EditForm>;

export function EditUserDialog({ user, onClose }: { user: AdminUserView | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useForm<Values, unknown, z.output<typeof EditForm>>({ resolver: zodResolver(EditForm) });
  const { errors } = form.formState;
  useEffect(() => {
    if (user) form.reset({ username: user.username, fullName: user.fullName, email: user.email ?? "", role: user.role });
  }, [user, form]);
  const update = useMutation(
    trpc.users.update.mutationOptions({
      onSuccess: (u) => {
        void queryClient.invalidateQueries({ queryKey: trpc.users.list.pathKey() });
        toast.success(`${u.username} saved`);
        onClose();
      },
      onError: (err) => applyFieldErrors(err, form.setError, ["username", "email", "fullName", "role"]),
    }),
  );
  return (
    <Dialog
      open={user !== null}
      onOpenChange={(o) => {
        if (!o) {
          update.reset();
          onClose();
        }
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Edit {user?.username}</DialogTitle>
        </DialogHeader>
        <form className="flex flex-col gap-5" noValidate onSubmit={form.handleSubmit((v) => user && update.mutate({ id: user.id, patch: v }))}>
          <ApiErrorAlert error={update.error} />
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Username" htmlFor="edit-username" error={errors.username?.message}>
              {(aria) => <Input autoComplete="off" {...aria} {...form.register("username")} />}
            </Field>
            <Field label="Full name" htmlFor="edit-fullname" error={errors.fullName?.message}>
              {(aria) => <Input autoComplete="off" {...aria} {...form.register("fullName")} />}
            </Field>
          </div>
          <Field label="E-mail address" htmlFor="edit-email" error={errors.email?.message}>
            {(aria) => <Input type="email" autoComplete="off" {...aria} {...form.register("email")} />}
          </Field>
          <Controller
            control={form.control}
            name="role"
            render={({ field }) => (
              <Field label="Role" htmlFor="edit-role">
                {(aria) => <RoleSelect value={field.value ?? "user"} onChange={field.onChange} {...aria} />}
              </Field>
            )}
          />
          <DialogFooter>
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" pending={update.isPending}>
              Save changes
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
