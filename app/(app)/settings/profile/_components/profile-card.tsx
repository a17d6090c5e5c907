"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MailCheck, MailWarning } from "lucide-react";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { blankAs } from "@/components/lib/form";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { formatDateTime } from "@/components/lib/format";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Skeleton } from "@/components/ui/skeleton";
import { UpdateProfileInput } from "@/server/contracts/auth";
import { toastError } from "@/components/lib/toast-error";

/** The contract's profile update, with an empty e-mail field meaning "no address". */
const ProfileForm = UpdateProfileInput.extend({
  email: blankAs(UpdateProfileInput.shape.email, null),
});

const AUTH_SOURCE = { local: "Password", ldap: "LDAP", oidc: "Single sign-on" } as const;

export function ProfileCard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.auth.me.queryOptions());
  const form = useForm<z.input<typeof ProfileForm>, unknown, z.output<typeof ProfileForm>>({
    resolver: zodResolver(ProfileForm),
    defaultValues: { fullName: "", email: "" },
  });
  const { errors, isDirty } = form.formState;
  useEffect(() => {
    if (me.data) form.reset({ fullName: me.data.fullName, email: me.data.email ?? "" });
  }, [me.data, form]);

  const save = useMutation(
    trpc.auth.updateProfile.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.auth.me.queryKey(), data);
        toast.success(data.email && !data.emailVerified && form.getValues("email") ? "Profile saved. Check your inbox to verify the new address." : "Profile saved");
      },
      onError: (err) => applyFieldErrors(err, form.setError, ["fullName", "email"]),
    }),
  );
  const resend = useMutation(
    trpc.auth.resendVerification.mutationOptions({
      onSuccess: (data) => toast.success(data.message),
      onError: toastError,
    }),
  );

  return (
    <Card>
      <CardHeader>
        <CardTitle>Your details</CardTitle>
        <CardDescription>Changing the e-mail address sends a verification link to the new address.</CardDescription>
      </CardHeader>
      {me.isLoading ? (
        <CardContent className="flex flex-col gap-4" role="status" aria-label="Loading profile">
          <Skeleton className="h-12 w-full" />
          <Skeleton className="h-9 w-full" />
          <Skeleton className="h-9 w-full" />
        </CardContent>
      ) : me.error ? (
        <CardContent>
          <ApiErrorAlert error={me.error} />
        </CardContent>
      ) : me.data ? (
        <form noValidate onSubmit={form.handleSubmit((v) => save.mutate(v))}>
          <CardContent className="flex flex-col gap-5">
            <dl className="grid grid-cols-2 gap-x-4 gap-y-3 rounded-lg bg-muted/50 p-4 text-sm">
              <div>
                <dt className="text-muted-foreground">Username</dt>
                <dd className="font-medium">{me.data.username}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Role</dt>
                <dd className="font-medium">{me.data.role === "admin" ? "Administrator" : "User"}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Signs in with</dt>
                <dd className="font-medium">{AUTH_SOURCE[me.data.authSource]}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Last login</dt>
                <dd className="font-medium">{formatDateTime(me.data.lastLoginAt, "Never")}</dd>
              </div>
            </dl>
            <ApiErrorAlert error={save.error} />
            <Field label="Full name" htmlFor="fullName" error={errors.fullName?.message}>
              {(aria) => <Input autoComplete="name" {...aria} {...form.register("fullName")} />}
            </Field>
            <Field label="E-mail address" htmlFor="email" error={errors.email?.message} hint="Used for password resets and notifications.">
              {(aria) => <Input type="email" autoComplete="email" {...aria} {...form.register("email")} />}
            </Field>
            {me.data.email ? (
              <div className="flex flex-wrap items-center gap-3 text-sm">
                {me.data.emailVerified ? (
                  <Badge variant="success">
                    <MailCheck aria-hidden /> Verified
                  </Badge>
                ) : (
                  <>
                    <Badge variant="warning">
                      <MailWarning aria-hidden /> Not verified
                    </Badge>
                    <Button type="button" variant="link" size="sm" className="h-auto p-0" pending={resend.isPending} onClick={() => resend.mutate()}>
                      Resend verification e-mail
                    </Button>
                  </>
                )}
              </div>
            ) : null}
          </CardContent>
          <CardFooter className="justify-end">
            <Button type="submit" pending={save.isPending} disabled={!isDirty}>
              Save profile
            </Button>
          </CardFooter>
        </form>
      ) : null}
    </Card>
  );
}
