"use client";
// The namespace at a glance: counts, hits over time, mocks per protocol and the latest changes.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Boxes, FileQuestion, History, Plus, Trash2 } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { formatRelative } from "@/components/lib/format";
import { useLiveEvents } from "@/components/lib/use-live-events";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useNamespace } from "../../_components/namespace-context";
import { protocolLabel } from "../../mocks/_components/protocol-badge";
import { versionChangeLabel } from "../../mocks/_components/version-change";
import { HitsChart } from "./hits-chart";

type Range = "1h" | "24h" | "7d";

function Stat({ label, value, href, icon: Icon }: { label: string; value: number | undefined; href: string; icon: typeof Boxes }) {
  return (
    <Link href={href} className="rounded-xl border bg-card p-4 shadow-sm outline-none transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring">
      <div className="flex items-center gap-2 text-sm text-muted-foreground">
        <Icon className="size-4" aria-hidden /> {label}
      </div>
      {/* A div, not a p: the skeleton is a div, and a div inside a p is re-parented by the HTML parser (a hydration error). */}
      <div className="mt-2 text-2xl font-semibold tabular-nums">{value ?? <Skeleton className="h-8 w-12" />}</div>
    </Link>
  );
}

/** The namespace at a glance: mocks per protocol, hits over time, the latest changes. */
export function DashboardPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const [range, setRange] = useState<Range>("24h");
  const summary = useQuery(trpc.dashboard.summary.queryOptions({ namespace, range }, { enabled: !!namespace }));
  useLiveEvents(namespace, () => void queryClient.invalidateQueries({ queryKey: trpc.dashboard.summary.queryKey({ namespace, range }) }));
  const s = summary.data;
  const protocols = (s?.mocksByProtocol ?? []).filter((p) => p.count > 0);
  const max = Math.max(1, ...protocols.map((p) => p.count));

  return (
    <>
      <PageHeader
        title="Dashboard"
        description={<>Namespace <strong>{namespace ?? "…"}</strong> at a glance.</>}
        actions={
          <Button asChild>
            <Link href={hrefWithNs("/mocks/new")}>
              <Plus aria-hidden /> New mock
            </Link>
          </Button>
        }
      />
      {summary.error ? <ApiErrorAlert error={summary.error} /> : null}
      <div className="grid gap-4 sm:grid-cols-3">
        <Stat label="Active mocks" value={s?.activeMocks} href={hrefWithNs("/mocks")} icon={Boxes} />
        <Stat label="Open undefined requests" value={s?.openUndefinedRequests} href={hrefWithNs("/undefined-requests")} icon={FileQuestion} />
        <Stat label="In the recycle bin" value={s?.deletedMocks} href={hrefWithNs("/mocks?view=bin")} icon={Trash2} />
      </div>
      <Card>
        <CardHeader className="flex-row items-start justify-between gap-4">
          <div className="flex flex-col gap-1.5">
            <CardTitle>Hits over time</CardTitle>
            <CardDescription>{s ? `${s.totalHits} stub requests answered in the period` : "Stub requests answered by mocks"}</CardDescription>
          </div>
          <Tabs value={range} onValueChange={(v) => setRange(v as Range)}>
            <TabsList aria-label="Period">
              <TabsTrigger value="1h">1 hour</TabsTrigger>
              <TabsTrigger value="24h">24 hours</TabsTrigger>
              <TabsTrigger value="7d">7 days</TabsTrigger>
            </TabsList>
          </Tabs>
        </CardHeader>
        <CardContent>{s ? <HitsChart data={s.hits} longRange={range === "7d"} /> : <Skeleton className="h-64 w-full" />}</CardContent>
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Mocks per protocol</CardTitle>
          </CardHeader>
          <CardContent>
            {!s ? (
              <Skeleton className="h-24 w-full" />
            ) : protocols.length === 0 ? (
              <EmptyState icon={Boxes} title="No mocks yet" action={<Button asChild size="sm"><Link href={hrefWithNs("/mocks/new?example=1")}>Start from an example</Link></Button>}>
                Create a mock and it is counted here.
              </EmptyState>
            ) : (
              <ul aria-label="Mocks per protocol" className="flex flex-col gap-2">
                {protocols.map((p) => (
                  <li key={p.protocol} className="grid grid-cols-[6rem_1fr_3rem] items-center gap-3 text-sm">
                    <Link href={hrefWithNs(`/mocks?protocol=${p.protocol}`)} className="font-mono hover:underline">
                      {protocolLabel(p.protocol)}
                    </Link>
                    <span className="h-2 rounded-full bg-primary/80" style={{ width: `${(p.count / max) * 100}%` }} aria-hidden />
                    <span className="text-right tabular-nums">{p.count}</span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Recent activity</CardTitle>
          </CardHeader>
          <CardContent>
            {!s ? (
              <Skeleton className="h-24 w-full" />
            ) : s.recent.length === 0 ? (
              <EmptyState icon={History} title="Nothing changed yet">Saving, restoring, tagging and moving mocks shows up here.</EmptyState>
            ) : (
              <ul aria-label="Recent activity" className="flex flex-col divide-y text-sm">
                {s.recent.map((r) => (
                  <li key={`${r.mockId}:${r.version}`} className="flex items-center gap-2 py-2">
                    <Link href={hrefWithNs(`/mocks/${encodeURIComponent(r.mockId)}`)} className="truncate font-mono text-xs font-medium hover:underline">
                      {r.mockId}
                    </Link>
                    <span className="text-muted-foreground">
                      {versionChangeLabel(r.change)} (v{r.version}){r.createdBy ? ` by ${r.createdBy}` : ""}
                    </span>
                    <span className="ml-auto whitespace-nowrap text-xs text-muted-foreground">{formatRelative(r.at)}</span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>
    </>
  );
}
