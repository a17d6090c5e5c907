"use client";
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

const time = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });
const day = new Intl.DateTimeFormat(undefined, { weekday: "short", hour: "2-digit" });

/** Stub hits (and the errors among them) per bucket. */
export function HitsChart({ data, longRange }: { data: { at: string; hits: number; errors: number }[]; longRange: boolean }) {
  const points = data.map((d) => ({ ...d, label: (longRange ? day : time).format(new Date(d.at)) }));
  return (
    <div className="h-64 w-full" role="img" aria-label={`Hits over time: ${data.reduce((n, d) => n + d.hits, 0)} in the period`}>
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={points} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--color-border)" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 11, fill: "var(--color-muted-foreground)" }} tickLine={false} axisLine={false} minTickGap={24} />
          <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: "var(--color-muted-foreground)" }} tickLine={false} axisLine={false} />
          <Tooltip contentStyle={{ background: "var(--color-popover)", border: "1px solid var(--color-border)", borderRadius: 8, color: "var(--color-popover-foreground)", fontSize: 12 }} />
          <Area type="monotone" dataKey="hits" name="Hits" stroke="var(--color-primary)" fill="var(--color-primary)" fillOpacity={0.15} strokeWidth={2} isAnimationActive={false} />
          <Area type="monotone" dataKey="errors" name="Errors (4xx/5xx)" stroke="var(--color-destructive)" fill="var(--color-destructive)" fillOpacity={0.1} strokeWidth={1.5} isAnimationActive={false} />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
