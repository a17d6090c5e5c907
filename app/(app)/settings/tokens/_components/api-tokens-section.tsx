"use client";
// The caller's own API tokens: create (the secret is shown once), rename, revoke.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatDate, formatRelative } from "@/components/lib/format";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import type { TokenView } from "@/server/contracts/auth";
import { CreateTokenDialog } from "./create-token-dialog";
import { PermissionBadges } from "./permission-badges";
import { RenameTokenDialog } from "./rename-token-dialog";
import { SecretDialog } from "./secret-dialog";
import { StatusBadge } from "./status-badge";
import { toastError } from "@/components/lib/toast-error";

export function ApiTokensSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.tokens.list.queryOptions());
  const [secret, setSecret] = useState<string | null>(null);
  const [renaming, setRenaming] = useState<TokenView | null>(null);
  const [revoking, setRevoking] = useState<TokenView | null>(null);
  const revoke = useMutation(
    trpc.tokens.revoke.mutationOptions({
      onSuccess: (t) => {
        void queryClient.invalidateQueries({ queryKey: trpc.tokens.list.queryKey() });
        toast.success(`Token “${t.name}” revoked`);
        setRevoking(null);
      },
      onError: toastError,
    }),
  );
  const columns: DataColumn<TokenView>[] = [
    { id: "name", header: "Name", className: "font-medium", cell: (t) => t.name },
    { id: "token", header: "Token", cell: (t) => <code className="font-mono text-xs text-muted-foreground">{t.prefix}…</code> },
    { id: "permissions", header: "Permissions", cell: (t) => <PermissionBadges permissions={t.permissions} /> },
    { id: "namespace", header: "Namespace", cell: (t) => t.namespace ?? <span className="text-muted-foreground">All</span> },
    { id: "expires", header: "Expires", cell: (t) => (t.expiresAt ? <span title={t.expiresAt}>{formatDate(t.expiresAt)}</span> : <span className="text-muted-foreground">Never</span>) },
    { id: "used", header: "Last used", cell: (t) => formatRelative(t.lastUsedAt, "Never") },
    { id: "status", header: "Status", cell: (t) => <StatusBadge status={t.status} /> },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      headClassName: "text-right",
      cell: (t) =>
        t.status !== "revoked" ? (
          <div className="flex justify-end gap-2">
            <Button variant="outline" size="sm" aria-label={`Rename ${t.name}`} onClick={() => setRenaming(t)}>
              Rename
            </Button>
            <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`Revoke ${t.name}`} onClick={() => setRevoking(t)}>
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
          <CardTitle>Your tokens</CardTitle>
          <CardDescription>A token pinned to a namespace works only there. Revoked tokens stop working at once.</CardDescription>
        </div>
        <CreateTokenDialog onCreated={setSecret} />
      </CardHeader>
      <CardContent>
        <DataTable
          label="API tokens"
          columns={columns}
          data={list.data?.tokens}
          isLoading={list.isLoading}
          error={list.error}
          rowKey={(t) => t.id}
          rowClassName={(t) => (t.status === "revoked" ? "text-muted-foreground" : undefined)}
          skeletonRows={3}
          empty={{ icon: KeyRound, title: "No API tokens yet", body: "Create a token for each script or pipeline that calls Polymock, so you can revoke one without breaking the others." }}
        />
      </CardContent>
      <SecretDialog secret={secret} title="Your new API token" description="Use it in the X-API-Key header or as a Bearer token." onClose={() => setSecret(null)} />
      <RenameTokenDialog token={renaming} onClose={() => setRenaming(null)} />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(o) => (o ? undefined : setRevoking(null))}
        title={`Revoke “${revoking?.name ?? ""}”?`}
        description="Anything using this token gets 401 Unauthorized from now on. This cannot be undone."
        confirmLabel="Revoke token"
        pending={revoke.isPending}
        onConfirm={() => revoking && revoke.mutate({ id: revoking.id })}
      />
    </Card>
  );
}
