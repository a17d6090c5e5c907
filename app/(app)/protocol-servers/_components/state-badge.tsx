import { Badge } from "@/components/ui/badge";
import type { ListenerState } from "@/server/contracts/protocol-servers";

const LOOK: Record<ListenerState, { label: string; variant: "success" | "destructive" | "secondary" }> = {
  listening: { label: "listening", variant: "success" },
  error: { label: "error", variant: "destructive" },
  stopped: { label: "stopped", variant: "secondary" },
};

/** The runner's listener state; an error's reason is a line under the badge, where it can be read and copied. */
export function StateBadge({ state, reason }: { state: ListenerState; reason: string | null }) {
  const { label, variant } = LOOK[state];
  return (
    <div className="flex flex-col items-start gap-1">
      <Badge variant={variant}>{label}</Badge>
      {state === "error" && reason ? <span className="max-w-64 text-xs text-destructive">{reason}</span> : null}
    </div>
  );
}
