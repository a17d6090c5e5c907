// A load run's status as a badge: the colour says good, bad or in progress,
// the text is k6's own word for it.
import { Ban, CheckCircle2, CircleDashed, Loader2, OctagonX, Square, TriangleAlert, XCircle } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import type { PerfStatus } from "@/server/contracts/perf";

const LOOK: Record<PerfStatus, { variant: "success" | "destructive" | "warning" | "secondary" | "default"; Icon: typeof CheckCircle2; title: string }> = {
  queued: { variant: "secondary", Icon: CircleDashed, title: "waiting to start" },
  running: { variant: "default", Icon: Loader2, title: "running now" },
  passed: { variant: "success", Icon: CheckCircle2, title: "finished; every threshold held" },
  failed: { variant: "destructive", Icon: XCircle, title: "finished; a threshold failed or the script threw" },
  aborted: { variant: "destructive", Icon: OctagonX, title: "ended early: a threshold with abortOnFail failed" },
  stopped: { variant: "warning", Icon: Square, title: "stopped by a user; the partial results are kept" },
  error: { variant: "destructive", Icon: TriangleAlert, title: "the run could not start or its runner failed" },
};

export function isLive(status: PerfStatus): boolean {
  return status === "queued" || status === "running";
}

export function PerfStatusBadge({ status, className }: { status: PerfStatus; className?: string }) {
  const look = LOOK[status] ?? { variant: "secondary" as const, Icon: Ban, title: status };
  const { Icon } = look;
  return (
    <Badge variant={look.variant} className={className} title={look.title}>
      <Icon aria-hidden className={status === "running" ? "animate-spin" : undefined} />
      {status}
    </Badge>
  );
}
