"use client";
// The namespace's API tester environments: the list (the one active for you
// marked), and the chosen one's editor. `?env=<id>` names the environment
// shown, so a link opens it; without it the active one (or the first) opens.
// Switching to another environment with unsaved changes asks first.
import { useQuery } from "@tanstack/react-query";
import { CheckCircle2, Layers, Plus } from "lucide-react";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useCallback, useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { cn } from "@/components/lib/cn";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { EnvironmentView } from "@/server/contracts/tester-environments";
import { useNamespace } from "../../../_components/namespace-context";
import { CreateEnvironmentDialog } from "./create-environment-dialog";
import { EnvironmentEditor } from "./environment-editor";

export function EnvironmentsPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const namespace = useNamespace().current?.name;
  const list = useQuery(trpc.apiTester.environments.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const [creating, setCreating] = useState(false);
  const [dirty, setDirty] = useState(false);
  const [switchTo, setSwitchTo] = useState<string | null>(null);

  const environments = list.data?.environments ?? [];
  const wanted = searchParams.get("env");
  const shown = environments.find((e) => e.id === wanted) ?? environments.find((e) => e.isActive) ?? environments[0] ?? null;

  const show = useCallback(
    (id: string | null) => {
      const params = new URLSearchParams(searchParams.toString());
      if (id) params.set("env", id);
      else params.delete("env");
      router.replace(`${pathname}?${params}`, { scroll: false });
    },
    [pathname, router, searchParams],
  );
  const pick = (id: string) => {
    if (id === shown?.id) return;
    if (dirty) setSwitchTo(id);
    else show(id);
  };

  const newButton = (
    <Button onClick={() => setCreating(true)}>
      <Plus aria-hidden /> New environment
    </Button>
  );

  let body: React.ReactNode;
  if (list.error) body = <ApiErrorAlert error={list.error} title="The environments could not be loaded" />;
  else if (!namespace || list.isLoading) body = <SkeletonRows rows={5} label="Loading the environments" />;
  else if (!environments.length)
    body = (
      <EmptyState icon={Layers} title="No environments yet" action={newButton}>
        An environment is a named set of variables: <code className="font-mono text-xs">baseUrl</code> = <code className="font-mono text-xs">http://localhost:3000</code> in “Local”, <code className="font-mono text-xs">https://staging.example.com</code> in “Staging”. Requests
        written with <code className="font-mono text-xs">{"{{baseUrl}}"}</code> then go wherever the active environment says. Mark tokens and passwords secret: they are stored encrypted and never shown again.
      </EmptyState>
    );
  else
    body = (
      <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <Card className="self-start">
          <CardHeader>
            <CardTitle>Environments</CardTitle>
          </CardHeader>
          <CardContent>
            <ul aria-label="Environments" className="flex flex-col gap-0.5">
              {environments.map((e) => (
                <li key={e.id}>
                  <button
                    type="button"
                    aria-current={e.id === shown?.id ? "true" : undefined}
                    onClick={() => pick(e.id)}
                    className={cn(
                      "flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring",
                      e.id === shown?.id && "bg-accent font-medium",
                    )}
                  >
                    <span className="min-w-0 flex-1 truncate">{e.name}</span>
                    {e.isActive ? (
                      <Badge variant="success" className="shrink-0">
                        <CheckCircle2 aria-hidden /> Active
                      </Badge>
                    ) : null}
                    <span className="shrink-0 text-xs text-muted-foreground tabular-nums" aria-label={`${Object.keys(e.variables).length} variables`}>
                      {Object.keys(e.variables).length}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        {shown ? <EnvironmentEditor key={`${shown.id}:${shown.updatedAt}`} environment={shown} namespace={namespace} onDirtyChange={setDirty} onDeleted={() => show(null)} /> : null}
      </div>
    );

  return (
    <>
      <PageHeader
        title="Environments"
        description="Named sets of variables for the API tester. The active environment fills {{variables}} in the requests you send; the runner can run a collection against any of them. Each person chooses their own active environment."
        actions={environments.length ? newButton : null}
      />
      {body}
      <CreateEnvironmentDialog
        open={creating}
        onOpenChange={setCreating}
        namespace={namespace}
        onCreated={(env: EnvironmentView) => {
          setCreating(false);
          if (!dirty) show(env.id);
        }}
      />
      <ConfirmDialog
        open={switchTo !== null}
        onOpenChange={(o) => (o ? undefined : setSwitchTo(null))}
        title="Discard unsaved changes?"
        description={`${shown?.name ?? "This environment"} has changes that are not saved. They are lost if you open another environment now.`}
        confirmLabel="Discard and switch"
        onConfirm={() => {
          const id = switchTo;
          setSwitchTo(null);
          setDirty(false);
          if (id) show(id);
        }}
      />
    </>
  );
}
