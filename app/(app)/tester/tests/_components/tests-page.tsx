"use client";
// Standalone tests of the namespace: search, create and edit, run. A run
// answers when it has finished (the button shows it is under way; the run's
// own page follows long ones live), then links to its results.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ListChecks, Pencil, Play, Plus, Search, Trash2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatDateTime } from "@/components/lib/format";
import { toastError } from "@/components/lib/toast-error";
import { useDebounced } from "@/components/lib/use-debounced";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { TestView } from "@/server/contracts/tester-tests-schedules";
import { useNamespace } from "../../../_components/namespace-context";
import { runPath } from "../../_components/run-links";
import { TestDialog } from "./test-dialog";

const variant = (status: string) => (status === "passed" ? "success" : status === "failed" || status === "error" ? "destructive" : "secondary");

export function TestsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const namespace = useNamespace().current?.name;
  const [search, setSearch] = useState("");
  const debounced = useDebounced(search, 250);
  const list = useQuery(trpc.apiTester.tests.list.queryOptions({ namespace, search: debounced || undefined }, { enabled: !!namespace }));
  const [dialog, setDialog] = useState<{ editing: TestView | null } | null>(null);
  const [deleting, setDeleting] = useState<TestView | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.apiTester.tests.pathKey() });
  const run = useMutation(
    trpc.apiTester.tests.run.mutationOptions({
      onSuccess: (r) => {
        toast.success(`${r.name}: ${r.status}, ${r.counts.passedTests}/${r.counts.tests} tests passed`);
        void refresh();
        void queryClient.invalidateQueries({ queryKey: trpc.apiTester.testRuns.pathKey() });
      },
      onError: (e) => toastError(e),
    }),
  );
  const remove = useMutation(trpc.apiTester.tests.remove.mutationOptions({ onSuccess: () => (setDeleting(null), toast.success("Test deleted"), void refresh()), onError: (e) => toastError(e) }));
  const tests = list.data?.tests ?? [];
  const newButton = (
    <Button onClick={() => setDialog({ editing: null })}>
      <Plus aria-hidden /> New test
    </Button>
  );

  let body: React.ReactNode;
  if (list.error) body = <ApiErrorAlert error={list.error} title="The tests could not be loaded" />;
  else if (!namespace || list.isLoading) body = <SkeletonRows rows={4} label="Loading the tests" />;
  else if (!tests.length && !debounced)
    body = (
      <EmptyState icon={ListChecks} title="No tests yet" action={newButton}>
        A test is a saved run: the collections to run in order, the environment, iterations and whether to stop at the first failure. Run it with one click, from CI through <code className="font-mono text-xs">POST /api/v1/api-tester/tests/&#123;id&#125;/run</code>, or put its collections on a schedule.
      </EmptyState>
    );
  else
    body = (
      <div className="flex flex-col gap-4">
        <div className="relative max-w-sm">
          <Search aria-hidden className="absolute top-2.5 left-3 size-4 text-muted-foreground" />
          <Input aria-label="Search tests" className="pl-9" placeholder="Search by name or description" value={search} onChange={(e) => setSearch(e.target.value)} />
        </div>
        {!tests.length ? (
          <p className="text-sm text-muted-foreground">No test matches “{debounced}”.</p>
        ) : (
          <Table aria-label="Tests">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Collections</TableHead>
                <TableHead>Last run</TableHead>
                <TableHead className="text-right">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {tests.map((t) => {
                const running = run.isPending && run.variables?.id === t.id;
                const justRan = run.data && run.variables?.id === t.id ? run.data : null;
                return (
                  <TableRow key={t.id}>
                    <TableCell>
                      <div className="font-medium">{t.name}</div>
                      {t.description ? <div className="text-xs text-muted-foreground">{t.description}</div> : null}
                    </TableCell>
                    <TableCell className="tabular-nums">{t.collectionIds.length}</TableCell>
                    <TableCell>
                      {running ? (
                        <span role="status" className="text-muted-foreground">
                          Running…
                        </span>
                      ) : t.lastRun ? (
                        <Link href={runPath(justRan?.id ?? t.lastRun.id)} className="inline-flex items-center gap-2 underline-offset-2 hover:underline">
                          <Badge variant={variant(justRan?.status ?? t.lastRun.status)}>{justRan?.status ?? t.lastRun.status}</Badge>
                          <span className="text-xs text-muted-foreground">{formatDateTime(t.lastRun.createdAt)}</span>
                        </Link>
                      ) : (
                        <span className="text-muted-foreground">never</span>
                      )}
                    </TableCell>
                    <TableCell>
                      <div className="flex justify-end gap-2">
                        <Button size="sm" onClick={() => run.mutate({ namespace, id: t.id })} pending={running} disabled={run.isPending}>
                          <Play aria-hidden /> Run
                        </Button>
                        <Button size="sm" variant="outline" onClick={() => setDialog({ editing: t })} aria-label={`Edit ${t.name}`}>
                          <Pencil aria-hidden />
                        </Button>
                        <Button size="sm" variant="outline" onClick={() => setDeleting(t)} aria-label={`Delete ${t.name}`}>
                          <Trash2 aria-hidden />
                        </Button>
                      </div>
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        )}
      </div>
    );

  return (
    <>
      <PageHeader title="Tests" description="Saved runs over your collections: run them again with one click, from CI through the API, or on a schedule." actions={tests.length || debounced ? newButton : null} />
      {body}
      <TestDialog open={dialog !== null} onOpenChange={(o) => (o ? undefined : setDialog(null))} namespace={namespace} editing={dialog?.editing ?? null} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title={`Delete ${deleting?.name ?? "the test"}?`}
        description="Its past runs stay under Runs."
        confirmLabel="Delete test"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ namespace, id: deleting.id })}
      />
    </>
  );
}
