"use client";
// The namespace's .proto files: upload (several at once, parse errors with
// their line and column), and the services and methods each file defines,
// which gRPC mocks answer; delete with confirmation.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Braces, Trash2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatDateTime } from "@/components/lib/format";
import { toastError } from "@/components/lib/toast-error";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import type { GrpcProtoSummary } from "@/server/contracts/grpc-endpoints";
import { useNamespace } from "../../_components/namespace-context";
import { methodKind } from "./method-kind";
import { ProtoUpload } from "./proto-upload";

function Services({ proto }: { proto: GrpcProtoSummary }) {
  if (proto.services.length === 0) return <span className="text-sm text-muted-foreground">No services (messages only)</span>;
  return (
    <ul className="flex flex-col gap-3">
      {proto.services.map((svc) => (
        <li key={svc.name} className="flex flex-col gap-1">
          <code className="font-mono text-sm font-medium">{svc.name}</code>
          <ul aria-label={`Methods of ${svc.name}`} className="flex flex-col gap-1 pl-3">
            {svc.methods.map((m) => (
              <li key={m.name} className="flex flex-wrap items-center gap-2 text-xs">
                <code className="font-mono font-medium">{m.name}</code>
                <Badge variant="outline">{methodKind(m)}</Badge>
                <span className="font-mono text-muted-foreground">
                  ({m.requestType}) → {m.responseType}
                </span>
              </li>
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}

export function GrpcProtosPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const list = useQuery(trpc.grpcProtos.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const [deleting, setDeleting] = useState<GrpcProtoSummary | null>(null);
  const remove = useMutation(
    trpc.grpcProtos.remove.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.grpcProtos.pathKey() });
        toast.success(`“${deleting?.name ?? ".proto file"}” deleted`);
        setDeleting(null);
      },
      onError: (err) => {
        setDeleting(null);
        toastError(err);
      },
    }),
  );

  const columns: DataColumn<GrpcProtoSummary>[] = [
    { id: "name", header: "File", cell: (p) => <code className="font-mono text-xs font-medium">{p.name}</code>, className: "align-top" },
    { id: "services", header: "Services and methods", cell: (p) => <Services proto={p} />, className: "align-top" },
    { id: "updated", header: "Updated", cell: (p) => <span className="text-muted-foreground">{formatDateTime(p.updatedAt)}</span>, className: "align-top" },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      className: "align-top",
      cell: (p) => (
        <div className="flex justify-end">
          <Button variant="ghost" size="icon-sm" aria-label={`Delete ${p.name}`} onClick={() => setDeleting(p)}>
            <Trash2 aria-hidden />
          </Button>
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="gRPC protos"
        description={
          <>
            The .proto files of this namespace. gRPC mocks answer their methods on the runner&apos;s gRPC port; the{" "}
            <Link className="underline underline-offset-2" href={hrefWithNs("/mocks/new")}>
              mock editor
            </Link>{" "}
            offers their services and methods and a response to start from.
          </>
        }
      />
      <ProtoUpload />
      <Card>
        <CardHeader>
          <CardTitle>Uploaded files</CardTitle>
          <CardDescription>Deleting a file keeps the mocks of its services; calls to them are then captured as undefined requests.</CardDescription>
        </CardHeader>
        <CardContent>
          <DataTable
            label="Uploaded .proto files"
            columns={columns}
            data={namespace ? list.data?.protos : undefined}
            isLoading={list.isLoading}
            error={list.error}
            rowKey={(p) => p.id}
            search={{ label: "Search .proto files", placeholder: "Search by file, service or method", text: (p) => `${p.name} ${p.services.map((s) => `${s.name} ${s.methods.map((m) => m.name).join(" ")}`).join(" ")}` }}
            empty={{
              icon: Braces,
              title: "No .proto files yet",
              body: (
                <>
                  Upload the .proto of the service your client calls (e.g. <code className="font-mono text-xs">greeter.proto</code> with <code className="font-mono text-xs">service Greeter</code>); then create a gRPC mock for one of its methods.
                </>
              ),
            }}
            noMatch={{ title: "No files match", body: "Try part of a file, service or method name." }}
          />
        </CardContent>
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title={`Delete “${deleting?.name ?? ""}”?`}
        description="Its services stop being served. Mocks of them stay; a file another file imports cannot be deleted first."
        confirmLabel="Delete file"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ namespace, id: deleting.id })}
      />
    </>
  );
}
