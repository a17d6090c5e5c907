"use client";
// The Trend tab of a load test: its ended runs as a line per measure, each
// point opening its result, and the same points as a table (for keyboards
// and screen readers, and for exact numbers).
import { useQuery } from "@tanstack/react-query";
import { TrendingUp } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { formatDateTime } from "@/components/lib/format";
import { formatMs, formatPercent, formatRate } from "@/components/perf/format";
import { PerfStatusBadge } from "@/components/perf/status";
import { TREND_MEASURES, TrendChart, type TrendMeasure } from "@/components/perf/trend-chart";
import { DataTable } from "@/components/ui/data-table";
import { FilterChips } from "@/components/tester/filter-chips";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Skeleton } from "@/components/ui/skeleton";
import type { PerfTrendPoint } from "@/server/contracts/perf-analysis";
import { useNamespace } from "../../_components/namespace-context";
import { ThresholdsCell } from "./results-table";
import { perfPaths } from "./paths";

export function TrendPanel({ configId }: { configId: string }) {
  const trpc = useTRPC();
  const router = useRouter();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const [measure, setMeasure] = useState<TrendMeasure>("p95Ms");
  const trend = useQuery(trpc.perf.results.trend.queryOptions({ namespace, configId, limit: 50 }, { enabled: !!namespace }));
  const open = (id: string) => router.push(hrefWithNs(perfPaths.result(id)));

  if (trend.error) return <ApiErrorAlert error={trend.error} title="The trend could not be loaded" />;
  if (!trend.data) return <Skeleton className="h-72 w-full" />;
  const points = trend.data.points;
  if (!points.length)
    return (
      <EmptyState icon={TrendingUp} title="No finished runs yet">
        Each finished run adds a point: p(95) latency, requests per second and failed requests over time, so a slower build shows as a step. Run the load test (or schedule it) to start the trend.
      </EmptyState>
    );
  return (
    <div className="flex flex-col gap-4">
      <FilterChips label="Measure" value={measure} onChange={setMeasure} options={(Object.keys(TREND_MEASURES) as TrendMeasure[]).map((k) => ({ value: k, label: TREND_MEASURES[k].label }))} />
      <TrendChart points={points} measure={measure} onOpen={open} />
      <DataTable<PerfTrendPoint>
        label="Runs in the trend"
        data={[...points].reverse()}
        rowKey={(p) => p.id}
        onOpen={(p) => open(p.id)}
        empty={{ icon: TrendingUp, title: "No runs", body: "" }}
        columns={[
          { id: "name", header: "Run", cell: (p) => <Link className="font-medium hover:underline" href={hrefWithNs(perfPaths.result(p.id))}>{formatDateTime(p.createdAt)}</Link> },
          { id: "status", header: "Status", cell: (p) => <PerfStatusBadge status={p.status} /> },
          { id: "rps", header: "Req/s", headClassName: "text-right", className: "text-right font-mono text-xs", cell: (p) => formatRate(p.rps) },
          { id: "p95", header: "p(95)", headClassName: "text-right", className: "text-right font-mono text-xs", cell: (p) => formatMs(p.p95Ms) },
          { id: "failed", header: "Failed", headClassName: "text-right", className: "text-right font-mono text-xs", cell: (p) => formatPercent(p.failedRate) },
          { id: "thresholds", header: "Thresholds", headClassName: "text-center", className: "text-center", cell: (p) => <ThresholdsCell ok={p.thresholdsOk} /> },
        ]}
      />
    </div>
  );
}
