"use client";
// Requests no mock answered: each can become a mock in the editor, be ignored or deleted.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ChevronDown, ChevronRight, EyeOff, Eye, FileQuestion, Plus, Trash2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatRelative } from "@/components/lib/format";
import { toastError } from "@/components/lib/toast-error";
import { useDebounced } from "@/components/lib/use-debounced";
import { useLiveEvents } from "@/components/lib/use-live-events";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { useNamespace } from "../../_components/namespace-context";
import { protocolLabel } from "../../mocks/_components/protocol-badge";
import type { RouterOutputs } from "../../mocks/_components/types";

type UndefinedRow = RouterOutputs["undefinedRequests"]["list"]["undefinedRequests"][number];

function Json({ label, value }: { label: string; value: unknown }) {
  const empty = value === null || value === undefined || (typeof value === "object" && Object.keys(value as object).length === 0);
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <h4 className="text-xs font-medium text-muted-foreground uppercase">{label}</h4>
      <pre className="max-h-48 overflow-auto rounded-md bg-muted p-2 font-mono text-xs whitespace-pre-wrap">{empty ? "—" : typeof value === "string" ? value : JSON.stringify(value, null, 2)}</pre>
    </div>
  );
}

/** Requests no mock answered: each can become a mock in the editor, be ignored or deleted. */
export function UndefinedRequestsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const [search, setSearch] = useState("");
  const [includeIgnored, setIncludeIgnored] = useState(false);
  const [open, setOpen] = useState<string | null>(null);
  const [confirmClear, setConfirmClear] = useState(false);
  const q = useDebounced(search.trim(), 300);
  const list = useQuery(trpc.undefinedRequests.list.queryOptions({ namespace, offset: 0, limit: 200, search: q || undefined, includeIgnored }, { enabled: !!namespace, placeholderData: keepPreviousData }));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.undefinedRequests.pathKey() });
  useLiveEvents(namespace, (type) => type === "stub.miss" && refresh());
  const ignore = useMutation(trpc.undefinedRequests.ignore.mutationOptions({ onSuccess: (r) => (toast.success(r.ignored ? "Ignored" : "No longer ignored"), refresh()), onError: toastError }));
  const remove = useMutation(trpc.undefinedRequests.remove.mutationOptions({ onSuccess: () => (toast.success("Deleted"), refresh()), onError: toastError }));
  const clear = useMutation(trpc.undefinedRequests.clear.mutationOptions({ onSuccess: (r) => (toast.success(`${r.deleted} deleted`), setConfirmClear(false), refresh()), onError: toastError }));
  const rows = list.data?.undefinedRequests ?? [];
  const columns: DataColumn<UndefinedRow>[] = [
    {
      id: "details",
      header: "",
      srHeader: "Details",
      headClassName: "w-8",
      cell: (r) => (
        <Button variant="ghost" size="icon-sm" aria-expanded={open === r.id} aria-label={`Details of ${r.method} ${r.path}`} onClick={() => setOpen(open === r.id ? null : r.id)}>
          {open === r.id ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />}
        </Button>
      ),
    },
    {
      id: "request",
      header: "Request",
      className: "max-w-md truncate font-mono text-xs",
      cell: (r) => (
        <>
          {r.protocol !== "http" ? (
            <Badge variant="secondary" className="mr-2">
              {protocolLabel(r.protocol)}
            </Badge>
          ) : null}
          <span className="font-semibold">{r.method}</span> {r.path}
          {r.ignored ? (
            <Badge variant="outline" className="ml-2">
              ignored
            </Badge>
          ) : null}
        </>
      ),
    },
    { id: "count", header: "Count", headClassName: "text-right", className: "text-right tabular-nums", cell: (r) => r.count },
    { id: "seen", header: "Last seen", className: "whitespace-nowrap text-muted-foreground", cell: (r) => formatRelative(r.lastSeenAt) },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      cell: (r) => {
        const name = `${r.method} ${r.path}`;
        return (
          <div className="flex justify-end gap-2">
            {r.protocol === "http" ? (
              <Button size="sm" asChild>
                <Link href={hrefWithNs(`/mocks/new?from=${r.id}`)} aria-label={`Create mock from ${name}`}>
                  <Plus aria-hidden /> Create mock
                </Link>
              </Button>
            ) : null}
            <Button size="sm" variant="outline" aria-label={`${r.ignored ? "Stop ignoring" : "Ignore"} ${name}`} onClick={() => ignore.mutate({ namespace, id: r.id, ignored: !r.ignored })}>
              {r.ignored ? <Eye aria-hidden /> : <EyeOff aria-hidden />}
              {r.ignored ? "Unignore" : "Ignore"}
            </Button>
            <Button size="icon-sm" variant="ghost" aria-label={`Delete ${name}`} onClick={() => remove.mutate({ namespace, ids: [r.id] })}>
              <Trash2 aria-hidden />
            </Button>
          </div>
        );
      },
    },
  ];

  return (
    <>
      <PageHeader
        title="Undefined requests"
        description={<>Requests to <code className="font-mono text-xs">/stubs/{namespace ?? "…"}/…</code> that no mock answered, one row per method, path and query keys. Turn one into a mock in a click.</>}
        actions={
          <Button variant="outline" className="text-destructive hover:text-destructive" disabled={!rows.length} onClick={() => setConfirmClear(true)}>
            <Trash2 aria-hidden /> Clear all
          </Button>
        }
      />
      <DataTable
        label="Undefined requests"
        columns={columns}
        data={namespace ? list.data?.undefinedRequests : undefined}
        isLoading={list.isLoading || !namespace}
        error={list.error}
        rowKey={(r) => r.id}
        expandedKey={open}
        onOpen={(r) => setOpen(open === r.id ? null : r.id)}
        renderDetails={(r) => (
          <div className="grid gap-3 py-2 md:grid-cols-3" role="region" aria-label={`Request ${r.method} ${r.path}`}>
            <Json label="Headers" value={r.headers} />
            <Json label="Query" value={r.query} />
            <Json label="Body" value={r.body} />
          </div>
        )}
        // Showing ignored ones only adds rows: with nothing at all, the teaching empty state is right.
        filtered={Boolean(q)}
        toolbar={
          <div className="flex flex-wrap items-center gap-4">
            <Input type="search" aria-label="Search undefined requests" placeholder="Search method or path…" className="max-w-sm" value={search} onChange={(e) => setSearch(e.target.value)} />
            <div className="flex items-center gap-2">
              <Checkbox id="show-ignored" checked={includeIgnored} onCheckedChange={(v) => setIncludeIgnored(v === true)} />
              <Label htmlFor="show-ignored">Show ignored</Label>
            </div>
          </div>
        }
        empty={{
          icon: FileQuestion,
          title: "Every request found its mock",
          body: (
            <>
              When a request to <code className="font-mono text-xs">/stubs/{namespace}/…</code> matches no mock, it is listed here so you can create the missing mock from it.
            </>
          ),
        }}
        noMatch={{ title: "No undefined request matches", body: "Try another method or part of the path." }}
      />
      <ConfirmDialog
        open={confirmClear}
        onOpenChange={setConfirmClear}
        title="Clear all undefined requests?"
        description="Every captured request of this namespace is deleted, ignored ones included. New misses are captured again."
        confirmLabel="Clear all"
        pending={clear.isPending}
        onConfirm={() => clear.mutate({ namespace })}
      />
    </>
  );
}
