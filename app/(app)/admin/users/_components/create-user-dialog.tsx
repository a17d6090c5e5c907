"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { UserPlus } from "lucide-react";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
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
import { CreateUserInput } from "@/server/contracts/users";
import { RoleSelect } from "./role-select";

const CreateForm = CreateUserInput.extend({
  email: blankAs(CreateUserInput.shape.email, null),
  password: blankAs(CreateUserInput.shape.password, undefined),
});
type Values = z.input<typeof CreateForm>;
const DEFAULTS: Values = { username: "", fullName: "", email: "", password: "", role: "user" };

export function CreateUserDialog() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const form = useForm<Values, unknown, z.output<typeof CreateForm>>({ resolver: zodResolver(CreateForm), defaultValues: DEFAULTS });
  const { errors } = form.formState;
  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: (u) => {
        void queryClient.invalidateQueries({ queryKey: trpc.users.list.pathKey() });
        toast.success(`User ${u.username} created`);
        setOpen(false);
      },
      onError: (err) => applyFieldErrors(err, form.setError, ["username", "email", "password", "fullName"]),
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
          <UserPlus aria-hidden /> Create user
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Create user</DialogTitle>
          <DialogDescription>Without a password, the user signs in through LDAP or single sign-on, or sets one from a reset e-mail.</DialogDescription>
        </DialogHeader>
        <form className="flex flex-col gap-5" noValidate onSubmit={form.handleSubmit((v) => create.mutate(v))}>
          <ApiErrorAlert error={create.error} />
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Username" htmlFor="new-username" error={errors.username?.message}>
              {(aria) => <Input autoComplete="off" autoFocus {...aria} {...form.register("username")} />}
            </Field>
            <Field label="Full name" htmlFor="new-fullname" error={errors.fullName?.message}>
              {(aria) => <Input autoComplete="off" {...aria} {...form.register("fullName")} />}
            </Field>
          </div>
          <Field label="E-mail address" htmlFor="new-email" hint="Optional. A verification link is sent when e-mail is set up." error={errors.email?.message}>
            {(aria) => <Input type="email" autoComplete="off" {...aria} {...form.register("email")} />}
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Initial password" htmlFor="new-password" hint="Optional; at least 8 characters." error={errors.password?.message}>
              {(aria) => <Input type="password" autoComplete="new-password" {...aria} {...form.register("password")} />}
            </Field>
            <Controller
              control={form.control}
              name="role"
              render={({ field }) => (
                <Field label="Role" htmlFor="new-role">
                  {(aria) => <RoleSelect value={field.value ?? "user"} onChange={field.onChange} {...aria} />}
                </Field>
              )}
            />
          </div>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" pending={create.isPending}>
              Create user
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
