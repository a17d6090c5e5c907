"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useForm, useWatch } from "react-hook-form";
import type { z } from "zod";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader } from "@/components/ui/card";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { postJson } from "@/components/lib/api-error";
import { LdapLoginInput, LoginInput } from "@/server/contracts/auth";
import type { PublicProviderList } from "@/server/contracts/identity-providers";
import { oauthErrorMessage } from "./oauth-error-message";

type Provider = z.infer<typeof PublicProviderList>["providers"][number];

export function LoginForm({ providers, next, error }: { providers: Provider[]; next: string; error: string | null }) {
  const ldap = providers.filter((p) => p.type === "ldap");
  const oauth = providers.filter((p) => p.type !== "ldap" && p.loginUrl);
  return (
    <Card>
      <CardHeader className="items-center text-center">
        <h1 className="text-xl font-semibold">Log in</h1>
        <CardDescription>Sign in to manage mocks, tokens and namespaces.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-5">
        {error ? <Alert variant="error">{oauthErrorMessage(error)}</Alert> : null}
        {ldap.length ? (
          <Tabs defaultValue="password">
            <TabsList aria-label="Sign-in method">
              <TabsTrigger value="password">Password</TabsTrigger>
              <TabsTrigger value="ldap">LDAP</TabsTrigger>
            </TabsList>
            <TabsContent value="password">
              <PasswordForm next={next} />
            </TabsContent>
            <TabsContent value="ldap">
              <LdapForm next={next} directories={ldap} />
            </TabsContent>
          </Tabs>
        ) : (
          <PasswordForm next={next} />
        )}
        {oauth.length ? (
          <>
            <div className="flex items-center gap-3 text-xs text-muted-foreground uppercase" aria-hidden>
              <span className="h-px flex-1 bg-border" />
              or
              <span className="h-px flex-1 bg-border" />
            </div>
            <div className="flex flex-col gap-2">
              {oauth.map((p) => (
                <Button key={p.slug} variant="outline" asChild>
                  <a href={withCallback(p.loginUrl!, next)}>Sign in with {p.name}</a>
                </Button>
              ))}
            </div>
          </>
        ) : null}
      </CardContent>
    </Card>
  );
}

/** The OAuth flow returns the browser to `callbackUrl` when it succeeds. */
function withCallback(loginUrl: string, next: string) {
  if (next === "/") return loginUrl;
  const url = new URL(loginUrl);
  url.searchParams.set("callbackUrl", next);
  return url.toString();
}

function useLogin(url: string, next: string) {
  return useMutation({
    mutationFn: (body: unknown) => postJson(url, body),
    // A full navigation, so the server renders the app with the new session cookie.
    onSuccess: () => window.location.assign(next),
  });
}

function PasswordForm({ next }: { next: string }) {
  const login = useLogin("/api/v1/auth/login", next);
  const form = useForm<z.infer<typeof LoginInput>>({ resolver: zodResolver(LoginInput), defaultValues: { username: "", password: "" } });
  const { errors } = form.formState;
  return (
    <form className="flex flex-col gap-4" noValidate onSubmit={form.handleSubmit((v) => login.mutate(v))}>
      <ApiErrorAlert error={login.error} />
      <Field label="Username" htmlFor="username" error={errors.username && "Enter your username"}>
        {(aria) => <Input autoComplete="username" autoFocus {...aria} {...form.register("username")} />}
      </Field>
      <Field label="Password" htmlFor="password" error={errors.password && "Enter your password"}>
        {(aria) => <Input type="password" autoComplete="current-password" {...aria} {...form.register("password")} />}
      </Field>
      <Button type="submit" pending={login.isPending || login.isSuccess} className="w-full">
        Log in
      </Button>
      <Link href="/forgot-password" className="self-center text-sm text-primary underline-offset-4 hover:underline focus-visible:underline focus-visible:outline-none">
        Forgot password?
      </Link>
    </form>
  );
}

function LdapForm({ next, directories }: { next: string; directories: Provider[] }) {
  const login = useLogin("/api/v1/auth/ldap/login", next);
  const form = useForm<z.input<typeof LdapLoginInput>, unknown, z.output<typeof LdapLoginInput>>({
    resolver: zodResolver(LdapLoginInput),
    defaultValues: { username: "", password: "", provider: directories[0]?.slug },
  });
  const { errors } = form.formState;
  const provider = useWatch({ control: form.control, name: "provider" });
  return (
    <form className="flex flex-col gap-4" noValidate onSubmit={form.handleSubmit((v) => login.mutate(v))}>
      <ApiErrorAlert error={login.error} />
      {directories.length > 1 ? (
        <Field label="Directory" htmlFor="ldap-provider">
          {(aria) => (
            <Select value={provider} onValueChange={(v) => form.setValue("provider", v)}>
              <SelectTrigger {...aria}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {directories.map((d) => (
                  <SelectItem key={d.slug} value={d.slug}>
                    {d.name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </Field>
      ) : null}
      <Field label="Directory username" htmlFor="ldap-username" error={errors.username && "Enter your directory username"}>
        {(aria) => <Input autoComplete="username" {...aria} {...form.register("username")} />}
      </Field>
      <Field label="Directory password" htmlFor="ldap-password" error={errors.password && "Enter your directory password"}>
        {(aria) => <Input type="password" autoComplete="current-password" {...aria} {...form.register("password")} />}
      </Field>
      <Button type="submit" pending={login.isPending || login.isSuccess} className="w-full">
        Log in with {directories.length === 1 ? directories[0].name : "LDAP"}
      </Button>
    </form>
  );
}
