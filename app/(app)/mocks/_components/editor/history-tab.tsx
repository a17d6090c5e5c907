"use client";
// Every version of a mock, two of them side by side, and restoring one.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { History, RotateCcw } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { CodeDiff } from "@/components/code/code-editor";
import { formatDateTime } from "@/components/lib/format";
import { toastError } from "@/components/lib/toast-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableActionsCell, TableActionsHead, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { useNamespace } from "../../../_components/namespace-context";
import { prettyJson } from "./draft";
import { versionChangeLabel } from "../version-change";

/** Every version of the mock; any two side by side; restore one (as a new version). */
export function HistoryTab({ mockId, deleted }: { mockId: string; deleted: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const namespace = useNamespace().current?.name;
  const versions = useQuery(trpc.mocks.versions.queryOptions({ namespace, id: mockId }, { enabled: !!namespace }));
  const list = versions.data?.versions ?? [];
  const latest = list[0]?.version;
  const [left, setLeft] = useState<number | null>(null);
  const [right, setRight] = useState<number | null>(null);
  const l = left ?? list[1]?.version ?? latest;
  const r = right ?? latest;
  const a = useQuery(trpc.mocks.version.queryOptions({ namespace, id: mockId, version: l ?? 1 }, { enabled: !!namespace && l !== undefined }));
  const b = useQuery(trpc.mocks.version.queryOptions({ namespace, id: mockId, version: r ?? 1 }, { enabled: !!namespace && r !== undefined }));
  const [restoring, setRestoring] = useState<number | null>(null);
  const restore = useMutation(
    trpc.mocks.restoreVersion.mutationOptions({
      onSuccess: (m) => {
        toast.success(`Restored; the mock is now version ${m.version}`);
        setRestoring(null);
        setLeft(null);
        setRight(null);
        void queryClient.invalidateQueries({ queryKey: trpc.mocks.pathKey() });
      },
      onError: toastError,
    }),
  );

  if (versions.isLoading) return <SkeletonRows label="Loading versions" />;
  if (versions.error) return <ApiErrorAlert error={versions.error} />;
  if (!list.length) return <EmptyState icon={History} title="No versions yet">Every save adds a version here.</EmptyState>;

  const picker = (id: string, label: string, value: number | undefined, onChange: (v: number) => void) => (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={id} className="text-xs text-muted-foreground">
        {label}
      </Label>
      <Select value={value !== undefined ? String(value) : undefined} onValueChange={(v) => onChange(Number(v))}>
        <SelectTrigger id={id} className="w-56">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {list.map((v) => (
            <SelectItem key={v.version} value={String(v.version)}>
              Version {v.version} · {versionChangeLabel(v.change)}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </div>
  );

  return (
    <div className="flex flex-col gap-4">
      <Table aria-label="Versions">
        <TableHeader>
          <TableRow>
            <TableHead>Version</TableHead>
            <TableHead>Change</TableHead>
            <TableHead>By</TableHead>
            <TableHead>When</TableHead>
            <TableActionsHead />
          </TableRow>
        </TableHeader>
        <TableBody>
          {list.map((v) => (
            <TableRow key={v.version}>
              <TableCell className="font-medium tabular-nums">
                {v.version}
                {v.version === latest ? <span className="ml-2 text-xs text-muted-foreground">(current)</span> : null}
              </TableCell>
              <TableCell>{versionChangeLabel(v.change)}</TableCell>
              <TableCell>{v.createdBy ?? "—"}</TableCell>
              <TableCell className="text-muted-foreground">{formatDateTime(new Date(v.createdAt).toISOString())}</TableCell>
              <TableActionsCell>
                <Button variant="outline" size="sm" aria-label={`Compare version ${v.version} with the current one`} onClick={() => (setLeft(v.version), setRight(latest ?? v.version))}>
                  Compare
                </Button>
                {v.version !== latest && !deleted ? (
                  <Button variant="outline" size="sm" aria-label={`Restore version ${v.version}`} onClick={() => setRestoring(v.version)}>
                    <RotateCcw aria-hidden /> Restore
                  </Button>
                ) : null}
              </TableActionsCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <div className="flex flex-wrap items-end gap-4">
        {picker("diff-left", "Left (older)", l, setLeft)}
        {picker("diff-right", "Right (newer)", r, setRight)}
      </div>
      {a.data && b.data ? (
        <CodeDiff label={`Differences between version ${l} and version ${r}`} original={prettyJson(a.data.definition)} modified={prettyJson(b.data.definition)} />
      ) : (
        <SkeletonRows rows={4} label="Loading versions to compare" />
      )}
      <ConfirmDialog
        open={restoring !== null}
        onOpenChange={(o) => !o && setRestoring(null)}
        title={`Restore version ${restoring ?? ""}?`}
        description="The mock becomes what it was then, saved as a new version; nothing in the history is lost."
        confirmLabel="Restore version"
        destructive={false}
        pending={restore.isPending}
        onConfirm={() => restoring !== null && restore.mutate({ namespace, id: mockId, version: restoring })}
      />
    </div>
  );
}
