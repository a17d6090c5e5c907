"use client";
// /perf: the namespace's load tests (saved k6 scripts with their options)
// and the latest runs of any of them. A load test runs from here in one
// click and opens its live result; an empty namespace is shown how to start,
// with the sample script the editor opens with.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Gauge, Pencil, Play, Plus, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatDateTime, formatRelative } from "@/components/lib/format";
import { toastError } from "@/components/lib/toast-error";
import { PerfStatusBadge } from "@/components/perf/status";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import type { PerfConfigRow } from "@/server/contracts/perf-configs";
import { useNamespace } from "../../_components/namespace-context";
import { sampleScript } from "./config-form-model";
import { perfPaths } from "./paths";
import { ResultsTable } from "./results-table";

export function PerfHome() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const configs = useQuery(trpc.perf.configs.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const [deleting, setDeleting] = useState<PerfConfigRow | null>(null);
  const run = useMutation(
    trpc.perf.configs.run.mutationOptions({
      onSuccess: (started) => {
        toast.success("Load test started");
        void queryClient.invalidateQueries({ queryKey: trpc.perf.pathKey() });
        router.push(hrefWithNs(perfPaths.result(started.id)));
      },
      onError: toastError,
    }),
  );
  const remove = useMutation(
    trpc.perf.configs.delete.mutationOptions({
      onSuccess: () => {
        toast.success(`${deleting?.name ?? "Load test"} deleted`);
        setDeleting(null);
        void queryClient.invalidateQueries({ queryKey: trpc.perf.pathKey() });
      },
      onError: toastError,
    }),
  );

  const newButton = (
    <Button asChild>
      <Link href={hrefWithNs(perfPaths.newConfig)}>
        <Plus aria-hidden /> New load test
      </Link>
    </Button>
  );

  const columns: DataColumn<PerfConfigRow>[] = [
    {
      id: "name",
      header: "Load test",
      className: "max-w-80",
      cell: (c) => (
        <div className="flex min-w-0 flex-col">
          <Link href={hrefWithNs(perfPaths.config(c.id))} className="truncate font-medium hover:underline">
            {c.name}
          </Link>
          {c.description ? <span className="truncate text-xs text-muted-foreground">{c.description}</span> : null}
        </div>
      ),
    },
    {
      id: "last",
      header: "Last run",
      cell: (c) =>
        c.lastResult ? (
          <Link href={hrefWithNs(perfPaths.result(c.lastResult.id))} className="inline-flex items-center gap-2 text-xs hover:underline">
            <PerfStatusBadge status={c.lastResult.status} />
            <span className="text-muted-foreground" title={formatDateTime(c.lastResult.createdAt)}>
              {formatRelative(c.lastResult.createdAt)}
            </span>
          </Link>
        ) : (
          <span className="text-xs text-muted-foreground">never run</span>
        ),
    },
    {
      id: "env",
      header: "__ENV",
      className: "max-w-56 truncate font-mono text-xs text-muted-foreground",
      cell: (c) => (c.envNames.length ? c.envNames.join(", ") : "—"),
    },
    { id: "updated", header: "Updated", className: "whitespace-nowrap text-xs", cell: (c) => <span title={formatDateTime(c.updatedAt)}>{formatRelative(c.updatedAt)}</span> },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      cell: (c) => (
        <div className="flex justify-end gap-1">
          <Button size="sm" variant="outline" aria-label={`Run ${c.name}`} pending={run.isPending && run.variables?.id === c.id} onClick={() => run.mutate({ namespace, id: c.id })}>
            <Play aria-hidden /> Run
          </Button>
          <Button size="icon-sm" variant="ghost" aria-label={`Edit ${c.name}`} title="Edit" asChild>
            <Link href={hrefWithNs(perfPaths.config(c.id))}>
              <Pencil aria-hidden />
            </Link>
          </Button>
          <Button size="icon-sm" variant="ghost" className="text-muted-foreground hover:text-destructive" aria-label={`Delete ${c.name}`} title="Delete" onClick={() => setDeleting(c)}>
            <Trash2 aria-hidden />
          </Button>
        </div>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-8">
      <PageHeader
        title="Load tests"
        description="k6-compatible load tests: a script, its virtual users and duration (or a ramp), and thresholds that make a run pass or fail. Runs go to runner agents when any are registered, otherwise this server runs them."
        actions={newButton}
      />
      <section aria-labelledby="perf-configs" className="flex flex-col gap-3">
        <h2 id="perf-configs" className="text-lg font-semibold">
          Saved load tests
        </h2>
        <DataTable
          label="Load tests"
          columns={columns}
          data={configs.data?.configs}
          isLoading={configs.isLoading || !namespace}
          error={configs.error}
          rowKey={(c) => c.id}
          search={{ label: "Search load tests", placeholder: "Search by name or description", text: (c) => `${c.name} ${c.description}` }}
          onOpen={(c) => router.push(hrefWithNs(perfPaths.config(c.id)))}
          empty={{
            icon: Gauge,
            title: "Create a load test",
            body: (
              <div className="flex flex-col gap-3 text-left">
                <p>A load test is a k6 script run by many virtual users at once. The editor starts from this one; point BASE_URL at a mock of this namespace to try it safely:</p>
                <pre className="max-h-48 overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-xs text-foreground">{sampleScript()}</pre>
                <p>Then set the VUs and duration (or a ramp), add thresholds such as p(95)&lt;500, and press Run (Ctrl+Enter).</p>
              </div>
            ),
            action: newButton,
          }}
        />
      </section>
      <section aria-labelledby="perf-results" className="flex flex-col gap-3">
        <h2 id="perf-results" className="text-lg font-semibold">
          Recent runs
        </h2>
        <ResultsTable label="Recent runs" />
      </section>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title={`Delete ${deleting?.name ?? "the load test"}?`}
        description="The script and its options are gone, and so are its schedules. Its past runs stay under Recent runs."
        confirmLabel="Delete load test"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ namespace, id: deleting.id })}
      />
    </div>
  );
}
