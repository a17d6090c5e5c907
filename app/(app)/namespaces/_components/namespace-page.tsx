"use client";
// Namespace settings: its members (owners manage them) and copying all its mocks elsewhere.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Copy, UserPlus, Users } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { formatDate } from "@/components/lib/format";
import { toastError } from "@/components/lib/toast-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { MemberRoleSchema } from "@/server/contracts/common";
import { CreateNamespaceDialog } from "../../admin/namespaces/_components/create-namespace-dialog";
import { MemberRoleSelect } from "../../admin/namespaces/_components/member-role-select";
import { useNamespace } from "../../_components/namespace-context";
import type { RouterOutputs } from "../../mocks/_components/types";

type Role = z.infer<typeof MemberRoleSchema>;
type MemberRow = RouterOutputs["members"]["list"]["users"][number];

/** The current namespace: who is in it (owners manage members and roles) and copying its mocks elsewhere. */
export function NamespacePage() {
  const { current, namespaces } = useNamespace();
  return (
    <>
      <PageHeader
        title="Namespace settings"
        description={
          current ? (
            <>
              <strong>{current.name}</strong>
              {current.description ? ` — ${current.description}` : ""}. Your role: {current.role ?? "admin"}. Switch namespaces with the switcher at the top; the one you are in is in the URL as <code className="font-mono text-xs">?ns=</code>.
            </>
          ) : (
            "You are not a member of any namespace yet."
          )
        }
        actions={<CreateNamespaceDialog />}
      />
      {current ? <Members /> : null}
      {current ? <CopyMocks targets={namespaces.filter((n) => n.name !== current.name && n.permissions.includes("write")).map((n) => n.name)} /> : null}
    </>
  );
}

function Members() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const namespace = useNamespace().current?.name;
  const list = useQuery(trpc.members.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const [username, setUsername] = useState("");
  const [role, setRole] = useState<Role>("editor");
  const [removing, setRemoving] = useState<{ userId: string; username: string } | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.members.pathKey() });
  const add = useMutation(trpc.members.add.mutationOptions({ onSuccess: (m) => (toast.success(`${m.username} added as ${m.role}`), setUsername(""), refresh()) }));
  const setRoleOf = useMutation(trpc.members.setRole.mutationOptions({ onSuccess: (m) => (toast.success(`${m.username} is now ${m.role}`), refresh()), onError: toastError }));
  const remove = useMutation(trpc.members.remove.mutationOptions({ onSuccess: () => (toast.success("Member removed"), setRemoving(null), refresh()), onError: toastError }));
  const canManage = list.data?.canManage ?? false;
  const columns: DataColumn<MemberRow>[] = [
    {
      id: "user",
      header: "User",
      cell: (u) => (
        <>
          <span className="font-medium">{u.username}</span> <span className="text-muted-foreground">{u.fullName}</span>
          {u.disabled ? (
            <Badge variant="destructive" className="ml-2">
              disabled
            </Badge>
          ) : null}
        </>
      ),
    },
    {
      id: "role",
      header: "Role",
      cell: (u) =>
        canManage ? (
          <MemberRoleSelect aria-label={`Role of ${u.username}`} className="w-32" value={u.role} onChange={(r) => setRoleOf.mutate({ namespace, userId: u.userId, role: r })} />
        ) : (
          <Badge variant="secondary">{u.role}</Badge>
        ),
    },
    { id: "since", header: "Since", className: "text-muted-foreground", cell: (u) => formatDate(u.addedAt) },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      headClassName: "text-right",
      cell: (u) =>
        canManage ? (
          <div className="flex justify-end">
            <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`Remove ${u.username}`} onClick={() => setRemoving(u)}>
              Remove
            </Button>
          </div>
        ) : null,
    },
  ];
  return (
    <Card>
      <CardHeader>
        <CardTitle>Members</CardTitle>
        <CardDescription>Viewers read; editors also create, change and delete mocks; owners also manage members. {canManage ? "" : "Only owners can change members."}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {canManage ? (
          <form
            aria-label="Add a member"
            className="flex flex-wrap items-end gap-2"
            onSubmit={(e) => {
              e.preventDefault();
              add.mutate({ namespace, member: { username, role } });
            }}
          >
            <Field label="Username" htmlFor="member-username">
              {(aria) => <Input {...aria} className="w-56" value={username} onChange={(e) => setUsername(e.target.value)} />}
            </Field>
            <div className="flex flex-col gap-2">
              <label htmlFor="member-role" className="text-sm font-medium">
                Role
              </label>
              <MemberRoleSelect id="member-role" className="w-36" value={role} onChange={setRole} />
            </div>
            <Button type="submit" pending={add.isPending} disabled={!username}>
              <UserPlus aria-hidden /> Add member
            </Button>
          </form>
        ) : null}
        {add.error ? <ApiErrorAlert error={add.error} /> : null}
        <DataTable
          label="Members"
          columns={columns}
          data={namespace ? list.data?.users : undefined}
          isLoading={list.isLoading || !namespace}
          error={list.error}
          rowKey={(u) => u.userId}
          skeletonRows={3}
          empty={{ icon: Users, title: "No members", body: "Add people by their username." }}
        />
      </CardContent>
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title={`Remove ${removing?.username ?? ""}?`}
        description="They lose access to this namespace's mocks at once."
        confirmLabel="Remove member"
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate({ namespace, userId: removing.userId })}
      />
    </Card>
  );
}

/** Copies every active mock (up to 1,000) to another namespace; for a selection, use the mock list's "Copy to namespace…". */
function CopyMocks({ targets }: { targets: string[] }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const namespace = useNamespace().current?.name;
  const [target, setTarget] = useState("");
  const copy = useMutation(trpc.mocks.copyToNamespace.mutationOptions({ onSuccess: (r) => toast.success(`${r.count} mock${r.count === 1 ? "" : "s"} copied to ${target}`), onError: toastError }));
  const [busy, setBusy] = useState(false);
  async function copyAll() {
    if (!namespace) return;
    setBusy(true);
    try {
      const page = await queryClient.fetchQuery(trpc.mocks.list.queryOptions({ namespace, offset: 0, limit: 1000 }));
      if (!page.mocks.length) toast.info("There are no active mocks to copy");
      else await copy.mutateAsync({ sourceNamespace: namespace, targetNamespace: target, mockIds: page.mocks.map((m) => m.id) });
    } catch (err) {
      toastError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Copy mocks to another namespace</CardTitle>
        <CardDescription>Copies keep their ids where those are free. To copy only some, select them in the mock list and use “Copy to namespace…”.</CardDescription>
      </CardHeader>
      <CardContent>
        {targets.length ? (
          <div className="flex flex-wrap items-end gap-2">
            <div className="flex flex-col gap-2">
              <label htmlFor="copy-all-target" className="text-sm font-medium">
                Target namespace
              </label>
              <Select value={target} onValueChange={setTarget}>
                <SelectTrigger id="copy-all-target" className="w-56">
                  <SelectValue placeholder="Choose a namespace" />
                </SelectTrigger>
                <SelectContent>
                  {targets.map((t) => (
                    <SelectItem key={t} value={t}>
                      {t}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <Button disabled={!target} pending={busy} onClick={() => void copyAll()}>
              <Copy aria-hidden /> Copy all mocks
            </Button>
          </div>
        ) : (
          <p className="text-sm text-muted-foreground">You cannot write to any other namespace.</p>
        )}
      </CardContent>
    </Card>
  );
}
