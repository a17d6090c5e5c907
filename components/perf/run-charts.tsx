"use client";
// The four charts of a load run over time, per second as k6's web dashboard
// draws them: requests/s, latency (p95 and average), errors (failed requests
// and failed checks) and VUs. Used live while the run goes (the series grows
// each second) and on the finished result. Each chart names its latest value
// in its heading and its whole content in an aria-label.
import { Area, AreaChart, CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { PerfSeriesPoint } from "@/server/contracts/perf";
import { cn } from "@/components/lib/cn";
import { formatCount, formatMs, formatRate } from "./format";

const AXIS = { fontSize: 11, fill: "var(--color-muted-foreground)" };
const TOOLTIP = { background: "var(--color-popover)", border: "1px solid var(--color-border)", borderRadius: 8, color: "var(--color-popover-foreground)", fontSize: 12 };
const MARGIN = { top: 8, right: 8, bottom: 0, left: -12 };

function ChartCard({ title, value, summary, children, className }: { title: string; value: string; summary: string; children: React.ReactElement; className?: string }) {
  return (
    <figure className={cn("flex min-w-0 flex-col gap-2 rounded-lg border bg-card p-3", className)} aria-label={title}>
      <figcaption className="flex items-baseline justify-between gap-2">
        <span className="text-sm font-medium">{title}</span>
        <span className="font-mono text-sm tabular-nums text-muted-foreground">{value}</span>
      </figcaption>
      <div className="h-40 w-full" role="img" aria-label={summary}>
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </figure>
  );
}

const seconds = (t: number) => `${Math.round(t)}s`;

/** `untilSeconds`: the run's planned length, so a live chart fills from left to right instead of stretching. */
export function RunCharts({ series, untilSeconds, className }: { series: readonly PerfSeriesPoint[]; untilSeconds?: number | null; className?: string }) {
  const data = series.map((p) => ({ ...p, errors: p.failed, checks: p.checksFailed }));
  const last = series.at(-1);
  const peak = (f: (p: PerfSeriesPoint) => number) => series.reduce((m, p) => Math.max(m, f(p)), 0);
  const totalFailed = series.reduce((n, p) => n + p.failed, 0);
  const end = Math.max(1, Math.ceil(Math.max(untilSeconds ?? 0, last?.t ?? 0)));
  const x = <XAxis dataKey="t" type="number" domain={[0, end]} allowDecimals={false} tickCount={Math.min(end + 1, 7)} tickFormatter={seconds} tick={AXIS} tickLine={false} axisLine={false} minTickGap={24} />;
  const grid = <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" vertical={false} />;
  const tooltip = <Tooltip contentStyle={TOOLTIP} labelFormatter={(t) => `at ${seconds(Number(t))}`} />;
  return (
    <div className={cn("grid gap-3 md:grid-cols-2", className)} data-testid="run-charts">
      <ChartCard title="Requests/s" value={formatRate(last?.rps)} summary={`Requests per second over ${series.length} seconds; peak ${formatRate(peak((p) => p.rps))}, latest ${formatRate(last?.rps)}.`}>
        <AreaChart data={data} margin={MARGIN}>
          {grid}
          {x}
          <YAxis allowDecimals={false} tick={AXIS} tickLine={false} axisLine={false} />
          {tooltip}
          <Area type="monotone" dataKey="rps" name="Requests/s" stroke="var(--color-primary)" fill="var(--color-primary)" fillOpacity={0.15} strokeWidth={2} isAnimationActive={false} />
        </AreaChart>
      </ChartCard>
      <ChartCard title="Latency" value={`p95 ${formatMs(last?.p95Ms)}`} summary={`Response time per second: p(95) peaked at ${formatMs(peak((p) => p.p95Ms))}, latest ${formatMs(last?.p95Ms)}.`}>
        <LineChart data={data} margin={MARGIN}>
          {grid}
          {x}
          <YAxis tick={AXIS} tickLine={false} axisLine={false} unit="ms" width={56} />
          <Tooltip contentStyle={TOOLTIP} labelFormatter={(t) => `at ${seconds(Number(t))}`} formatter={(v) => formatMs(Number(v))} />
          <Line type="monotone" dataKey="p95Ms" name="p(95)" stroke="var(--color-warning)" strokeWidth={2} dot={false} isAnimationActive={false} />
          <Line type="monotone" dataKey="avgMs" name="avg" stroke="var(--color-primary)" strokeWidth={1.5} dot={false} isAnimationActive={false} />
        </LineChart>
      </ChartCard>
      <ChartCard title="Errors" value={`${formatCount(totalFailed)} failed`} summary={`Failed requests per second; ${formatCount(totalFailed)} in all, ${formatCount(series.reduce((n, p) => n + p.checksFailed, 0))} failed checks.`}>
        <AreaChart data={data} margin={MARGIN}>
          {grid}
          {x}
          <YAxis allowDecimals={false} tick={AXIS} tickLine={false} axisLine={false} />
          {tooltip}
          <Area type="monotone" dataKey="errors" name="Failed requests" stroke="var(--color-destructive)" fill="var(--color-destructive)" fillOpacity={0.15} strokeWidth={2} isAnimationActive={false} />
          <Area type="monotone" dataKey="checks" name="Failed checks" stroke="var(--color-warning)" fill="var(--color-warning)" fillOpacity={0.1} strokeWidth={1.5} isAnimationActive={false} />
        </AreaChart>
      </ChartCard>
      <ChartCard title="VUs" value={`${formatCount(last?.vus ?? 0)} active`} summary={`Active virtual users over time; at most ${formatCount(peak((p) => p.vus))}.`}>
        <AreaChart data={data} margin={MARGIN}>
          {grid}
          {x}
          <YAxis allowDecimals={false} tick={AXIS} tickLine={false} axisLine={false} />
          {tooltip}
          <Area type="stepAfter" dataKey="vus" name="VUs" stroke="var(--color-success)" fill="var(--color-success)" fillOpacity={0.15} strokeWidth={2} isAnimationActive={false} />
        </AreaChart>
      </ChartCard>
    </div>
  );
}
