"use client";
// /perf/runners: the runner agents that take load runs (online, draining or
// offline, their capacity and VUs in use, the parts they run now), the
// runner tasks of the namespace with their place in the queue and Cancel,
// the delegated credentials agents register with (agents online per
// credential), and how to start another agent with one.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Cpu, ListTodo, X } from "lucide-react";
import Link from "next/link";
import { useState, useSyncExternalStore } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { formatDateTime, formatRelative } from "@/components/lib/format";
import { toastError } from "@/components/lib/toast-error";
import { PerfStatusBadge } from "@/components/perf/status";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/ui/copy-button";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import { Pager } from "@/components/ui/pager";
import { FilterChips } from "@/components/tester/filter-chips";
import { RUNNER_TASK_STATUSES, type RunnerTaskView, type RunnerView } from "@/server/contracts/runner-endpoints";
import { useNamespace } from "../../_components/namespace-context";
import { IntegrationStatus } from "./integration-status";
import { perfPaths } from "./paths";

const TASK_PAGE = 20;
type TaskFilter = (typeof RUNNER_TASK_STATUSES)[number] | "all";
const STATUS_VARIANT = { online: "success", draining: "warning", offline: "secondary" } as const;
const TASK_VARIANT = { queued: "secondary", running: "default", completed: "success", failed: "destructive", cancelled: "warning" } as const;

const noSubscribe = () => () => {};
/** This server's address as the browser sees it (what an agent on another machine dials). */
function useOrigin(): string {
  return useSyncExternalStore(noSubscribe, () => window.location.origin, () => "http://localhost:5770");
}

function StartRunnerCard() {
  const origin = useOrigin();
  const { hrefWithNs } = useNamespace();
  const command = `npx polymock runner --server ${origin} --token <token>`;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Start a runner agent</CardTitle>
        <CardDescription>
          Any machine with Node.js can take load runs: the server splits a run over the online agents by their free VUs. Create a{" "}
          <Link href={hrefWithNs("/settings/tokens")} className="underline underline-offset-2">
            delegated credential
          </Link>{" "}
          (Settings → API tokens) for the agent, then run:
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center gap-2">
          <code className="flex-1 rounded-md border bg-muted/40 px-3 py-2 font-mono text-xs break-all" data-testid="runner-command">
            {command}
          </code>
          <CopyButton value={command} size="sm" label="Copy command" />
        </div>
        <p className="text-xs text-muted-foreground">Without any online agent, this server runs load tests itself (up to a few hundred VUs).</p>
      </CardContent>
    </Card>
  );
}

function VuBar({ active, capacity }: { active: number; capacity: number }) {
  const share = capacity > 0 ? Math.min(1, active / capacity) : 0;
  return (
    <div className="flex min-w-32 flex-col gap-1">
      <span className="font-mono text-xs tabular-nums">
        {active} / {capacity} VUs
      </span>
      <div className="h-1.5 w-full overflow-hidden rounded-full bg-muted" role="meter" aria-label="VUs in use" aria-valuemin={0} aria-valuemax={capacity} aria-valuenow={active}>
        <div className="h-full bg-primary" style={{ width: `${share * 100}%` }} />
      </div>
    </div>
  );
}

function QueuePosition({ id, namespace }: { id: string; namespace: string | undefined }) {
  const trpc = useTRPC();
  const q = useQuery(trpc.runners.tasks.queuePosition.queryOptions({ namespace, id }, { enabled: !!namespace, refetchInterval: 3000 }));
  if (!q.data) return <span className="text-xs text-muted-foreground">…</span>;
  if (q.data.position === null) return <span className="text-xs text-muted-foreground">—</span>;
  return (
    <span className="text-xs tabular-nums" title={`${q.data.ahead} queued task(s) ahead, across the instance`}>
      #{q.data.position}
    </span>
  );
}

export function RunnersPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const [filter, setFilter] = useState<TaskFilter>("all");
  const [offset, setOffset] = useState(0);
  const [cancelling, setCancelling] = useState<RunnerTaskView | null>(null);
  const runners = useQuery(trpc.runners.list.queryOptions({ namespace }, { enabled: !!namespace, refetchInterval: 5000 }));
  const tasks = useQuery({
    ...trpc.runners.tasks.list.queryOptions({ namespace, status: filter === "all" ? undefined : filter, limit: TASK_PAGE, offset }, { enabled: !!namespace, refetchInterval: 3000 }),
    placeholderData: keepPreviousData,
  });
  const cancel = useMutation(
    trpc.runners.tasks.cancel.mutationOptions({
      onSuccess: () => {
        toast.success("Task cancelled");
        setCancelling(null);
        void queryClient.invalidateQueries({ queryKey: trpc.runners.pathKey() });
      },
      onError: toastError,
    }),
  );

  const runnerColumns: DataColumn<RunnerView>[] = [
    {
      id: "name",
      header: "Runner",
      cell: (r) => (
        <div className="flex flex-col">
          <span className="font-medium">{r.name}</span>
          <span className="text-xs text-muted-foreground">
            {r.hostname || "—"}
            {r.version ? ` · v${r.version}` : ""}
          </span>
        </div>
      ),
    },
    { id: "status", header: "State", cell: (r) => <Badge variant={STATUS_VARIANT[r.status]}>{r.status}</Badge> },
    { id: "vus", header: "Capacity", cell: (r) => <VuBar active={r.activeVus} capacity={r.capacityVus} /> },
    {
      id: "parts",
      header: "Running now",
      cell: (r) =>
        r.parts.length ? (
          <ul className="flex flex-col gap-0.5 text-xs">
            {r.parts.map((p) => (
              <li key={p.partId}>
                <Link className="underline underline-offset-2" href={hrefWithNs(perfPaths.result(p.resultId))}>
                  part {p.index + 1} of {p.count}
                </Link>
                {p.startedAt ? <span className="text-muted-foreground"> · since {formatRelative(p.startedAt)}</span> : null}
              </li>
            ))}
          </ul>
        ) : (
          <span className="text-xs text-muted-foreground">idle</span>
        ),
    },
    { id: "scope", header: "Serves", className: "text-xs", cell: (r) => r.namespace ?? "every namespace of its owner" },
    { id: "labels", header: "Labels", cell: (r) => (r.labels.length ? <span className="flex flex-wrap gap-1">{r.labels.map((l) => <Badge key={l} variant="outline">{l}</Badge>)}</span> : <span className="text-xs text-muted-foreground">—</span>) },
    { id: "seen", header: "Last heartbeat", className: "whitespace-nowrap text-xs", cell: (r) => <span title={formatDateTime(r.lastHeartbeatAt)}>{formatRelative(r.lastHeartbeatAt)}</span> },
  ];

  const taskColumns: DataColumn<RunnerTaskView>[] = [
    {
      id: "name",
      header: "Task",
      cell: (t) => (
        <div className="flex flex-col">
          {t.resultId ? (
            <Link className="font-medium hover:underline" href={hrefWithNs(perfPaths.result(t.resultId))}>
              {t.name ?? "Load run"}
            </Link>
          ) : (
            <span className="font-medium">{t.name ?? "Load run"}</span>
          )}
          {t.error ? <span className="text-xs text-destructive">{t.error}</span> : null}
        </div>
      ),
    },
    { id: "status", header: "Status", cell: (t) => <Badge variant={TASK_VARIANT[t.status]}>{t.status}</Badge> },
    { id: "run", header: "Run", cell: (t) => (t.runStatus ? <PerfStatusBadge status={t.runStatus} /> : <span className="text-xs text-muted-foreground">—</span>) },
    { id: "queue", header: "Queue", cell: (t) => (t.status === "queued" ? <QueuePosition id={t.id} namespace={namespace} /> : <span className="text-xs text-muted-foreground">—</span>) },
    { id: "vus", header: "VUs", headClassName: "text-right", className: "text-right font-mono text-xs tabular-nums", cell: (t) => t.vus },
    { id: "parts", header: "Parts", className: "text-xs", cell: (t) => `${t.parts.filter((p) => p.status === "passed" || p.status === "failed").length}/${t.partCount}` },
    { id: "created", header: "Submitted", className: "whitespace-nowrap text-xs", cell: (t) => <span title={formatDateTime(t.createdAt)}>{formatRelative(t.createdAt)}{t.createdBy ? ` by ${t.createdBy}` : ""}</span> },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      cell: (t) =>
        t.status === "queued" || t.status === "running" ? (
          <Button size="sm" variant="outline" onClick={() => setCancelling(t)} aria-label={`Cancel ${t.name ?? "task"}`}>
            <X aria-hidden /> Cancel
          </Button>
        ) : null,
    },
  ];

  const online = runners.data?.online ?? 0;
  return (
    <div className="flex flex-col gap-8">
      <PageHeader title="Runner agents" description="Machines that run load tests for this server, and the tasks queued for them. A run larger than one agent is split into parts over several." />
      <section aria-labelledby="runners-list" className="flex flex-col gap-3">
        <h2 id="runners-list" className="text-lg font-semibold">
          Agents {runners.data ? <span className="text-sm font-normal text-muted-foreground">({online} online of {runners.data.total})</span> : null}
        </h2>
        <DataTable
          label="Runner agents"
          columns={runnerColumns}
          data={runners.data?.runners}
          isLoading={runners.isLoading || !namespace}
          error={runners.error}
          rowKey={(r) => r.id}
          rowClassName={(r) => (r.status === "offline" ? "text-muted-foreground" : undefined)}
          search={{ label: "Search runners", placeholder: "Search by name, host or label", text: (r) => `${r.name} ${r.hostname} ${r.labels.join(" ")}` }}
          empty={{ icon: Cpu, title: "No runner agents yet", body: "Load tests run in this server until an agent registers. Start one with the command below; it appears here within seconds, with its capacity and the runs it takes." }}
        />
      </section>
      <IntegrationStatus />
      <StartRunnerCard />
      <section aria-labelledby="runner-tasks" className="flex flex-col gap-3">
        <h2 id="runner-tasks" className="text-lg font-semibold">
          Tasks
        </h2>
        <DataTable
          label="Runner tasks"
          columns={taskColumns}
          data={tasks.data?.tasks}
          isLoading={tasks.isLoading || !namespace}
          error={tasks.error}
          rowKey={(t) => t.id}
          filtered={filter !== "all"}
          toolbar={
            <FilterChips
              label="Task status"
              value={filter}
              onChange={(v) => {
                setFilter(v);
                setOffset(0);
              }}
              options={[{ value: "all", label: "All" }, ...RUNNER_TASK_STATUSES.map((s) => ({ value: s, label: s }))]}
            />
          }
          empty={{ icon: ListTodo, title: "No runner tasks", body: "A load run becomes a task for the runner agents when any is online (or when it names a runner). Tasks wait here in order until an agent with free VUs takes them." }}
          footer={tasks.data && tasks.data.total > TASK_PAGE ? <Pager offset={offset} shown={tasks.data.tasks.length} total={tasks.data.total} pageSize={TASK_PAGE} onOffset={setOffset} labels={{ previous: "Newer", next: "Older" }} /> : null}
        />
      </section>
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(o) => (o ? undefined : setCancelling(null))}
        title={`Cancel ${cancelling?.name ?? "the task"}?`}
        description="A queued task never starts; a running one stops within a second and keeps what it measured."
        confirmLabel="Cancel task"
        pending={cancel.isPending}
        onConfirm={() => cancelling && cancel.mutate({ namespace, id: cancelling.id })}
      />
    </div>
  );
}
