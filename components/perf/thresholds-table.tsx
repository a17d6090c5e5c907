// A run's thresholds: each metric expression with ✓ or ✗ and the value it
// was judged on, as k6 lists them at the top of its summary.
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { PerfResultDetail } from "@/server/contracts/perf";

export function ThresholdsTable({ thresholds }: { thresholds: PerfResultDetail["thresholds"] }) {
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
              <TableCell className="text-right font-mono text-xs tabular-nums">{t.actual === null ? "—" : Math.round(t.actual * 1000) / 1000}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}
