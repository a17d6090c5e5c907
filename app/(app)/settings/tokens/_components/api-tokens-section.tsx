"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatDate, formatRelative } from "@/components/lib/format";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableActionsCell, TableActionsHead, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { TokenView } from "@/server/contracts/auth";
import { CreateTokenDialog } from "./create-token-dialog";
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
  const tokens = list.data?.tokens ?? [];

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
        {list.isLoading ? (
          <SkeletonRows label="Loading tokens" />
        ) : list.error ? (
          <ApiErrorAlert error={list.error} />
        ) : tokens.length === 0 ? (
          <EmptyState icon={KeyRound} title="No API tokens yet">
            Create a token for each script or pipeline that calls Polymock, so you can revoke one without breaking the others.
          </EmptyState>
        ) : (
          <Table aria-label="API tokens">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Token</TableHead>
                <TableHead>Permissions</TableHead>
                <TableHead>Namespace</TableHead>
                <TableHead>Expires</TableHead>
                <TableHead>Last used</TableHead>
                <TableHead>Status</TableHead>
                <TableActionsHead />
              </TableRow>
            </TableHeader>
            <TableBody>
              {tokens.map((t) => (
                <TableRow key={t.id}>
                  <TableCell className="font-medium">{t.name}</TableCell>
                  <TableCell>
                    <code className="font-mono text-xs text-muted-foreground">{t.prefix}…</code>
                  </TableCell>
                  <TableCell>
                    <div className="flex flex-wrap gap-1">
                      {t.permissions.map((p) => (
                        <Badge key={p} variant="secondary">
                          {p}
                        </Badge>
                      ))}
                    </div>
                  </TableCell>
                  <TableCell>{t.namespace ?? <span className="text-muted-foreground">All</span>}</TableCell>
                  <TableCell title={t.expiresAt ?? undefined}>{t.expiresAt ? formatDate(t.expiresAt) : <span className="text-muted-foreground">Never</span>}</TableCell>
                  <TableCell>{formatRelative(t.lastUsedAt, "Never")}</TableCell>
                  <TableCell>
                    <StatusBadge status={t.status} />
                  </TableCell>
                  <TableActionsCell>
                    {t.status !== "revoked" ? (
                      <>
                        <Button variant="outline" size="sm" aria-label={`Rename ${t.name}`} onClick={() => setRenaming(t)}>
                          Rename
                        </Button>
                        <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`Revoke ${t.name}`} onClick={() => setRevoking(t)}>
                          Revoke
                        </Button>
                      </>
                    ) : null}
                  </TableActionsCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
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
