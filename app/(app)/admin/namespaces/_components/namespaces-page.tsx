"use client";
// Namespaces for administrators: search, create, members, delete and restore.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Boxes, Search } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { formatDate } from "@/components/lib/format";
import { useDebounced } from "@/components/lib/use-debounced";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Checkbox } from "@/components/ui/checkbox";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import type { AdminNamespaceView } from "@/server/contracts/namespaces";
import { CreateNamespaceDialog } from "./create-namespace-dialog";
import { MembersDialog } from "./members-dialog";
import { toastError } from "@/components/lib/toast-error";

type Namespace = z.infer<typeof AdminNamespaceView>;

export function NamespacesPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [showDeleted, setShowDeleted] = useState(false);
  const debounced = useDebounced(search.trim());
  const list = useQuery(trpc.namespaces.admin.list.queryOptions({ search: debounced || undefined, includeDeleted: showDeleted ? "true" : undefined }));
  const [membersOf, setMembersOf] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<Namespace | null>(null);
  // The admin list and the switcher's list both change.
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.namespaces.pathKey() });
  const remove = useMutation(
    trpc.namespaces.admin.remove.mutationOptions({
      onSuccess: (ns) => {
        void invalidate();
        setDeleting(null);
        toast.success(`Namespace ${ns.name} deleted; you can restore it from “Show deleted”`);
      },
      onError: toastError,
    }),
  );
  const restore = useMutation(
    trpc.namespaces.admin.restore.mutationOptions({
      onSuccess: (ns) => {
        void invalidate();
        toast.success(`Namespace ${ns.name} restored`);
      },
      onError: toastError,
    }),
  );
  const columns: DataColumn<Namespace>[] = [
    {
      id: "name",
      header: "Name",
      cell: (ns) => (
        <>
          <span className="font-medium text-foreground">{ns.name}</span>
          {ns.description ? <span className="block text-xs text-muted-foreground">{ns.description}</span> : null}
        </>
      ),
    },
    { id: "owner", header: "Owner", cell: (ns) => ns.owner?.username ?? <span className="text-muted-foreground">—</span> },
    { id: "members", header: "Members", cell: (ns) => ns.memberCount },
    { id: "created", header: "Created", cell: (ns) => formatDate(ns.createdAt) },
    { id: "status", header: "Status", cell: (ns) => (ns.deletedAt ? <Badge variant="destructive">Deleted {formatDate(ns.deletedAt)}</Badge> : <Badge variant="success">Active</Badge>) },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      cell: (ns) => (
        <div className="flex justify-end gap-2">
          {ns.deletedAt ? (
            <Button variant="outline" size="sm" aria-label={`Restore ${ns.name}`} pending={restore.isPending && restore.variables?.namespace === ns.name} onClick={() => restore.mutate({ namespace: ns.name })}>
              Restore
            </Button>
          ) : (
            <>
              <Button variant="outline" size="sm" aria-label={`Members of ${ns.name}`} onClick={() => setMembersOf(ns.name)}>
                Members
              </Button>
              <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`Delete ${ns.name}`} onClick={() => setDeleting(ns)}>
                Delete
              </Button>
            </>
          )}
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Namespaces"
        description="Each namespace keeps its own mocks and members. Deleting one hides it and stops its stubs; it can be restored."
        actions={<CreateNamespaceDialog />}
      />
      <Card>
        <CardContent className="flex flex-col gap-4 pt-6">
          <DataTable
            label="Namespaces"
            columns={columns}
            data={list.data?.namespaces}
            isLoading={list.isLoading}
            error={list.error}
            rowKey={(ns) => ns.id}
            rowClassName={(ns) => (ns.deletedAt ? "text-muted-foreground" : undefined)}
            filtered={Boolean(debounced)}
            toolbar={
              <div className="flex w-full flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
                <div className="relative max-w-sm flex-1">
                  <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
                  <Input type="search" aria-label="Search namespaces" placeholder="Search by name" className="pl-9" value={search} onChange={(e) => setSearch(e.target.value)} />
                </div>
                <div className="flex items-center gap-2">
                  <Checkbox id="show-deleted" checked={showDeleted} onCheckedChange={(c) => setShowDeleted(c === true)} />
                  <Label htmlFor="show-deleted" className="font-normal">
                    Show deleted
                  </Label>
                </div>
              </div>
            }
            empty={{ icon: Boxes, title: "No namespaces yet", body: "Create one namespace per team or project so their mocks never collide." }}
            noMatch={{ title: "No namespaces match", body: "Try another part of the name." }}
          />
        </CardContent>
      </Card>
      <MembersDialog namespace={membersOf} onClose={() => setMembersOf(null)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title={`Delete namespace ${deleting?.name ?? ""}?`}
        description="Its stubs stop answering and it disappears from everyone's namespace list. Its data is kept, and you can restore it later."
        confirmLabel="Delete namespace"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ namespace: deleting.name })}
      />
    </>
  );
}
