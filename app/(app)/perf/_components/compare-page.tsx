"use client";
// /perf/compare?ids=a,b[,…]: two to five load runs side by side, the first
// as the baseline. Each headline number and each k6 metric value shows its
// change against the baseline, green when it improved (lower latency, fewer
// failures, more requests per second) and red when it got worse.
import { useQuery } from "@tanstack/react-query";
import { ArrowLeft, GitCompareArrows, Search } from "lucide-react";
import Link from "next/link";
import { useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { cn } from "@/components/lib/cn";
import { formatDateTime } from "@/components/lib/format";
import { fieldLabel, formatDelta, formatField, formatMetricStat, type Verdict, verdictOf } from "@/components/perf/compare";
import { PerfStatusBadge } from "@/components/perf/status";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { PerfComparison } from "@/server/contracts/perf-analysis";
import { useNamespace } from "../../_components/namespace-context";
import { perfPaths } from "./paths";

const TONE: Record<Verdict, string> = { better: "text-success", worse: "text-destructive", same: "text-muted-foreground", neutral: "text-muted-foreground" };
const WORD: Record<Verdict, string> = { better: "better", worse: "worse", same: "about the same", neutral: "" };

type Row = { key: string; label: React.ReactNode; values: (number | null)[]; deltas: ({ absolute: number; percent: number | null } | null)[]; better: "lower" | "higher" | null; format: (v: number | null) => string };

function ValueCell({ row, i }: { row: Row; i: number }) {
  const value = row.format(row.values[i] ?? null);
  if (i === 0) return <TableCell className="text-right font-mono text-xs tabular-nums">{value}</TableCell>;
  const verdict = verdictOf(row.deltas[i] ?? null, row.better);
  // A yes/no value (thresholds held) has no amount of change: only its colour says it changed.
  const delta = row.key === "thresholdsOk" ? null : formatDelta(row.deltas[i] ?? null, (n) => row.format(n));
  const change = row.deltas[i]?.absolute ?? 0;
  const arrow = !delta || verdict === "same" || change === 0 ? "" : change > 0 ? "↑ " : "↓ ";
  return (
    <TableCell className="text-right font-mono text-xs tabular-nums" data-verdict={verdict}>
      <div className={row.key === "thresholdsOk" && verdict !== "same" ? TONE[verdict] : undefined}>{value}</div>
      {delta ? (
        <div className={cn("text-[11px]", TONE[verdict])}>
          {arrow}
          {delta}
          {WORD[verdict] ? <span className="sr-only">, {WORD[verdict]}</span> : null}
        </div>
      ) : null}
    </TableCell>
  );
}

function CompareTable({ label, results, rows }: { label: string; results: PerfComparison["results"]; rows: Row[] }) {
  return (
    <div className="overflow-x-auto rounded-md border">
      <Table aria-label={label}>
        <TableHeader>
          <TableRow>
            <TableHead>{label === "Headline" ? "Measure" : "Metric"}</TableHead>
            {results.map((r, i) => (
              <TableHead key={r.id} className="text-right">
                {i === 0 ? "Baseline" : `Run ${i + 1}`}
              </TableHead>
            ))}
          </TableRow>
        </TableHeader>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.key}>
              <TableCell className="text-sm">{row.label}</TableCell>
              {results.map((r, i) => (
                <ValueCell key={r.id} row={row} i={i} />
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

export function ComparePage() {
  const trpc = useTRPC();
  const params = useSearchParams();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const ids = useMemo(() => [...params.getAll("ids").flatMap((v) => v.split(",")), ...params.getAll("id")].map((s) => s.trim()).filter(Boolean), [params]);
  const [query, setQuery] = useState("");
  const compare = useQuery(trpc.perf.results.compare.queryOptions({ namespace, ids }, { enabled: !!namespace && ids.length >= 2 }));

  const back = (
    <Link href={hrefWithNs(perfPaths.home)} className="inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft className="size-4" aria-hidden /> Load tests
    </Link>
  );
  const header = <PageHeader title="Compare runs" description="The first run is the baseline; every other column shows its change against it, green when better and red when worse." />;
  let body: React.ReactNode;
  if (ids.length < 2)
    body = (
      <EmptyState icon={GitCompareArrows} title="Pick two runs to compare">
        On the load tests page (or a load test&apos;s Runs tab), tick two to five runs and press Compare. A result page also offers &quot;Compare with the run before&quot;.
      </EmptyState>
    );
  else if (compare.error) body = <ApiErrorAlert error={compare.error} title="The runs could not be compared" />;
  else if (!compare.data) body = <SkeletonRows rows={8} label="Loading the comparison" />;
  else {
    const c = compare.data;
    const summaryRows: Row[] = c.summary.map((s) => ({ key: s.field, label: fieldLabel(s.field), values: s.values, deltas: s.deltas, better: s.better, format: (v) => formatField(s.field, v) }));
    const needle = query.trim().toLowerCase();
    const metricRows: Row[] = c.metrics
      .filter((m) => !needle || m.metric.toLowerCase().includes(needle))
      .map((m) => ({
        key: `${m.metric} ${m.stat}`,
        label: (
          <span className="font-mono text-xs">
            {m.metric} <span className="text-muted-foreground">{m.stat}</span>
          </span>
        ),
        values: m.values,
        deltas: m.deltas,
        better: m.better,
        format: (v) => formatMetricStat(m.metric, m.stat, v),
      }));
    body = (
      <div className="flex flex-col gap-6">
        <ol className="grid gap-3" style={{ gridTemplateColumns: `repeat(${Math.min(c.results.length, 5)}, minmax(0, 1fr))` }} aria-label="Runs compared">
          {c.results.map((r, i) => (
            <li key={r.id} className="flex min-w-0 flex-col gap-1 rounded-lg border bg-card p-3">
              <span className="text-xs text-muted-foreground">{i === 0 ? "Baseline" : `Run ${i + 1}`}</span>
              <Link href={hrefWithNs(perfPaths.result(r.id))} className="truncate font-medium hover:underline">
                {r.name}
              </Link>
              <span className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                <PerfStatusBadge status={r.status} /> {formatDateTime(r.startedAt ?? r.createdAt)}
              </span>
              {r.thresholds.length ? (
                <ul className="mt-1 flex flex-col gap-0.5 font-mono text-[11px]" aria-label={`Thresholds of ${i === 0 ? "the baseline" : `run ${i + 1}`}`}>
                  {r.thresholds.map((t) => (
                    <li key={`${t.key} ${t.source}`} className={t.ok ? "text-success" : "text-destructive"}>
                      {t.ok ? "✓" : "✗"} {t.key}: {t.source}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ol>
        <section aria-labelledby="cmp-headline" className="flex flex-col gap-3">
          <h2 id="cmp-headline" className="text-lg font-semibold">
            Headline
          </h2>
          <CompareTable label="Headline" results={c.results} rows={summaryRows} />
        </section>
        <details className="group flex flex-col gap-3 rounded-lg border p-4" open={!!needle}>
          <summary className="cursor-pointer text-lg font-semibold outline-none focus-visible:ring-2 focus-visible:ring-ring">
            All metrics <span className="text-sm font-normal text-muted-foreground">({c.metrics.length} values: every k6 metric and stat either run has)</span>
          </summary>
          <div className="mt-3 flex flex-col gap-3">
            <div className="relative max-w-xs">
              <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
              <Input type="search" aria-label="Filter metrics" placeholder="Filter metrics" className="h-8 pl-9" value={query} onChange={(e) => setQuery(e.target.value)} />
            </div>
            <CompareTable label="Metrics" results={c.results} rows={metricRows} />
          </div>
        </details>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      {back}
      {header}
      {body}
    </div>
  );
}
