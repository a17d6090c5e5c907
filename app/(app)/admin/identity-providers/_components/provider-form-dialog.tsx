"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { Controller, type Path, type Resolver, useForm, useWatch } from "react-hook-form";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { CheckboxField } from "@/components/ui/checkbox-field";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { LdapConfig, type ProviderView } from "@/server/contracts/identity-providers";
import { LdapTestPanel } from "./ldap-test-panel";
import {
  configFor,
  CreateProviderForm,
  emptyValues,
  type ProviderFormOutput,
  type ProviderFormValues,
  type ProviderType,
  slugFrom,
  TYPE_LABEL,
  updateProviderForm,
  valuesFrom,
} from "./provider-form-model";

/** `provider` undefined: closed; null: create a new one; a provider: edit it. */
export function ProviderFormDialog({ provider, onClose }: { provider: ProviderView | null | undefined; onClose: () => void }) {
  return (
    <Dialog open={provider !== undefined} onOpenChange={(o) => (o ? undefined : onClose())}>
      <DialogContent className="max-w-2xl">
        {provider !== undefined ? <ProviderForm key={provider?.id ?? "new"} provider={provider} onClose={onClose} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function ProviderForm({ provider, onClose }: { provider: ProviderView | null; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const editing = provider !== null;
  const [slugTouched, setSlugTouched] = useState(editing);
  // Both resolvers read the same form values; their outputs are the create or update contract.
  const resolver = useMemo<Resolver<ProviderFormValues, unknown, ProviderFormOutput>>(
    () => (editing ? zodResolver(updateProviderForm(provider.type)) : zodResolver(CreateProviderForm)),
    [editing, provider],
  );
  const form = useForm<ProviderFormValues, unknown, ProviderFormOutput>({ resolver, defaultValues: editing ? valuesFrom(provider) : emptyValues() });
  const { errors } = form.formState;
  const [type, name, slug] = useWatch({ control: form.control, name: ["type", "name", "slug"] });
  useEffect(() => {
    if (!slugTouched) form.setValue("slug", slugFrom(name));
  }, [name, slugTouched, form]);

  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.identityProviders.list.queryKey() });
  const fields: Path<ProviderFormValues>[] = ["name", "slug", "clientSecret", "bindPassword", ...Object.keys(form.getValues("config")).map((k) => `config.${k}` as Path<ProviderFormValues>)];
  const onError = (err: unknown) => applyFieldErrors(err, form.setError, fields);
  const create = useMutation(
    trpc.identityProviders.create.mutationOptions({
      onSuccess: (p) => {
        void invalidate();
        toast.success(`${p.name} added`);
        onClose();
      },
      onError,
    }),
  );
  const update = useMutation(
    trpc.identityProviders.update.mutationOptions({
      onSuccess: (p) => {
        void invalidate();
        toast.success(`${p.name} saved`);
        onClose();
      },
      onError,
    }),
  );
  const mutation = editing ? update : create;

  const submit = form.handleSubmit((parsed) => {
    if ("type" in parsed) create.mutate(parsed);
    else if (editing) update.mutate({ id: provider.id, patch: parsed });
  });

  async function ldapTestInput() {
    const ok = await form.trigger(Object.keys(LdapConfig.shape).map((k) => `config.${k}` as Path<ProviderFormValues>));
    const config = LdapConfig.safeParse(configFor("ldap", form.getValues("config")));
    if (!ok || !config.success) return null;
    const bindPassword = form.getValues("bindPassword");
    return { providerId: provider?.id, config: config.data, bindPassword: bindPassword ? bindPassword : undefined };
  }

  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const redirectUri = `${origin}/api/auth/callback/${slug || "<slug>"}`;
  const cfg = errors.config;

  return (
    <form className="flex flex-col gap-5" noValidate onSubmit={submit}>
      <DialogHeader>
        <DialogTitle>{editing ? `Edit ${provider.name}` : "Add identity provider"}</DialogTitle>
        <DialogDescription>
          {type === "ldap"
            ? "Users sign in with their directory username and password on the login page's LDAP tab."
            : "Users get a “Sign in with …” button on the login page and sign in at the provider."}
        </DialogDescription>
      </DialogHeader>
      <ApiErrorAlert error={mutation.error} />
      <div className="grid gap-5 sm:grid-cols-2">
        <Controller
          control={form.control}
          name="type"
          render={({ field }) => (
            <Field label="Type" htmlFor="provider-type" hint={editing ? "The type cannot change; add a new provider instead." : undefined}>
              {(aria) => (
                <Select value={field.value} onValueChange={(v) => field.onChange(v as ProviderType)} disabled={editing}>
                  <SelectTrigger {...aria}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    {(Object.keys(TYPE_LABEL) as ProviderType[]).map((t) => (
                      <SelectItem key={t} value={t}>
                        {TYPE_LABEL[t]}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              )}
            </Field>
          )}
        />
        <Field label="Display name" htmlFor="provider-name" hint="Shown on the button: “Sign in with <name>”." error={errors.name?.message}>
          {(aria) => <Input autoComplete="off" autoFocus {...aria} {...form.register("name")} />}
        </Field>
        <Field label="Slug" htmlFor="provider-slug" hint={editing ? "Part of the login and callback URLs; fixed once created." : "Part of the login and callback URLs."} error={errors.slug?.message}>
          {(aria) => <Input autoComplete="off" disabled={editing} {...aria} {...form.register("slug", { onChange: () => setSlugTouched(true) })} />}
        </Field>
        <div className="flex flex-col justify-end gap-3 pb-1">
          <CheckboxField idPrefix="provider" control={form.control} name="enabled" label="Enabled (shown on the login page)" />
          <CheckboxField idPrefix="provider" control={form.control} name="autoCreateUsers" label="Create a user at first sign-in" />
        </div>
      </div>

      {type === "oidc" ? (
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Issuer URL" htmlFor="oidc-issuer" className="sm:col-span-2" hint="Its /.well-known/openid-configuration is read." error={cfg?.issuer?.message}>
            {(aria) => <Input type="url" placeholder="https://sso.example.com/realms/main" {...aria} {...form.register("config.issuer")} />}
          </Field>
          <Field label="Scopes" htmlFor="oidc-scopes" error={cfg?.scopes?.message}>
            {(aria) => <Input {...aria} {...form.register("config.scopes")} />}
          </Field>
          <Field label="Username claim" htmlFor="oidc-username-claim" error={cfg?.usernameClaim?.message}>
            {(aria) => <Input {...aria} {...form.register("config.usernameClaim")} />}
          </Field>
        </div>
      ) : null}
      {type !== "ldap" ? (
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Client ID" htmlFor="oauth-client-id" error={cfg?.clientId?.message}>
            {(aria) => <Input autoComplete="off" {...aria} {...form.register("config.clientId")} />}
          </Field>
          <Field
            label="Client secret"
            htmlFor="oauth-client-secret"
            hint={editing && provider.hasSecret ? "Saved. Leave empty to keep it." : "Stored encrypted; never shown again."}
            error={errors.clientSecret?.message}
          >
            {(aria) => <Input type="password" autoComplete="new-password" {...aria} {...form.register("clientSecret")} />}
          </Field>
          <div className="flex flex-col gap-2 sm:col-span-2">
            <Label htmlFor="redirect-uri">Redirect URI to register at the provider</Label>
            <div className="flex gap-2">
              <Input id="redirect-uri" readOnly value={redirectUri} className="font-mono text-xs" />
              <CopyButton value={redirectUri} />
            </div>
          </div>
        </div>
      ) : (
        <>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Server URL" htmlFor="ldap-url" hint="ldap://host:389 or ldaps://host:636" error={cfg?.url?.message}>
              {(aria) => <Input autoComplete="off" {...aria} {...form.register("config.url")} />}
            </Field>
            <Field label="Base DN" htmlFor="ldap-base-dn" hint="Where users are searched, e.g. ou=people,dc=example,dc=org" error={cfg?.baseDn?.message}>
              {(aria) => <Input autoComplete="off" {...aria} {...form.register("config.baseDn")} />}
            </Field>
            <Field label="Bind DN" htmlFor="ldap-bind-dn" hint="The read-only service account; empty binds anonymously." error={cfg?.bindDn?.message}>
              {(aria) => <Input autoComplete="off" {...aria} {...form.register("config.bindDn")} />}
            </Field>
            <Field
              label="Bind password"
              htmlFor="ldap-bind-password"
              hint={editing && provider.hasSecret ? "Saved. Leave empty to keep it." : "Stored encrypted; never shown again."}
              error={errors.bindPassword?.message}
            >
              {(aria) => <Input type="password" autoComplete="new-password" {...aria} {...form.register("bindPassword")} />}
            </Field>
            <Field label="User filter" htmlFor="ldap-user-filter" hint="{{username}} becomes the escaped login name." error={cfg?.userFilter?.message} className="sm:col-span-2">
              {(aria) => <Input autoComplete="off" className="font-mono text-xs" {...aria} {...form.register("config.userFilter")} />}
            </Field>
          </div>
          <div className="grid gap-5 sm:grid-cols-4">
            <Field label="Username attribute" htmlFor="ldap-username-attr" error={cfg?.usernameAttribute?.message}>
              {(aria) => <Input {...aria} {...form.register("config.usernameAttribute")} />}
            </Field>
            <Field label="E-mail attribute" htmlFor="ldap-email-attr" error={cfg?.emailAttribute?.message}>
              {(aria) => <Input {...aria} {...form.register("config.emailAttribute")} />}
            </Field>
            <Field label="Name attribute" htmlFor="ldap-name-attr" error={cfg?.nameAttribute?.message}>
              {(aria) => <Input {...aria} {...form.register("config.nameAttribute")} />}
            </Field>
            <Field label="Timeout (ms)" htmlFor="ldap-timeout" error={cfg?.timeoutMs?.message}>
              {(aria) => <Input type="number" min={100} max={60000} {...aria} {...form.register("config.timeoutMs", { valueAsNumber: true })} />}
            </Field>
          </div>
          <div className="flex flex-wrap gap-x-6 gap-y-3">
            <CheckboxField idPrefix="provider" control={form.control} name="config.startTls" label="Use StartTLS" />
            <CheckboxField idPrefix="provider" control={form.control} name="config.tlsRejectUnauthorized" label="Verify the server's TLS certificate" />
          </div>
          <LdapTestPanel input={ldapTestInput} />
        </>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" pending={mutation.isPending}>
          {editing ? "Save changes" : "Add provider"}
        </Button>
      </DialogFooter>
    </form>
  );
}

