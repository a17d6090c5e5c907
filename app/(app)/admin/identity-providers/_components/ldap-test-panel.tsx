"use client";
import { useMutation } from "@tanstack/react-query";
import { CircleCheck, CircleX, PlugZap } from "lucide-react";
import { useState } from "react";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { LdapTestInput } from "@/server/contracts/identity-providers";

const STEP_LABEL: Record<string, string> = { connect: "Connect", bind: "Bind", search: "Search", user_bind: "User password" };

/**
 * Runs the LDAP connection test against what the form holds now. `input`
 * returns null when the form's LDAP fields are invalid (the form shows why).
 */
export function LdapTestPanel({ input }: { input: () => Promise<z.input<typeof LdapTestInput> | null> }) {
  const trpc = useTRPC();
  const test = useMutation(trpc.identityProviders.testLdap.mutationOptions());
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");

  async function run() {
    const base = await input();
    if (!base) return;
    test.mutate({ ...base, username: username.trim() || undefined, password: username.trim() && password ? password : undefined });
  }

  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border p-4">
      <legend className="px-1 text-sm font-medium">Test the connection</legend>
      <p className="text-xs text-muted-foreground">Connects, binds with the service account and searches the base DN. Give a user to also look them up and check their password.</p>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="flex flex-col gap-2">
          <Label htmlFor="ldap-test-username">Test user (optional)</Label>
          <Input id="ldap-test-username" autoComplete="off" value={username} onChange={(e) => setUsername(e.target.value)} />
        </div>
        <div className="flex flex-col gap-2">
          <Label htmlFor="ldap-test-password">Test user&apos;s password (optional)</Label>
          <Input id="ldap-test-password" type="password" autoComplete="off" value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
      </div>
      <div>
        <Button type="button" variant="secondary" pending={test.isPending} onClick={() => void run()}>
          <PlugZap aria-hidden /> Test connection
        </Button>
      </div>
      <ApiErrorAlert error={test.error} />
      {test.data ? (
        <div className="flex flex-col gap-2" aria-live="polite">
          <Alert variant={test.data.ok ? "success" : "error"} title={test.data.ok ? "Connection works" : "Connection test failed"} />
          <ol className="flex flex-col gap-1.5 text-sm" aria-label="Test steps">
            {test.data.steps.map((s) => (
              <li key={s.step} className="flex items-start gap-2">
                {s.ok ? <CircleCheck className="mt-0.5 size-4 shrink-0 text-success" aria-label="passed" /> : <CircleX className="mt-0.5 size-4 shrink-0 text-destructive" aria-label="failed" />}
                <span>
                  <span className="font-medium">{STEP_LABEL[s.step] ?? s.step}:</span> <span className="break-all text-muted-foreground">{s.message}</span>
                </span>
              </li>
            ))}
          </ol>
          {test.data.user ? (
            <p className="text-sm text-muted-foreground">
              Found user <span className="font-medium text-foreground">{test.data.user.username}</span>
              {test.data.user.email ? ` <${test.data.user.email}>` : ""} — {test.data.user.fullName || test.data.user.dn}
            </p>
          ) : null}
        </div>
      ) : null}
    </fieldset>
  );
}
