"use client";
// A small picture of a ramp of stages: VUs over time, one straight segment
// per stage, as k6 ramps them. Drawn while the stages are edited, so a typo
// in a duration or target shows as a shape that looks wrong.
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatMs } from "./format";

export function RampChart({ points, className }: { points: { t: number; vus: number }[]; className?: string }) {
  const total = points.at(-1)?.t ?? 0;
  const peak = points.reduce((m, p) => Math.max(m, p.vus), 0);
  return (
    <div className={className ?? "h-32 w-full"} role="img" aria-label={`Ramp: up to ${peak} VUs over ${formatMs(total * 1000)}`} data-testid="ramp-chart">
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={points} margin={{ top: 6, right: 8, bottom: 0, left: -20 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" vertical={false} />
          <XAxis dataKey="t" type="number" domain={[0, "dataMax"]} tickFormatter={(t: number) => formatMs(t * 1000)} tick={{ fontSize: 10, fill: "var(--color-muted-foreground)" }} tickLine={false} axisLine={false} minTickGap={20} />
          <YAxis allowDecimals={false} tick={{ fontSize: 10, fill: "var(--color-muted-foreground)" }} tickLine={false} axisLine={false} />
          <Tooltip
            contentStyle={{ background: "var(--color-popover)", border: "1px solid var(--color-border)", borderRadius: 8, color: "var(--color-popover-foreground)", fontSize: 12 }}
            labelFormatter={(t) => `at ${formatMs(Number(t) * 1000)}`}
          />
          <Area type="linear" dataKey="vus" name="VUs" stroke="var(--color-primary)" fill="var(--color-primary)" fillOpacity={0.15} strokeWidth={2} isAnimationActive={false} />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
