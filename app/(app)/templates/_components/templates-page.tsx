"use client";
// Template files and temporary files of the namespace: upload, list, download, delete.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Download, FileCode2, FileUp, Trash2 } from "lucide-react";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatDateTime, formatRelative } from "@/components/lib/format";
import { toastError } from "@/components/lib/toast-error";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import { useNamespace } from "../../_components/namespace-context";
import type { RouterOutputs } from "../../mocks/_components/types";
import { fileToBase64, formatBytes, saveBase64 } from "./file-transfer";

type TemplateRow = RouterOutputs["templates"]["list"]["templates"][number];
type TempFileRow = RouterOutputs["tempFiles"]["list"]["files"][number];

function UploadButton({ label, pending, onFile }: { label: string; pending: boolean; onFile: (f: File) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <input
        ref={input}
        type="file"
        className="sr-only"
        aria-label={label}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) onFile(f);
          e.target.value = "";
        }}
      />
      <Button pending={pending} onClick={() => input.current?.click()}>
        <FileUp aria-hidden /> {label}
      </Button>
    </>
  );
}

/** Template files (read by mocks) and the caller's temporary files: upload, list, download, delete. */
export function TemplatesPage() {
  return (
    <>
      <PageHeader title="Templates and files" description="Files that mocks read by name (response template files, condition values from files), and your temporary uploads." />
      <TemplateFiles />
      <TempFiles />
    </>
  );
}

function TemplateFiles() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const namespace = useNamespace().current?.name;
  const list = useQuery(trpc.templates.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const [deleting, setDeleting] = useState<string | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.templates.pathKey() });
  const upload = useMutation(trpc.templates.upload.mutationOptions({ onSuccess: (t) => (toast.success(`${t.created ? "Uploaded" : "Replaced"} “${t.fileName}”`), refresh()), onError: toastError }));
  const remove = useMutation(trpc.templates.remove.mutationOptions({ onSuccess: () => (toast.success("Template deleted"), setDeleting(null), refresh()), onError: toastError }));
  const download = async (fileName: string) => {
    try {
      saveBase64(await queryClient.fetchQuery(trpc.templates.download.queryOptions({ namespace, fileName })));
    } catch (err) {
      toastError(err);
    }
  };
  const columns: DataColumn<TemplateRow>[] = [
    { id: "name", header: "Name", className: "font-mono text-xs font-medium", cell: (t) => t.fileName },
    { id: "type", header: "Type", className: "text-muted-foreground", cell: (t) => t.contentType },
    { id: "size", header: "Size", headClassName: "text-right", className: "text-right tabular-nums", cell: (t) => formatBytes(t.size) },
    { id: "updated", header: "Updated", className: "text-muted-foreground", cell: (t) => formatDateTime(t.updatedAt) },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      headClassName: "text-right",
      cell: (t) => (
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" aria-label={`Download ${t.fileName}`} onClick={() => void download(t.fileName)}>
            <Download aria-hidden /> Download
          </Button>
          <Button variant="ghost" size="icon-sm" aria-label={`Delete ${t.fileName}`} onClick={() => setDeleting(t.fileName)}>
            <Trash2 aria-hidden />
          </Button>
        </div>
      ),
    },
  ];
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="flex flex-col gap-1.5">
          <CardTitle>Template files</CardTitle>
          <CardDescription>
            A mock uses one as its body with <code className="font-mono text-xs">response.payloadTemplatePath</code>; placeholders inside are filled in. Up to 1 MB; a file with the same name is replaced.
          </CardDescription>
        </div>
        <UploadButton label="Upload template" pending={upload.isPending} onFile={async (f) => upload.mutate({ namespace, fileName: f.name.replace(/[^A-Za-z0-9._-]/g, "_"), contentType: f.type || "application/octet-stream", contentBase64: await fileToBase64(f) })} />
      </CardHeader>
      <CardContent>
        <DataTable
          label="Template files"
          columns={columns}
          data={namespace ? list.data?.templates : undefined}
          isLoading={list.isLoading || !namespace}
          error={list.error}
          rowKey={(t) => t.fileName}
          skeletonRows={3}
          empty={{
            icon: FileCode2,
            title: "No template files yet",
            body: (
              <>
                Upload e.g. <code className="font-mono text-xs">order.json</code> containing <code className="font-mono text-xs">{'{"id": "$.req.id"}'}</code> and point a mock&apos;s template file at it.
              </>
            ),
          }}
        />
      </CardContent>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => !o && setDeleting(null)}
        title={`Delete “${deleting ?? ""}”?`}
        description="Mocks that use it answer 500 mock_error until a file of that name is uploaded again."
        confirmLabel="Delete template"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ namespace, fileName: deleting })}
      />
    </Card>
  );
}

function TempFiles() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const namespace = useNamespace().current?.name;
  const list = useQuery(trpc.tempFiles.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.tempFiles.pathKey() });
  const upload = useMutation(trpc.tempFiles.upload.mutationOptions({ onSuccess: (f) => (toast.success(`Uploaded “${f.fileName}”`), refresh()), onError: toastError }));
  const remove = useMutation(trpc.tempFiles.remove.mutationOptions({ onSuccess: () => (toast.success("Temporary file deleted"), refresh()), onError: toastError }));
  const download = async (fileId: string) => {
    try {
      saveBase64(await queryClient.fetchQuery(trpc.tempFiles.download.queryOptions({ namespace, fileId })));
    } catch (err) {
      toastError(err);
    }
  };
  const columns: DataColumn<TempFileRow>[] = [
    { id: "name", header: "Name", className: "font-mono text-xs font-medium", cell: (f) => f.fileName },
    { id: "size", header: "Size", headClassName: "text-right", className: "text-right tabular-nums", cell: (f) => formatBytes(f.size) },
    { id: "expires", header: "Expires", className: "text-muted-foreground", cell: (f) => formatRelative(f.expiresAt) },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      headClassName: "text-right",
      cell: (f) => (
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" aria-label={`Download ${f.fileName}`} onClick={() => void download(f.id)}>
            <Download aria-hidden /> Download
          </Button>
          <Button variant="ghost" size="icon-sm" aria-label={`Delete ${f.fileName}`} onClick={() => remove.mutate({ namespace, fileId: f.id })}>
            <Trash2 aria-hidden />
          </Button>
        </div>
      ),
    },
  ];
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4">
        <div className="flex flex-col gap-1.5">
          <CardTitle>Temporary files</CardTitle>
          <CardDescription>Private to you and this namespace, deleted 30 minutes after upload (for imports). Up to 10 MB each.</CardDescription>
        </div>
        <UploadButton label="Upload temporary file" pending={upload.isPending} onFile={async (f) => upload.mutate({ namespace, fileName: f.name, contentType: f.type || "application/octet-stream", contentBase64: await fileToBase64(f) })} />
      </CardHeader>
      <CardContent>
        <DataTable
          label="Temporary files"
          columns={columns}
          data={namespace ? list.data?.files : undefined}
          isLoading={list.isLoading || !namespace}
          error={list.error}
          rowKey={(f) => f.id}
          skeletonRows={3}
          empty={{
            icon: FileUp,
            title: "No temporary files",
            body: (
              <>
                Upload a file here (or with <code className="font-mono text-xs">POST /api/v1/temp-files</code>) to use it in an import within 30 minutes.
              </>
            ),
          }}
        />
      </CardContent>
    </Card>
  );
}
