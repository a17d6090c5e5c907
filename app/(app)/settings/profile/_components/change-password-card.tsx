"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ChangePasswordInput } from "@/server/contracts/auth";

const PasswordForm = ChangePasswordInput.extend({ confirmPassword: z.string() }).refine((v) => v.newPassword === v.confirmPassword, {
  path: ["confirmPassword"],
  message: "The passwords do not match",
});
type PasswordValues = z.infer<typeof PasswordForm>;
const EMPTY: PasswordValues = { currentPassword: "", newPassword: "", confirmPassword: "" };

export function ChangePasswordCard() {
  const trpc = useTRPC();
  const me = useQuery(trpc.auth.me.queryOptions());
  const form = useForm<PasswordValues>({ resolver: zodResolver(PasswordForm), defaultValues: EMPTY });
  const { errors } = form.formState;
  const change = useMutation(
    trpc.auth.changePassword.mutationOptions({
      onSuccess: () => {
        form.reset(EMPTY);
        toast.success("Password changed. Your other sessions were signed out.");
      },
      onError: (err) => applyFieldErrors(err, form.setError, ["currentPassword", "newPassword"]),
    }),
  );
  const managedElsewhere = me.data && me.data.authSource !== "local";

  return (
    <Card>
      <CardHeader>
        <CardTitle>Change password</CardTitle>
        <CardDescription>Changing it signs you out everywhere except this browser.</CardDescription>
      </CardHeader>
      <form noValidate onSubmit={form.handleSubmit(({ currentPassword, newPassword }) => change.mutate({ currentPassword, newPassword }))}>
        <CardContent className="flex flex-col gap-5">
          {managedElsewhere ? (
            <Alert variant="info">Your password is managed by {me.data.authSource.toUpperCase()}; change it there.</Alert>
          ) : null}
          <ApiErrorAlert error={change.error} />
          <Field label="Current password" htmlFor="currentPassword" error={errors.currentPassword?.message}>
            {(aria) => <Input type="password" autoComplete="current-password" {...aria} {...form.register("currentPassword")} />}
          </Field>
          <Field label="New password" htmlFor="newPassword" hint="At least 8 characters." error={errors.newPassword?.message}>
            {(aria) => <Input type="password" autoComplete="new-password" {...aria} {...form.register("newPassword")} />}
          </Field>
          <Field label="Repeat the new password" htmlFor="confirmPassword" error={errors.confirmPassword?.message}>
            {(aria) => <Input type="password" autoComplete="new-password" {...aria} {...form.register("confirmPassword")} />}
          </Field>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" pending={change.isPending}>
            Change password
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
