"use client";
// The members of one namespace, for administrators: add by username, change roles, remove.
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { UserMinus, Users } from "lucide-react";
import { useState } from "react";
import { Controller, useForm } from "react-hook-form";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { applyFieldErrors } from "@/components/lib/api-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { AddMemberInput, type NamespaceMember } from "@/server/contracts/namespaces";
import { MemberRoleSelect } from "./member-role-select";
import { toastError } from "@/components/lib/toast-error";

type Member = z.infer<typeof NamespaceMember>;
type AddValues = z.input<typeof AddMemberInput>;

export function MembersDialog({ namespace, onClose }: { namespace: string | null; onClose: () => void }) {
  return (
    <Dialog open={namespace !== null} onOpenChange={(o) => (o ? undefined : onClose())}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Members of {namespace}</DialogTitle>
          <DialogDescription>Viewers read; editors also create, change and delete; owners also manage members.</DialogDescription>
        </DialogHeader>
        {namespace ? <MembersPanel namespace={namespace} /> : null}
      </DialogContent>
    </Dialog>
  );
}

function MembersPanel({ namespace }: { namespace: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const members = useQuery(trpc.namespaces.admin.members.queryOptions({ namespace }));
  const [removing, setRemoving] = useState<Member | null>(null);
  const invalidate = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.namespaces.admin.members.queryKey({ namespace }) });
    void queryClient.invalidateQueries({ queryKey: trpc.namespaces.admin.list.pathKey() });
  };

  const form = useForm<AddValues, unknown, z.output<typeof AddMemberInput>>({ resolver: zodResolver(AddMemberInput), defaultValues: { username: "", role: "editor" } });
  const add = useMutation(
    trpc.namespaces.admin.addMember.mutationOptions({
      onSuccess: (m) => {
        invalidate();
        form.reset({ username: "", role: form.getValues("role") });
        toast.success(`${m.username} is now ${m.role} of ${namespace}`);
      },
      onError: (err) => applyFieldErrors(err, form.setError, ["username"]),
    }),
  );
  const setRole = useMutation(
    trpc.namespaces.admin.setRole.mutationOptions({
      onSuccess: (m) => {
        invalidate();
        toast.success(`${m.username} is now ${m.role}`);
      },
      onError: toastError,
    }),
  );
  const remove = useMutation(
    trpc.namespaces.admin.removeMember.mutationOptions({
      onSuccess: () => {
        invalidate();
        toast.success(`${removing?.username ?? "Member"} removed from ${namespace}`);
        setRemoving(null);
      },
      onError: toastError,
    }),
  );

  const columns: DataColumn<Member>[] = [
    {
      id: "user",
      header: "User",
      cell: (m) => (
        <>
          <span className="font-medium">{m.username}</span>
          {m.disabled ? (
            <Badge variant="destructive" className="ml-2">
              Disabled
            </Badge>
          ) : null}
          {m.fullName ? <span className="block text-xs text-muted-foreground">{m.fullName}</span> : null}
        </>
      ),
    },
    {
      id: "role",
      header: "Role",
      headClassName: "w-40",
      cell: (m) => <MemberRoleSelect aria-label={`Role of ${m.username}`} value={m.role} disabled={setRole.isPending} onChange={(role) => setRole.mutate({ namespace, user_id: m.userId, role })} />,
    },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      className: "text-right",
      cell: (m) => (
        <Button variant="ghost" size="sm" className="text-destructive hover:text-destructive" aria-label={`Remove ${m.username}`} onClick={() => setRemoving(m)}>
          <UserMinus aria-hidden /> Remove
        </Button>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-5">
      <form
        className="flex flex-col gap-2"
        noValidate
        aria-label="Add member"
        onSubmit={form.handleSubmit((v) => add.mutate({ namespace, member: v }))}
      >
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex flex-1 flex-col gap-2">
            <Label htmlFor="member-username">Username</Label>
            <Input
              id="member-username"
              autoComplete="off"
              placeholder="Who to add"
              aria-invalid={form.formState.errors.username ? true : undefined}
              {...form.register("username", { required: true })}
            />
          </div>
          <div className="flex flex-col gap-2 sm:w-36">
            <Label htmlFor="member-role">Role</Label>
            <Controller control={form.control} name="role" render={({ field }) => <MemberRoleSelect id="member-role" value={field.value ?? "editor"} onChange={field.onChange} />} />
          </div>
          <Button type="submit" pending={add.isPending}>
            Add member
          </Button>
        </div>
        {form.formState.errors.username ? <p className="text-xs font-medium text-destructive">{form.formState.errors.username.message}</p> : null}
        <ApiErrorAlert error={add.error} />
      </form>
      <DataTable
        label={`Members of ${namespace}`}
        columns={columns}
        data={members.data?.users}
        isLoading={members.isLoading}
        error={members.error}
        rowKey={(m) => m.userId}
        skeletonRows={3}
        empty={{ icon: Users, title: "No members", body: "Add someone by username above. A namespace needs at least one owner." }}
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => (o ? undefined : setRemoving(null))}
        title={`Remove ${removing?.username ?? ""} from ${namespace}?`}
        description="They lose access to its mocks at once. Their own tokens pinned to this namespace stop working here."
        confirmLabel="Remove member"
        pending={remove.isPending}
        onConfirm={() => removing && remove.mutate({ namespace, user_id: removing.userId })}
      />
    </div>
  );
}
