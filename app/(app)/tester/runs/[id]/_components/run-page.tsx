"use client";
// One test run: its summary and every request's result (RunResults), polled
// every second while it runs, with Cancel; once it has ended, its report
// downloads, "Run again" in the runner (for a one-collection run) and Delete.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Play, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { PageHeader } from "@/components/ui/page-header";
import { SkeletonRows } from "@/components/ui/skeleton";
import { RunResults } from "@/components/tester/run-results";
import { useNamespace } from "../../../../_components/namespace-context";
import { exportHrefs, isLive } from "../../../_components/run-links";
import { useCancelRun } from "../../../_components/use-cancel-run";
import { MODE_LABEL } from "../../_components/run-modes";

const POLL_MS = 1000;

export function RunPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const run = useQuery(
    trpc.apiTester.testRuns.get.queryOptions(
      { namespace, id },
      { enabled: !!namespace, refetchInterval: (query) => (query.state.data && isLive(query.state.data.status) ? POLL_MS : false) },
    ),
  );
  const environments = useQuery(trpc.apiTester.environments.list.queryOptions({ namespace }, { enabled: !!namespace && !!run.data?.environmentId }));
  const { cancel } = useCancelRun(namespace);
  const [deleting, setDeleting] = useState(false);
  const remove = useMutation(
    trpc.apiTester.testRuns.remove.mutationOptions({
      onSuccess: () => {
        toast.success(`${run.data?.name ?? "Run"} deleted`);
        void queryClient.invalidateQueries({ queryKey: trpc.apiTester.testRuns.list.pathKey() });
        router.push(hrefWithNs("/tester/runs"));
      },
      onError: toastError,
    }),
  );

  const back = (
    <Button variant="ghost" size="sm" asChild className="-ml-2 self-start">
      <Link href={hrefWithNs("/tester/runs")}>
        <ArrowLeft aria-hidden /> All runs
      </Link>
    </Button>
  );

  if (run.error)
    return (
      <>
        {back}
        <ApiErrorAlert error={run.error} title={`Run “${id}” cannot be opened`} />
      </>
    );
  if (!run.data)
    return (
      <>
        {back}
        <SkeletonRows rows={6} label="Loading the run" />
      </>
    );

  const r = run.data;
  const live = isLive(r.status);
  const environment = r.environmentId ? environments.data?.environments.find((e) => e.id === r.environmentId)?.name : null;
  const details = [MODE_LABEL[r.mode], r.source === "import" ? "imported report" : null, r.createdBy ? `by ${r.createdBy}` : null, r.environmentId ? `environment ${environment ?? "(deleted)"}` : "no environment"].filter(Boolean).join(" · ");
  const rerun = r.mode === "functional" && r.source === "run" && r.collectionIds.length === 1 ? `/tester/runner?collection=${encodeURIComponent(r.collectionIds[0]!)}` : null;

  return (
    <>
      {back}
      <PageHeader
        title="Test run"
        description={details}
        actions={
          <>
            {rerun && !live ? (
              <Button variant="outline" asChild>
                <Link href={hrefWithNs(rerun)}>
                  <Play aria-hidden /> Run again
                </Link>
              </Button>
            ) : null}
            {!live ? (
              <Button variant="outline" className="text-destructive hover:text-destructive" onClick={() => setDeleting(true)}>
                <Trash2 aria-hidden /> Delete
              </Button>
            ) : null}
          </>
        }
      />
      {live ? (
        <p className="text-sm text-muted-foreground" aria-live="polite">
          Running: {r.counts.requests === 1 ? "1 request" : `${r.counts.requests} requests`} done so far. This page follows the run every second.
        </p>
      ) : null}
      <RunResults run={r} exportHrefs={live ? undefined : exportHrefs(r.id, namespace)} onCancel={live ? () => cancel(r.id) : undefined} />
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={`Delete ${r.name}?`}
        description="The run and every result in it are deleted, and its reports can no longer be downloaded."
        confirmLabel="Delete run"
        pending={remove.isPending}
        onConfirm={() => remove.mutate({ namespace, id: r.id })}
      />
    </>
  );
}
