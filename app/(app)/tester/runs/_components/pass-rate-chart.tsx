"use client";
// The pass rate of the recent finished runs as bars, oldest left, newest
// right, coloured by the run's status; the tooltip names the run, its status
// and its tests, and a click opens the run. Screen readers get the summary
// line and the run table below instead of the bars.
import { Bar, BarChart, type BarShapeProps, CartesianGrid, Rectangle, ResponsiveContainer, Tooltip, type TooltipContentProps, type TooltipValueType, XAxis, YAxis } from "recharts";
import { formatDateTime } from "@/components/lib/format";
import { passRate } from "@/components/tester/run-summary";
import type { RunStatus, TestRunSummary } from "@/server/contracts/tester-run";

const STATUS_COLOUR: Record<RunStatus, string> = {
  passed: "var(--color-success)",
  failed: "var(--color-destructive)",
  error: "var(--color-destructive)",
  cancelled: "var(--color-warning)",
  running: "var(--color-primary)",
  queued: "var(--color-muted-foreground)",
};
const STATUS_LABEL: Record<RunStatus, string> = { passed: "Passed", failed: "Failed", error: "Error", cancelled: "Cancelled", running: "Running", queued: "Queued" };

const DAY_MS = 24 * 3600_000;
const withDay = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
const timeOnly = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const withSeconds = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });

/** Axis labels as fine as the runs need: seconds for runs within an hour, the day for runs over several days. */
function labelFormat(times: number[]): Intl.DateTimeFormat {
  const span = times.length ? Math.max(...times) - Math.min(...times) : 0;
  return span < 3600_000 ? withSeconds : span < DAY_MS ? timeOnly : withDay;
}

interface Point {
  id: string;
  name: string;
  status: RunStatus;
  /** Percent, one decimal; null when the run judged nothing. */
  rate: number | null;
  passed: number;
  failed: number;
  at: string;
  label: string;
}

export function chartPoints(runs: readonly TestRunSummary[]): Point[] {
  // The list is newest first; the chart reads left to right in time.
  const ordered = [...runs].reverse();
  const format = labelFormat(ordered.map((r) => new Date(r.startedAt ?? r.createdAt).getTime()));
  return ordered.map((r) => {
    const rate = passRate(r);
    const at = r.startedAt ?? r.createdAt;
    return { id: r.id, name: r.name, status: r.status, rate: rate === null ? null : Math.round(rate * 1000) / 10, passed: r.counts.passedTests, failed: r.counts.failedTests, at, label: format.format(new Date(at)) };
  });
}

function RunTooltip({ active, payload }: TooltipContentProps<TooltipValueType, string | number>) {
  const p = active ? (payload?.[0]?.payload as Point | undefined) : undefined;
  if (!p) return null;
  return (
    <div className="rounded-lg border bg-popover px-3 py-2 text-xs text-popover-foreground shadow-md">
      <p className="font-medium">{p.name}</p>
      <p>
        <span style={{ color: STATUS_COLOUR[p.status] }}>{STATUS_LABEL[p.status]}</span> · pass rate {p.rate === null ? "—" : `${p.rate}%`}
      </p>
      <p className="text-muted-foreground">
        {p.passed} passed · {p.failed} failed · {formatDateTime(p.at)}
      </p>
    </div>
  );
}

export function PassRateChart({ runs, onOpen }: { runs: readonly TestRunSummary[]; onOpen: (id: string) => void }) {
  const points = chartPoints(runs);
  const judged = points.filter((p) => p.rate !== null);
  const average = judged.length ? Math.round(judged.reduce((n, p) => n + (p.rate ?? 0), 0) / judged.length) : null;
  const summary = `Pass rate of the last ${points.length} finished runs${average === null ? "" : `: ${average}% on average`}; the newest ${points.at(-1)?.rate ?? "—"}%.`;
  return (
    <figure className="flex flex-col gap-2">
      <div className="h-56 w-full" role="img" aria-label={summary}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} barCategoryGap="20%">
            <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" vertical={false} />
            <XAxis dataKey="label" tick={{ fontSize: 11, fill: "var(--color-muted-foreground)" }} tickLine={false} axisLine={false} minTickGap={24} />
            <YAxis domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} unit="%" tick={{ fontSize: 11, fill: "var(--color-muted-foreground)" }} tickLine={false} axisLine={false} />
            <Tooltip content={RunTooltip} cursor={{ fill: "var(--color-accent)", opacity: 0.6 }} />
            <Bar
              dataKey="rate"
              name="Pass rate"
              isAnimationActive={false}
              maxBarSize={32}
              className="cursor-pointer"
              onClick={(d: { payload?: Point }) => d.payload && onOpen(d.payload.id)}
              shape={(props: BarShapeProps) => <Rectangle {...props} radius={[3, 3, 0, 0]} fill={STATUS_COLOUR[(props.payload as Point).status]} />}
            />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-xs text-muted-foreground">
        {summary} Click a bar to open its run. Bars: <span style={{ color: STATUS_COLOUR.passed }}>passed</span>, <span style={{ color: STATUS_COLOUR.failed }}>failed or error</span>, <span style={{ color: STATUS_COLOUR.cancelled }}>cancelled</span>.
      </figcaption>
    </figure>
  );
}
