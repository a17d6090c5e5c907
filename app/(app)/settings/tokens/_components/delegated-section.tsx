"use client";
// Delegated credentials (runners, integrations) the caller owns or oversees: create, rotate, revoke.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Workflow } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { formatDate, formatRelative } from "@/components/lib/format";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import type { DelegatedView } from "@/server/contracts/auth";
import { CreateDelegatedDialog } from "./create-delegated-dialog";
import { PermissionBadges } from "./permission-badges";
import { SecretDialog } from "./secret-dialog";
import { StatusBadge } from "./status-badge";
import { toastError } from "@/components/lib/toast-error";

type Delegated = z.infer<typeof DelegatedView>;

export function DelegatedSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.tokens.delegated.list.queryOptions());
  const [secret, setSecret] = useState<string | null>(null);
  const [rotating, setRotating] = useState<Delegated | null>(null);
  const [revoking, setRevoking] = useState<Delegated | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.tokens.delegated.list.queryKey() });
  const rotate = useMutation(
    trpc.tokens.delegated.rotate.mutationOptions({
      onSuccess: (c) => {
        void invalidate();
        setRotating(null);
        toast.success(`“${c.name}” rotated; the old secret no longer works`);
        setSecret(c.token);
      },
      onError: toastError,
    }),
  );
  const revoke = useMutation(
    trpc.tokens.delegated.revoke.mutationOptions({
      onSuccess: (c) => {
        void invalidate();
        setRevoking(null);
        toast.success(`“${c.name}” revoked`);
      },
      onError: toastError,
    }),
  );
  const columns: DataColumn<Delegated>[] = [
    {
      id: "name",
      header: "Name",
      className: "font-medium",
      cell: (c) => (
        <>
          {c.name}
          <code className="mt-0.5 block font-mono text-xs font-normal text-muted-foreground">{c.prefix}…</code>
        </>
      ),
    },
    { id: "namespace", header: "Namespace", cell: (c) => c.namespace },
    { id: "owner", header: "Owner", cell: (c) => c.owner.username },
    { id: "permissions", header: "Permissions", cell: (c) => <PermissionBadges permissions={c.permissions} /> },
    {
      id: "expires",
      header: "Credential expires",
      cell: (c) => (
        <span title={c.credentialExpiresAt}>
          {formatDate(c.credentialExpiresAt)}
          <span className="block text-xs text-muted-foreground">{formatRelative(c.credentialExpiresAt)}</span>
        </span>
      ),
    },
    { id: "status", header: "Status", cell: (c) => <StatusBadge status={c.status} /> },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      headClassName: "text-right",
      cell: (c) =>
        c.status !== "revoked" ? (
          <div className="flex justify-end gap-2">
            <Button variant="outline" size="sm" aria-label={`Rotate ${c.name}`} onClick={() => setRotating(c)}>
              Rotate
            </Button>
            <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`Revoke ${c.name}`} onClick={() => setRevoking(c)}>
              Revoke
            </Button>
          </div>
        ) : null,
    },
  ];

  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="flex flex-col gap-1.5">
          <CardTitle>Delegated credentials</CardTitle>
          <CardDescription>For runners and integrations that act for one namespace. Namespace owners see the credentials of their namespaces.</CardDescription>
        </div>
        <CreateDelegatedDialog onCreated={setSecret} />
      </CardHeader>
      <CardContent>
        <DataTable
          label="Delegated credentials"
          columns={columns}
          data={list.data?.credentials}
          isLoading={list.isLoading}
          error={list.error}
          rowKey={(c) => c.id}
          rowClassName={(c) => (c.status === "revoked" ? "text-muted-foreground" : undefined)}
          skeletonRows={3}
          empty={{
            icon: Workflow,
            title: "No delegated credentials",
            body: "Give a load runner or CI integration its own credential, frozen to one namespace. It expires after 90 days unless rotated.",
          }}
        />
      </CardContent>
      <SecretDialog
        secret={secret}
        title="Your delegated credential"
        description="Give it to the runner or integration. It expires in 90 days; rotate it before then."
        onClose={() => setSecret(null)}
      />
      <ConfirmDialog
        open={rotating !== null}
        onOpenChange={(o) => (o ? undefined : setRotating(null))}
        title={`Rotate “${rotating?.name ?? ""}”?`}
        description="A new secret replaces the current one, which stops working at once. The scope stays; the 90 days start again."
        confirmLabel="Rotate credential"
        destructive={false}
        pending={rotate.isPending}
        onConfirm={() => rotating && rotate.mutate({ id: rotating.id })}
      />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(o) => (o ? undefined : setRevoking(null))}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        description="The credential stops working at once and cannot be rotated afterwards."
        confirmLabel="Revoke credential"
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
      />
    </Card>
  );
}
