"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Send } from "lucide-react";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { blankAs } from "@/components/lib/form";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { EmailConfigInput, EmailTestInput } from "@/server/contracts/email";
import { toastError } from "@/components/lib/toast-error";
import { CheckboxField } from "@/components/ui/checkbox-field";

const ConfigForm = EmailConfigInput.extend({
  username: blankAs(EmailConfigInput.shape.username, undefined),
  password: blankAs(EmailConfigInput.shape.password, undefined),
});
type Values = z.input<typeof ConfigForm>;
type Output = z.output<typeof ConfigForm>;

export function EmailPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const config = useQuery(trpc.email.config.queryOptions());
  const form = useForm<Values, unknown, Output>({ resolver: zodResolver(ConfigForm) });
  const { errors } = form.formState;
  useEffect(() => {
    const c = config.data;
    if (c) form.reset({ enabled: c.configured ? c.enabled : true, host: c.host, port: c.port, secure: c.secure, username: c.username ?? "", password: "", from: c.from, tlsRejectUnauthorized: c.tlsRejectUnauthorized });
  }, [config.data, form]);
  const save = useMutation(
    trpc.email.saveConfig.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.email.config.queryKey(), data);
        toast.success("E-mail settings saved");
      },
      onError: (err) => applyFieldErrors(err, form.setError, ["host", "port", "from", "username", "password"]),
    }),
  );
  const ping = useMutation(trpc.email.ping.mutationOptions({ onError: toastError }));

  return (
    <>
      <PageHeader title="E-mail" description="The SMTP server Polymock sends password-reset and verification e-mails through." />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <Card>
          <CardHeader>
            <CardTitle>SMTP server</CardTitle>
            <CardDescription>{config.data?.configured ? "Save to apply changes; they take effect for the next e-mail." : "Not configured yet: password resets and e-mail verification are unavailable until it is."}</CardDescription>
          </CardHeader>
          {config.isLoading ? (
            <CardContent className="flex flex-col gap-4" role="status" aria-label="Loading e-mail settings">
              <Skeleton className="h-9 w-full" />
              <Skeleton className="h-9 w-full" />
              <Skeleton className="h-9 w-full" />
            </CardContent>
          ) : config.error ? (
            <CardContent>
              <ApiErrorAlert error={config.error} />
            </CardContent>
          ) : (
            <form noValidate onSubmit={form.handleSubmit((v) => save.mutate(v))}>
              <CardContent className="flex flex-col gap-5">
                <ApiErrorAlert error={save.error} />
                <div className="grid gap-5 sm:grid-cols-[minmax(0,1fr)_8rem]">
                  <Field label="Host" htmlFor="smtp-host" error={errors.host?.message}>
                    {(aria) => <Input autoComplete="off" placeholder="smtp.example.com" {...aria} {...form.register("host")} />}
                  </Field>
                  <Field label="Port" htmlFor="smtp-port" error={errors.port?.message}>
                    {(aria) => <Input type="number" min={1} max={65535} {...aria} {...form.register("port", { valueAsNumber: true })} />}
                  </Field>
                </div>
                <Field label="Sender" htmlFor="smtp-from" hint="As it appears in the From header, e.g. Polymock <noreply@example.com>." error={errors.from?.message}>
                  {(aria) => <Input autoComplete="off" {...aria} {...form.register("from")} />}
                </Field>
                <div className="grid gap-5 sm:grid-cols-2">
                  <Field label="Username" htmlFor="smtp-username" hint="Empty: no authentication." error={errors.username?.message}>
                    {(aria) => <Input autoComplete="off" {...aria} {...form.register("username")} />}
                  </Field>
                  <Field label="Password" htmlFor="smtp-password" hint={config.data?.hasPassword ? "Saved. Leave empty to keep it." : "Stored encrypted."} error={errors.password?.message}>
                    {(aria) => <Input type="password" autoComplete="new-password" {...aria} {...form.register("password")} />}
                  </Field>
                </div>
                <div className="flex flex-col gap-3">
                  <CheckboxField idPrefix="smtp" control={form.control} name="enabled" label="Send e-mail" />
                  <CheckboxField idPrefix="smtp" control={form.control} name="secure" label="TLS from the first byte (usually port 465); otherwise STARTTLS when offered" />
                  <CheckboxField idPrefix="smtp" control={form.control} name="tlsRejectUnauthorized" label="Verify the server's TLS certificate" />
                </div>
              </CardContent>
              <CardFooter className="justify-between">
                <Button type="button" variant="outline" pending={ping.isPending} disabled={!config.data?.configured} onClick={() => ping.mutate()}>
                  Check connection
                </Button>
                <Button type="submit" pending={save.isPending}>
                  Save settings
                </Button>
              </CardFooter>
              {ping.data ? (
                <CardContent>
                  <Alert variant={ping.data.ok ? "success" : "error"} title={ping.data.ok ? "Connection works" : "Connection failed"}>
                    {ping.data.message}
                  </Alert>
                </CardContent>
              ) : null}
            </form>
          )}
        </Card>
        <SendTestCard disabled={!config.data?.configured} />
      </div>
    </>
  );
}


function SendTestCard({ disabled }: { disabled: boolean }) {
  const trpc = useTRPC();
  const [lastSentTo, setLastSentTo] = useState<string | null>(null);
  const form = useForm<z.infer<typeof EmailTestInput>>({ resolver: zodResolver(EmailTestInput), defaultValues: { to: "" } });
  const send = useMutation(
    trpc.email.sendTest.mutationOptions({
      onSuccess: (_d, v) => {
        setLastSentTo(v.to);
        toast.success(`Test e-mail sent to ${v.to}`);
      },
    }),
  );
  return (
    <Card className="self-start">
      <CardHeader>
        <CardTitle>Send a test e-mail</CardTitle>
        <CardDescription>Checks the saved settings end to end.</CardDescription>
      </CardHeader>
      <form noValidate onSubmit={form.handleSubmit((v) => send.mutate(v))}>
        <CardContent className="flex flex-col gap-4">
          <ApiErrorAlert error={send.error} />
          {lastSentTo && !send.error ? <Alert variant="success">Sent to {lastSentTo}. If it does not arrive, check the spam folder and the server&apos;s logs.</Alert> : null}
          <Field label="Recipient" htmlFor="test-to" error={form.formState.errors.to?.message}>
            {(aria) => <Input type="email" autoComplete="email" {...aria} {...form.register("to")} />}
          </Field>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" variant="secondary" pending={send.isPending} disabled={disabled}>
            <Send aria-hidden /> Send test e-mail
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
