// A run's thresholds: each metric expression with ✓ or ✗ and the value it
// was judged on, as k6 lists them at the top of its summary.
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { PerfResultDetail } from "@/server/contracts/perf";
import { formatMetricStat } from "./compare";

/** The value a threshold was judged on, in its metric's unit: "p(95)<500" on http_req_duration is milliseconds, "rate<0.01" a share. */
export function formatThresholdActual(key: string, source: string, actual: number | null): string {
  if (actual === null) return "—";
  const stat = /^\s*(avg|min|max|med|count|rate|value|p\(\d+(?:\.\d+)?\))/.exec(source)?.[1] ?? "value";
  return formatMetricStat(key, stat, actual);
}

export function ThresholdsTable({ thresholds, live = false }: { thresholds: PerfResultDetail["thresholds"]; live?: boolean }) {
  if (!thresholds.length && live) return <p className="text-sm text-muted-foreground">Thresholds are judged as the numbers come in; they show here with the first ones.</p>;
  if (!thresholds.length)
    return (
      <p className="text-sm text-muted-foreground">
        This run declared no thresholds. Add some in the load test (for example <code className="font-mono text-xs">http_req_duration: p(95)&lt;500</code>) so a run passes or fails on its numbers, like a CI gate.
      </p>
    );
  return (
    <div className="overflow-x-auto rounded-md border">
      <Table aria-label="Thresholds">
        <TableHeader>
          <TableRow>
            <TableHead className="w-10">
              <span className="sr-only">Result</span>
            </TableHead>
            <TableHead>Metric</TableHead>
            <TableHead>Threshold</TableHead>
            <TableHead className="text-right">Actual</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {thresholds.map((t) => (
            <TableRow key={`${t.key} ${t.source}`} data-ok={t.ok}>
              <TableCell className={t.ok ? "text-success" : "text-destructive"}>
                <span aria-label={t.ok ? "passed" : "failed"}>{t.ok ? "✓" : "✗"}</span>
              </TableCell>
              <TableCell className="font-mono text-xs">{t.key}</TableCell>
              <TableCell className="font-mono text-xs">{t.source}</TableCell>
              <TableCell className="text-right font-mono text-xs tabular-nums">{formatThresholdActual(t.key, t.source, t.actual)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
