"use client";
// The run history of the namespace: runs going on now (polled, with Cancel),
// the pass rate of the recent runs as a chart, and every run in a paged
// table filtered by mode, each opening its results; finished runs can be
// deleted. A run that ends moves from the top card into the table by itself.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { History, Play } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDeleteDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { deleteColumn, startedColumn, titleColumn } from "@/components/ui/data-table-columns";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { Skeleton } from "@/components/ui/skeleton";
import { FilterChips } from "@/components/tester/filter-chips";
import { formatMs } from "@/components/tester/format";
import { RunStatusBadge } from "@/components/tester/run-summary";
import type { TestRunSummary } from "@/server/contracts/tester-run";
import { useNamespace } from "../../../_components/namespace-context";
import { isLive, runPath } from "../../_components/run-links";
import { useCancelRun } from "../../_components/use-cancel-run";
import { ActiveRuns } from "./active-runs";
import { PassRateChart } from "./pass-rate-chart";
import { MODE_LABEL, type RunMode } from "./run-modes";

const PAGE_SIZE = 25;
/** Runs the chart shows. */
const CHART_RUNS = 30;
const POLL_MS = 2000;

type ModeFilter = RunMode | "all";

export function RunsPage() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const [mode, setMode] = useState<ModeFilter>("all");
  const [offset, setOffset] = useState(0);
  const [deleting, setDeleting] = useState<TestRunSummary | null>(null);
  const modeInput = mode === "all" ? undefined : mode;

  const list = useQuery({ ...trpc.apiTester.testRuns.list.queryOptions({ namespace, mode: modeInput, limit: PAGE_SIZE, offset }, { enabled: !!namespace }), placeholderData: keepPreviousData });
  const recent = useQuery(trpc.apiTester.testRuns.list.queryOptions({ namespace, mode: modeInput, limit: CHART_RUNS, offset: 0 }, { enabled: !!namespace }));
  const active = useQuery(trpc.apiTester.testRuns.active.queryOptions({ namespace }, { enabled: !!namespace, refetchInterval: POLL_MS }));
  const { cancel, pendingId } = useCancelRun(namespace);

  // A run started or ended: the table and the chart show it.
  const activeKey = active.data?.testRuns.map((r) => r.id).join(",");
  const lastActive = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (activeKey === undefined) return;
    if (lastActive.current !== undefined && lastActive.current !== activeKey) void queryClient.invalidateQueries({ queryKey: trpc.apiTester.testRuns.list.pathKey() });
    lastActive.current = activeKey;
  }, [activeKey, queryClient, trpc]);

  const remove = useMutation(
    trpc.apiTester.testRuns.remove.mutationOptions({
      onSuccess: () => {
        toast.success(`${deleting?.name ?? "Run"} deleted`);
        setDeleting(null);
        // The last run of the last page: step back to a page that has runs.
        if (offset > 0 && (list.data?.testRuns.length ?? 0) <= 1) setOffset(Math.max(0, offset - PAGE_SIZE));
        void queryClient.invalidateQueries({ queryKey: trpc.apiTester.testRuns.pathKey() });
      },
      onError: toastError,
    }),
  );

  const open = (id: string) => router.push(hrefWithNs(runPath(id)));
  const finished = (recent.data?.testRuns ?? []).filter((r) => !isLive(r.status));
  const runs = list.data?.testRuns ?? [];
  const total = list.data?.total ?? 0;

  const columns: DataColumn<TestRunSummary>[] = [
    titleColumn({
      header: "Run",
      className: "max-w-72",
      href: (r) => hrefWithNs(runPath(r.id)),
      title: (r) => r.name,
      subtitle: (r) =>
        r.createdBy || r.source === "import" ? (
          <span className="truncate text-xs text-muted-foreground">
            {r.source === "import" ? "imported report" : null}
            {r.source === "import" && r.createdBy ? " · " : null}
            {r.createdBy ? `by ${r.createdBy}` : null}
          </span>
        ) : null,
    }),
    { id: "status", header: "Status", cell: (r) => <RunStatusBadge status={r.status} /> },
    { id: "mode", header: "Mode", cell: (r) => <Badge variant="outline">{MODE_LABEL[r.mode]}</Badge> },
    {
      id: "requests",
      header: "Requests",
      headClassName: "text-right",
      className: "text-right tabular-nums",
      cell: (r) => (
        <>
          {r.counts.requests}
          {r.iterations > 1 ? <span className="block text-xs text-muted-foreground">{r.iterations} iterations</span> : null}
        </>
      ),
    },
    {
      id: "tests",
      header: "Tests",
      className: "whitespace-nowrap text-xs tabular-nums",
      cell: (r) =>
        r.counts.tests === 0 ? (
          <span className="text-muted-foreground">—</span>
        ) : (
          <span>
            <span className="text-success">{r.counts.passedTests} passed</span>
            {r.counts.failedTests ? <span className="text-destructive"> · {r.counts.failedTests} failed</span> : null}
          </span>
        ),
    },
    { id: "duration", header: "Duration", headClassName: "text-right", className: "text-right font-mono text-xs tabular-nums", cell: (r) => formatMs(r.durationMs) },
    startedColumn((r) => r.startedAt ?? r.createdAt),
    deleteColumn({ name: (r) => r.name, blocked: (r) => isLive(r.status), blockedTitle: "Cancel the run before deleting it", onDelete: (r) => setDeleting(r) }),
  ];

  const runnerLink = (
    <Button variant="outline" asChild>
      <Link href={hrefWithNs("/tester/runner")}>
        <Play aria-hidden /> Open the runner
      </Link>
    </Button>
  );

  return (
    <>
      <PageHeader title="Test runs" description="Every collection run and imported report of this namespace, with its pass rate. Open a run for its requests, tests and logs, or download its JUnit, HTML or JSON report." actions={runnerLink} />
      {active.data?.testRuns.length ? <ActiveRuns runs={active.data.testRuns} hrefWithNs={hrefWithNs} onCancel={cancel} cancellingId={pendingId} /> : null}
      {recent.isLoading ? (
        <Skeleton className="h-64 w-full" />
      ) : finished.length > 1 ? (
        <Card>
          <CardHeader>
            <CardTitle>Pass rate</CardTitle>
            <CardDescription>Passed tests among the tests that passed or failed, per run{mode === "all" ? "" : ` (${MODE_LABEL[mode].toLowerCase()} runs)`}.</CardDescription>
          </CardHeader>
          <CardContent>
            <PassRateChart runs={finished} onOpen={open} />
          </CardContent>
        </Card>
      ) : null}
      <Card>
        <CardContent className="pt-6">
          <DataTable
            label="Test runs"
            columns={columns}
            data={namespace ? list.data?.testRuns : undefined}
            isLoading={list.isLoading}
            error={list.error}
            rowKey={(r) => r.id}
            onOpen={(r) => open(r.id)}
            filtered={mode !== "all"}
            skeletonRows={6}
            toolbar={
              <FilterChips
                label="Mode"
                value={mode}
                onChange={(m) => {
                  setMode(m);
                  setOffset(0);
                }}
                options={[{ value: "all", label: "All modes" }, ...(Object.keys(MODE_LABEL) as RunMode[]).map((m) => ({ value: m, label: MODE_LABEL[m] }))]}
              />
            }
            empty={{
              icon: History,
              title: "No test runs yet",
              body: (
                <>
                  Run a collection from the workspace or the runner: every run lands here with its pass rate, and each request&apos;s tests, errors and logs. JUnit or JSON reports from CI can be imported too.
                </>
              ),
              action: runnerLink,
            }}
            noMatch={{ title: `No ${mode === "all" ? "" : `${MODE_LABEL[mode].toLowerCase()} `}runs`, body: "Show all modes to see the other runs." }}
            footer={runs.length ? <Pager offset={offset} shown={runs.length} total={total} pageSize={PAGE_SIZE} onOffset={setOffset} labels={{ previous: "Newer", next: "Older" }} /> : null}
          />
        </CardContent>
      </Card>
      <ConfirmDeleteDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        fallbackName="this run"
        description="The run and every result in it are deleted, and its reports can no longer be downloaded. Collections and environments stay."
        confirmLabel="Delete run"
        pending={remove.isPending}
        onConfirm={(r) => remove.mutate({ namespace, id: r.id })}
      />
    </>
  );
}
