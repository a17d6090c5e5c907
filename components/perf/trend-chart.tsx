"use client";
// A load test's numbers over its runs, oldest left: one measure at a time
// (p95 latency, requests/s, failed requests, average latency), each point
// coloured by the run's status and opening that run's result on click.
import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, type TooltipContentProps, type TooltipValueType, XAxis, YAxis } from "recharts";
import { formatDateTime } from "@/components/lib/format";
import type { PerfTrendPoint } from "@/server/contracts/perf-analysis";
import { formatMs, formatPercent, formatRate } from "./format";

export const TREND_MEASURES = {
  p95Ms: { label: "p(95) latency", format: (n: number) => formatMs(n), unit: "ms" },
  rps: { label: "Requests/s", format: (n: number) => formatRate(n), unit: "/s" },
  failedRate: { label: "Failed requests", format: (n: number) => formatPercent(n), unit: "" },
  avgMs: { label: "Average latency", format: (n: number) => formatMs(n), unit: "ms" },
} as const;
export type TrendMeasure = keyof typeof TREND_MEASURES;

const STATUS_COLOUR: Record<string, string> = {
  passed: "var(--color-success)",
  failed: "var(--color-destructive)",
  aborted: "var(--color-destructive)",
  error: "var(--color-destructive)",
  stopped: "var(--color-warning)",
};
const label = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });

interface Row extends PerfTrendPoint {
  index: number;
  value: number | null;
}

function PointTooltip({ active, payload, measure }: TooltipContentProps<TooltipValueType, string | number> & { measure: TrendMeasure }) {
  const p = active ? (payload?.[0]?.payload as Row | undefined) : undefined;
  if (!p) return null;
  return (
    <div className="rounded-lg border bg-popover px-3 py-2 text-xs text-popover-foreground shadow-md">
      <p className="font-medium">{p.name}</p>
      <p>
        {TREND_MEASURES[measure].label}: {p.value === null ? "—" : TREND_MEASURES[measure].format(p.value)} · <span style={{ color: STATUS_COLOUR[p.status] }}>{p.status}</span>
      </p>
      <p className="text-muted-foreground">{formatDateTime(p.createdAt)} · click to open</p>
    </div>
  );
}

export function TrendChart({ points, measure, onOpen }: { points: readonly PerfTrendPoint[]; measure: TrendMeasure; onOpen: (id: string) => void }) {
  const rows: Row[] = points.map((p, index) => ({ ...p, index, value: p[measure] ?? null }));
  const m = TREND_MEASURES[measure];
  const known = rows.filter((r) => r.value !== null);
  const summary = `${m.label} over the last ${rows.length} runs${known.length ? `: from ${m.format(known[0]!.value!)} to ${m.format(known.at(-1)!.value!)}` : ""}.`;
  return (
    <div className="h-72 w-full" role="img" aria-label={summary} data-testid="trend-chart">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" vertical={false} />
          <XAxis dataKey="index" type="number" domain={[0, Math.max(0, rows.length - 1)]} allowDecimals={false} tickFormatter={(i: number) => (rows[i] ? label.format(new Date(rows[i]!.createdAt)) : "")} tick={{ fontSize: 11, fill: "var(--color-muted-foreground)" }} tickLine={false} axisLine={false} minTickGap={32} />
          <YAxis tickFormatter={(n: number) => m.format(n)} tick={{ fontSize: 11, fill: "var(--color-muted-foreground)" }} tickLine={false} axisLine={false} width={64} />
          <Tooltip content={(props) => <PointTooltip {...props} measure={measure} />} />
          <Line
            type="monotone"
            dataKey="value"
            name={m.label}
            stroke="var(--color-primary)"
            strokeWidth={2}
            connectNulls
            isAnimationActive={false}
            dot={(props: { cx?: number; cy?: number; payload?: Row; index?: number }) => {
              const { cx, cy, payload } = props;
              if (cx === undefined || cy === undefined || !payload || payload.value === null) return <g key={`dot-${props.index}`} />;
              return <circle key={payload.id} cx={cx} cy={cy} r={5} fill={STATUS_COLOUR[payload.status] ?? "var(--color-muted-foreground)"} stroke="var(--color-background)" strokeWidth={1.5} className="cursor-pointer" onClick={() => onOpen(payload.id)} />;
            }}
            activeDot={(props: { cx?: number; cy?: number; payload?: Row }) => (
              <circle cx={props.cx} cy={props.cy} r={7} fill={STATUS_COLOUR[props.payload?.status ?? ""] ?? "var(--color-primary)"} className="cursor-pointer" onClick={() => props.payload && onOpen(props.payload.id)} />
            )}
          />
        </LineChart>
      </ResponsiveContainer>
    </div>
  );
}
