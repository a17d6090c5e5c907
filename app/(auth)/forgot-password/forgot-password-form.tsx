"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { ForgotPasswordInput } from "@/server/contracts/auth";

export function ForgotPasswordForm() {
  const trpc = useTRPC();
  const send = useMutation(trpc.auth.forgotPassword.mutationOptions());
  const form = useForm<z.infer<typeof ForgotPasswordInput>>({ resolver: zodResolver(ForgotPasswordInput), defaultValues: { email: "" } });
  const { errors } = form.formState;
  return (
    <Card>
      <CardHeader className="items-center text-center">
        <h1 className="text-xl font-semibold">Forgot your password?</h1>
        <CardDescription>Enter the e-mail address of your account and we will send you a link to choose a new password.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {send.isSuccess ? (
          <Alert variant="success" title="Check your inbox">
            {send.data.message} The link is valid for one hour.
          </Alert>
        ) : (
          <form className="flex flex-col gap-4" noValidate onSubmit={form.handleSubmit((v) => send.mutate(v))}>
            <ApiErrorAlert error={send.error} />
            <Field label="E-mail address" htmlFor="email" error={errors.email && "Enter a valid e-mail address"}>
              {(aria) => <Input type="email" autoComplete="email" autoFocus {...aria} {...form.register("email")} />}
            </Field>
            <Button type="submit" pending={send.isPending} className="w-full">
              Send reset link
            </Button>
          </form>
        )}
        <Link href="/login" className="self-center text-sm text-primary underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none">
          Back to log in
        </Link>
      </CardContent>
    </Card>
  );
}
