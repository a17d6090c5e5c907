"use client";
// k6's end-of-test metrics as a table: trends with avg, min, med, max, p(90),
// p(95) (and any other stat the run kept), counters with count and rate,
// rates as a percentage with passes and fails, gauges with value, min, max.
// A metric a threshold watches is marked ✓ or ✗ as in k6's summary, and
// submetrics (`http_req_duration{expected_response:true}`) sit under their
// parent. A filter box narrows long lists.
import { Search } from "lucide-react";
import { useMemo, useState } from "react";
import { Input } from "@/components/ui/input";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { PerfResultDetail } from "@/server/contracts/perf";
import { cn } from "@/components/lib/cn";
import { formatMetricValue } from "./format";

type Metric = PerfResultDetail["metrics"][string];
const TREND_STATS = ["avg", "min", "med", "max", "p(90)", "p(95)"];

/** k6's order: by name, each submetric right after its parent. */
export function orderedMetrics(metrics: Record<string, Metric>): [string, Metric][] {
  return Object.entries(metrics).sort(([a], [b]) => {
    const [pa, pb] = [a.split("{")[0]!, b.split("{")[0]!];
    return pa === pb ? (a.includes("{") ? 1 : 0) - (b.includes("{") ? 1 : 0) || a.localeCompare(b) : pa.localeCompare(pb);
  });
}

function statColumns(metrics: [string, Metric][]): string[] {
  const extra = new Set<string>();
  for (const [, m] of metrics) if (m.type === "trend") for (const k of Object.keys(m.values)) if (!TREND_STATS.includes(k)) extra.add(k);
  return [...TREND_STATS, ...[...extra].sort()];
}

function thresholdMark(m: Metric) {
  const marks = Object.values(m.thresholds ?? {});
  if (!marks.length) return null;
  const ok = marks.every((t) => t.ok);
  return (
    <span className={ok ? "text-success" : "text-destructive"} title={ok ? "every threshold on this metric held" : "a threshold on this metric failed"} aria-label={ok ? "thresholds held" : "threshold failed"}>
      {ok ? "✓" : "✗"}
    </span>
  );
}

function nonTrendCells(m: Metric): string {
  const v = m.values;
  const f = (stat: string) => (v[stat] === undefined ? null : formatMetricValue(m, stat, v[stat]!));
  if (m.type === "counter") return [f("count"), f("rate")].filter(Boolean).join("  ");
  if (m.type === "rate") return `${f("rate") ?? "—"}  ✓ ${v.passes ?? 0}  ✗ ${v.fails ?? 0}`;
  return [f("value"), v.min !== undefined ? `min=${f("min")}` : null, v.max !== undefined ? `max=${f("max")}` : null].filter(Boolean).join("  ");
}

export function MetricsTable({ metrics }: { metrics: Record<string, Metric> }) {
  const [query, setQuery] = useState("");
  const all = useMemo(() => orderedMetrics(metrics), [metrics]);
  const shown = query.trim() ? all.filter(([name]) => name.toLowerCase().includes(query.trim().toLowerCase())) : all;
  const stats = statColumns(all);
  if (!all.length) return <p className="text-sm text-muted-foreground">No metrics yet: they appear as soon as the first request has been measured.</p>;
  return (
    <div className="flex flex-col gap-2">
      <div className="relative max-w-xs">
        <Search className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden />
        <Input type="search" aria-label="Filter metrics" placeholder="Filter metrics" className="h-8 pl-9" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      <div className="overflow-x-auto rounded-md border">
        <Table aria-label="Metrics" className="font-mono text-xs">
          <TableHeader>
            <TableRow>
              <TableHead>Metric</TableHead>
              {stats.map((s) => (
                <TableHead key={s} className="text-right">
                  {s}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {shown.map(([name, m]) => (
              <TableRow key={name}>
                <TableCell className={cn("whitespace-nowrap", name.includes("{") && "pl-8 text-muted-foreground")}>
                  <span className="inline-flex items-center gap-1.5">
                    {thresholdMark(m)}
                    {name}
                  </span>
                </TableCell>
                {m.type === "trend" ? (
                  stats.map((s) => (
                    <TableCell key={s} className="text-right whitespace-nowrap tabular-nums">
                      {m.values[s] === undefined ? "" : formatMetricValue(m, s, m.values[s]!)}
                    </TableCell>
                  ))
                ) : (
                  <TableCell colSpan={stats.length} className="whitespace-pre tabular-nums">
                    {nonTrendCells(m)}
                  </TableCell>
                )}
              </TableRow>
            ))}
            {!shown.length ? (
              <TableRow>
                <TableCell colSpan={stats.length + 1} className="text-muted-foreground">
                  No metric matches “{query}”.
                </TableCell>
              </TableRow>
            ) : null}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
