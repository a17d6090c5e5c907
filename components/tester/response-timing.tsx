// The response's timing as Postman draws it: each phase (DNS lookup, TCP
// connect, TLS handshake, waiting for the first byte, download) as a bar on
// one time axis, starting where the previous one ended, with its duration.
import type { ExecutedResponse } from "@/server/contracts/tester-execution";
import { cn } from "@/components/lib/cn";
import { formatMs } from "./format";

const PHASES = [
  { key: "dnsMs", label: "DNS lookup", color: "bg-chart-1" },
  { key: "connectMs", label: "TCP connect", color: "bg-chart-2" },
  { key: "tlsMs", label: "TLS handshake", color: "bg-chart-3" },
  { key: "firstByteMs", label: "Waiting (first byte)", color: "bg-chart-4" },
  { key: "downloadMs", label: "Download", color: "bg-chart-5" },
] as const;

export function ResponseTiming({ response }: { response: ExecutedResponse }) {
  const t = response.timings;
  const measured = PHASES.reduce((sum, p) => sum + t[p.key], 0);
  const scale = Math.max(t.totalMs, measured, 0.001);
  const reused = t.dnsMs === 0 && t.connectMs === 0 && t.tlsMs === 0;
  // Where each phase starts on the axis: the sum of the ones before it.
  const starts = PHASES.map((_, i) => PHASES.slice(0, i).reduce((sum, p) => sum + t[p.key], 0));
  return (
    <div className="flex flex-col gap-4">
      <div className="flex h-3 w-full overflow-hidden rounded-full bg-muted" aria-hidden>
        {PHASES.map((p) => (t[p.key] > 0 ? <div key={p.key} className={p.color} style={{ width: `${(t[p.key] / scale) * 100}%` }} /> : null))}
      </div>
      <table className="w-full text-sm" aria-label="Timing phases">
        <thead className="sr-only">
          <tr>
            <th scope="col">Phase</th>
            <th scope="col">Waterfall</th>
            <th scope="col">Duration</th>
          </tr>
        </thead>
        <tbody>
          {PHASES.map((p, i) => {
            const ms = t[p.key];
            const left = (starts[i] / scale) * 100;
            return (
              <tr key={p.key} className={cn(ms === 0 && "text-muted-foreground")}>
                <th scope="row" className="w-44 py-1 pr-3 text-left font-normal whitespace-nowrap">
                  <span className={cn("mr-2 inline-block size-2 rounded-full", p.color)} aria-hidden />
                  {p.label}
                </th>
                <td className="py-1">
                  <div className="relative h-2.5 rounded-sm bg-muted/50" aria-hidden>
                    <div className={cn("absolute inset-y-0 rounded-sm", p.color)} style={{ left: `${left}%`, width: ms > 0 ? `max(2px, ${(ms / scale) * 100}%)` : 0 }} />
                  </div>
                </td>
                <td className="w-24 py-1 pl-3 text-right font-mono text-xs tabular-nums">{formatMs(ms)}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr className="border-t font-medium">
            <th scope="row" className="py-2 pr-3 text-left">
              Total
            </th>
            <td />
            <td className="py-2 pl-3 text-right font-mono text-xs tabular-nums">{formatMs(t.totalMs)}</td>
          </tr>
        </tfoot>
      </table>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-xs text-muted-foreground">
        {reused ? (
          <>
            <dt>Connection</dt>
            <dd>Reused (no DNS lookup, connect or TLS handshake)</dd>
          </>
        ) : null}
        <dt>HTTP version</dt>
        <dd className="font-mono">{response.httpVersion}</dd>
        {response.remoteAddress ? (
          <>
            <dt>Remote address</dt>
            <dd className="font-mono">{response.remoteAddress}</dd>
          </>
        ) : null}
        {response.redirects.length ? (
          <>
            <dt>Redirects</dt>
            <dd>
              <ol className="flex flex-col gap-0.5">
                {response.redirects.map((r, i) => (
                  <li key={i} className="font-mono break-all">
                    {r.status} → {r.url}
                  </li>
                ))}
              </ol>
            </dd>
          </>
        ) : null}
      </dl>
    </div>
  );
}
