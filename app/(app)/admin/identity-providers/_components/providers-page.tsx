"use client";
// Identity providers for administrators: add, edit (Enter on a row), enable or disable, delete.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatDate } from "@/components/lib/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import type { ProviderView } from "@/server/contracts/identity-providers";
import { ProviderFormDialog } from "./provider-form-dialog";
import { TYPE_LABEL } from "./provider-form-model";
import { toastError } from "@/components/lib/toast-error";

export function ProvidersPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.identityProviders.list.queryOptions());
  const [editing, setEditing] = useState<ProviderView | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<ProviderView | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.identityProviders.list.queryKey() });
  const toggle = useMutation(
    trpc.identityProviders.update.mutationOptions({
      onSuccess: (p) => {
        void invalidate();
        toast.success(p.enabled ? `${p.name} enabled` : `${p.name} disabled; it no longer appears on the login page`);
      },
      onError: toastError,
    }),
  );
  const remove = useMutation(
    trpc.identityProviders.remove.mutationOptions({
      onSuccess: () => {
        void invalidate();
        toast.success(`${deleting?.name ?? "Provider"} deleted`);
        setDeleting(null);
      },
      onError: toastError,
    }),
  );
  const columns: DataColumn<ProviderView>[] = [
    {
      id: "name",
      header: "Name",
      cell: (p) => (
        <>
          <span className="font-medium">{p.name}</span>
          <code className="block font-mono text-xs text-muted-foreground">{p.slug}</code>
        </>
      ),
    },
    { id: "type", header: "Type", cell: (p) => <Badge variant="outline">{TYPE_LABEL[p.type]}</Badge> },
    { id: "users", header: "New users", className: "text-sm", cell: (p) => (p.autoCreateUsers ? "Created at first sign-in" : "Must exist already") },
    { id: "updated", header: "Updated", cell: (p) => formatDate(p.updatedAt) },
    { id: "status", header: "Status", cell: (p) => (p.enabled ? <Badge variant="success">Enabled</Badge> : <Badge variant="secondary">Disabled</Badge>) },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      headClassName: "text-right",
      cell: (p) => (
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" aria-label={`Edit ${p.name}`} onClick={() => setEditing(p)}>
            Edit
          </Button>
          <Button
            variant="outline"
            size="sm"
            aria-label={`${p.enabled ? "Disable" : "Enable"} ${p.name}`}
            pending={toggle.isPending && toggle.variables?.id === p.id}
            onClick={() => toggle.mutate({ id: p.id, patch: { enabled: !p.enabled } })}
          >
            {p.enabled ? "Disable" : "Enable"}
          </Button>
          <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`Delete ${p.name}`} onClick={() => setDeleting(p)}>
            Delete
          </Button>
        </div>
      ),
    },
  ];
  const addButton = (
    <Button onClick={() => setEditing(null)}>
      <Plus aria-hidden /> Add provider
    </Button>
  );

  return (
    <>
      <PageHeader
        title="Identity providers"
        description="Let people sign in with accounts they already have: OpenID Connect (Keycloak, Okta, Entra ID…), GitHub, Google or an LDAP directory."
        actions={addButton}
      />
      <Card>
        <CardContent className="pt-6">
          <DataTable
            label="Identity providers"
            columns={columns}
            data={list.data?.providers}
            isLoading={list.isLoading}
            error={list.error}
            rowKey={(p) => p.id}
            onOpen={setEditing}
            skeletonRows={3}
            empty={{
              icon: ShieldCheck,
              title: "No identity providers yet",
              body: "For now everyone signs in with a Polymock username and password. Add a provider to show a “Sign in with …” button or an LDAP tab on the login page.",
            }}
          />
        </CardContent>
      </Card>
      <ProviderFormDialog provider={editing} onClose={() => setEditing(undefined)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title={`Delete ${deleting?.name ?? ""}?`}
        description="Its button or tab disappears from the login page. Users who signed in with it keep their accounts but need another way to sign in."
        confirmLabel="Delete provider"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      />
    </>
  );
}
