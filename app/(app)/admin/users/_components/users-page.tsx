"use client";
// Users for administrators: search, create, edit, set a password, disable, delete.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { MoreHorizontal, Search, Users } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatRelative } from "@/components/lib/format";
import { useDebounced } from "@/components/lib/use-debounced";
import { Badge } from "@/components/ui/badge";
import { Pager } from "@/components/ui/pager";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import type { AdminUserView } from "@/server/contracts/users";
import { CreateUserDialog } from "./create-user-dialog";
import { EditUserDialog } from "./edit-user-dialog";
import { SetPasswordDialog } from "./set-password-dialog";
import { toastError } from "@/components/lib/toast-error";

const PAGE_SIZE = 50;
const SOURCE = { local: "Password", ldap: "LDAP", oidc: "SSO" } as const;

export function UsersPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [offset, setOffset] = useState(0);
  const debounced = useDebounced(search.trim());
  const list = useQuery({
    ...trpc.users.list.queryOptions({ search: debounced || undefined, offset, limit: PAGE_SIZE }),
    placeholderData: keepPreviousData,
  });
  const [editing, setEditing] = useState<AdminUserView | null>(null);
  const [settingPassword, setSettingPassword] = useState<AdminUserView | null>(null);
  const [disabling, setDisabling] = useState<AdminUserView | null>(null);
  const [deleting, setDeleting] = useState<AdminUserView | null>(null);

  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.users.list.pathKey() });
  const setDisabled = useMutation(
    trpc.users.setDisabled.mutationOptions({
      onSuccess: (u) => {
        void invalidate();
        setDisabling(null);
        toast.success(u.disabled ? `${u.username} is disabled; their sessions ended` : `${u.username} is enabled`);
      },
      onError: toastError,
    }),
  );
  const remove = useMutation(
    trpc.users.remove.mutationOptions({
      onSuccess: () => {
        void invalidate();
        toast.success(`${deleting?.username ?? "User"} deleted`);
        setDeleting(null);
      },
      onError: toastError,
    }),
  );

  const total = list.data?.total ?? 0;
  const columns: DataColumn<AdminUserView>[] = [
    {
      id: "user",
      header: "User",
      cell: (u) => (
        <>
          <span className="font-medium text-foreground">{u.username}</span>
          {u.fullName ? <span className="block text-xs text-muted-foreground">{u.fullName}</span> : null}
        </>
      ),
    },
    {
      id: "email",
      header: "E-mail",
      cell: (u) => (
        <>
          {u.email ?? <span className="text-muted-foreground">—</span>}
          {u.email && !u.emailVerified ? <span className="block text-xs text-muted-foreground">not verified</span> : null}
        </>
      ),
    },
    { id: "role", header: "Role", cell: (u) => (u.role === "admin" ? <Badge>Admin</Badge> : <Badge variant="secondary">User</Badge>) },
    { id: "source", header: "Signs in with", cell: (u) => SOURCE[u.authSource] },
    { id: "namespaces", header: "Namespaces", cell: (u) => u.namespaceCount },
    { id: "login", header: "Last login", cell: (u) => formatRelative(u.lastLoginAt, "Never") },
    { id: "status", header: "Status", cell: (u) => (u.disabled ? <Badge variant="destructive">Disabled</Badge> : <Badge variant="success">Active</Badge>) },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      className: "text-right",
      cell: (u) => (
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon-sm" aria-label={`Actions for ${u.username}`}>
              <MoreHorizontal aria-hidden />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={() => setEditing(u)}>Edit</DropdownMenuItem>
            <DropdownMenuItem onSelect={() => setSettingPassword(u)}>Set password</DropdownMenuItem>
            {u.disabled ? (
              <DropdownMenuItem onSelect={() => setDisabled.mutate({ id: u.id, disabled: false })}>Enable</DropdownMenuItem>
            ) : (
              <DropdownMenuItem onSelect={() => setDisabling(u)}>Disable</DropdownMenuItem>
            )}
            <DropdownMenuSeparator />
            <DropdownMenuItem variant="destructive" onSelect={() => setDeleting(u)}>
              Delete
            </DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Users"
        description="Everyone who can sign in. Disabling a user ends their sessions and stops their tokens; deleting removes them for good."
        actions={<CreateUserDialog />}
      />
      <Card>
        <CardContent className="flex flex-col gap-4 pt-6">
          <DataTable
            label="Users"
            columns={columns}
            data={list.data?.users}
            isLoading={list.isLoading}
            error={list.error}
            rowKey={(u) => u.id}
            rowClassName={(u) => (u.disabled ? "text-muted-foreground" : undefined)}
            filtered={Boolean(debounced)}
            skeletonRows={5}
            toolbar={
              <div className="relative max-w-sm min-w-56 flex-1">
                <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
                <Input
                  type="search"
                  aria-label="Search users"
                  placeholder="Search by username, name or e-mail"
                  className="pl-9"
                  value={search}
                  onChange={(e) => {
                    setSearch(e.target.value);
                    setOffset(0);
                  }}
                />
              </div>
            }
            empty={{ icon: Users, title: "No users yet", body: "Create a user, or let them sign in through LDAP or single sign-on." }}
            noMatch={{ title: "No users match", body: "Try another part of the username, name or e-mail address." }}
            footer={
              total > PAGE_SIZE ? (
                <Pager offset={offset} shown={list.data?.users.length ?? 0} total={total} pageSize={PAGE_SIZE} onOffset={setOffset} />
              ) : null
            }
          />
        </CardContent>
      </Card>
      <EditUserDialog user={editing} onClose={() => setEditing(null)} />
      <SetPasswordDialog user={settingPassword} onClose={() => setSettingPassword(null)} />
      <ConfirmDialog
        open={disabling !== null}
        onOpenChange={(o) => (o ? undefined : setDisabling(null))}
        title={`Disable ${disabling?.username ?? ""}?`}
        description="They are signed out everywhere, cannot log in, and their API tokens stop working until you enable them again."
        confirmLabel="Disable user"
        pending={setDisabled.isPending}
        onConfirm={() => disabling && setDisabled.mutate({ id: disabling.id, disabled: true })}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title={`Delete ${deleting?.username ?? ""}?`}
        description="Their sessions, tokens and memberships are deleted with them. This cannot be undone; disable the user instead to keep them."
        confirmLabel="Delete user"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ id: deleting.id })}
      />
    </>
  );
}
