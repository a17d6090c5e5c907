"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ResetPasswordInput } from "@/server/contracts/auth";

const ResetForm = ResetPasswordInput.pick({ newPassword: true })
  .extend({ confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ["confirmPassword"], message: "The passwords do not match" });

const linkClass = "self-center text-sm text-primary underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none";

export function ResetPasswordForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const reset = useMutation(trpc.auth.resetPassword.mutationOptions());
  const form = useForm<z.infer<typeof ResetForm>>({ resolver: zodResolver(ResetForm), defaultValues: { newPassword: "", confirmPassword: "" } });
  const { errors } = form.formState;
  const validToken = ResetPasswordInput.shape.token.safeParse(token).success;
  return (
    <Card>
      <CardHeader className="items-center text-center">
        <h1 className="text-xl font-semibold">Choose a new password</h1>
        <CardDescription>Your other sessions end when the password changes.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {!validToken ? (
          <Alert variant="error" title="This reset link is incomplete">
            Open the link from the e-mail exactly as it was sent, or ask for a new one.
          </Alert>
        ) : reset.isSuccess ? (
          <>
            <Alert variant="success" title="Password changed">
              You can now log in with your new password.
            </Alert>
            <Button asChild className="w-full">
              <Link href="/login">Log in</Link>
            </Button>
          </>
        ) : (
          <form
            className="flex flex-col gap-4"
            noValidate
            onSubmit={form.handleSubmit((v) =>
              reset.mutate(
                { token, newPassword: v.newPassword },
                { onError: (err) => applyFieldErrors(err, form.setError, ["newPassword"]) },
              ),
            )}
          >
            <ApiErrorAlert error={reset.error} />
            <Field label="New password" htmlFor="newPassword" hint="At least 8 characters." error={errors.newPassword?.message}>
              {(aria) => <Input type="password" autoComplete="new-password" autoFocus {...aria} {...form.register("newPassword")} />}
            </Field>
            <Field label="Repeat the new password" htmlFor="confirmPassword" error={errors.confirmPassword?.message}>
              {(aria) => <Input type="password" autoComplete="new-password" {...aria} {...form.register("confirmPassword")} />}
            </Field>
            <Button type="submit" pending={reset.isPending} className="w-full">
              Set new password
            </Button>
          </form>
        )}
        {reset.isSuccess ? null : (
          <Link href="/forgot-password" className={linkClass}>
            Ask for a new link
          </Link>
        )}
      </CardContent>
    </Card>
  );
}
