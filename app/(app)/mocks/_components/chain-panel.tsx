"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Database, Link2, Trash2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useNamespace } from "../../_components/namespace-context";
import { ProtocolBadge } from "./protocol-badge";

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/**
 * A chain: its active mocks (each opens its editor), a link to its store, and
 * "Delete chain", which is the REST DELETE /api/v1/mocks/chains/{id}.
 */
export function ChainPanel({ chainId, currentMockId, showPageLink = false }: { chainId: string; currentMockId?: string; showPageLink?: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const chain = useQuery(trpc.mocks.chain.queryOptions({ namespace, id: chainId }, { enabled: !!namespace }));
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(
    trpc.mocks.deleteChain.mutationOptions({
      onSuccess: (r) => {
        toast.success(`Chain “${chainId}” deleted: ${plural(r.deleted, "mock")} moved to the recycle bin, ${plural(r.clearedStoreKeys, "store key")} cleared`);
        setConfirming(false);
        void queryClient.invalidateQueries({ queryKey: trpc.mocks.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.folders.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.stores.pathKey() });
      },
      onError: toastError,
    }),
  );
  const mocks = chain.data?.mocks ?? [];
  const chainHref = hrefWithNs(`/mocks/chains/${encodeURIComponent(chainId)}`);
  const storeHref = hrefWithNs(`/stores?chain=${encodeURIComponent(chainId)}`);

  return (
    <Card aria-label={`Chain ${chainId}`}>
      <CardHeader>
        <CardTitle>
          Chain <code className="font-mono">{chainId}</code>
        </CardTitle>
        <CardDescription>Mocks with the same chain id share a chain store: templates read it as $.cS.key, extract writes it.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="flex flex-wrap gap-2">
          {showPageLink ? (
            <Button variant="outline" size="sm" asChild>
              <Link href={chainHref}>
                <Link2 aria-hidden /> Open chain page
              </Link>
            </Button>
          ) : null}
          <Button variant="outline" size="sm" asChild>
            <Link href={storeHref}>
              <Database aria-hidden /> Chain store
            </Link>
          </Button>
          <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" disabled={!chain.data} onClick={() => setConfirming(true)}>
            <Trash2 aria-hidden /> Delete chain
          </Button>
        </div>
        {chain.isLoading || !namespace ? (
          <SkeletonRows rows={2} label="Loading the chain" />
        ) : chain.error ? (
          <ApiErrorAlert error={chain.error} />
        ) : mocks.length === 0 ? (
          <p className="text-sm text-muted-foreground">No active mock carries this chain id (deleted ones are in the recycle bin).</p>
        ) : (
          <Table aria-label="Chain mocks">
            <TableHeader>
              <TableRow>
                <TableHead>Mock</TableHead>
                <TableHead>Protocol</TableHead>
                <TableHead>Endpoint</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {mocks.map((m) => (
                <TableRow key={m.id}>
                  <TableCell className="max-w-64">
                    <Link href={hrefWithNs(`/mocks/${encodeURIComponent(m.id)}`)} className="truncate font-mono text-xs font-medium hover:underline" aria-current={m.id === currentMockId ? "page" : undefined}>
                      {m.id}
                    </Link>
                    {m.id === currentMockId ? (
                      <Badge variant="outline" className="ml-2">
                        this mock
                      </Badge>
                    ) : null}
                  </TableCell>
                  <TableCell>
                    <ProtocolBadge protocol={m.protocol} />
                  </TableCell>
                  <TableCell>
                    <span className="mr-2 font-mono text-xs font-semibold">{m.endpoint.method ?? "ANY"}</span>
                    <span className="font-mono text-xs text-muted-foreground">{m.endpoint.route ?? "—"}</span>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={`Delete chain “${chainId}”?`}
        description={`Its ${plural(mocks.length, "active mock")} move to the recycle bin (restorable there), and every key of its chain store is deleted, which cannot be undone.`}
        confirmLabel="Delete chain"
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ namespace, id: chainId })}
      />
    </Card>
  );
}
