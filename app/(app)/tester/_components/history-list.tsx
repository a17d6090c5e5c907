"use client";
// The caller's recent sends in this namespace, newest first; a click opens the
// request again in a new tab.
import { useQuery } from "@tanstack/react-query";
import { History } from "lucide-react";
import { useTRPC } from "@/app/_trpc/client";
import { formatRelative } from "@/components/lib/format";
import { MethodBadge } from "@/components/tester/method-badge";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { SkeletonRows } from "@/components/ui/skeleton";
import type { HistoryEntry } from "@/server/contracts/tester-history";

export function HistoryList({ namespace, onOpen }: { namespace: string | undefined; onOpen: (entry: HistoryEntry) => void }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.apiTester.requests.history.queryOptions({ namespace, limit: 100 }, { enabled: !!namespace }));
  if (history.error) return <ApiErrorAlert error={history.error} title="The history cannot be shown" />;
  if (!history.data) return <SkeletonRows rows={5} label="Loading the history" />;
  if (!history.data.history.length)
    return (
      <div className="flex flex-col items-center gap-2 py-8 text-center text-sm text-muted-foreground">
        <History className="size-5" aria-hidden />
        Requests you send appear here.
      </div>
    );
  return (
    <ul aria-label="History" className="flex min-h-0 flex-col gap-0.5 overflow-y-auto">
      {history.data.history.map((h) => (
        <li key={h.id}>
          <button type="button" onClick={() => onOpen(h)} className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
            <MethodBadge method={h.method} short />
            <span className="min-w-0 flex-1 truncate font-mono text-xs" title={h.url}>
              {h.url}
            </span>
            <span className={`text-xs ${h.status === null ? "text-destructive" : h.status >= 400 ? "text-warning" : "text-muted-foreground"}`}>{h.status ?? "failed"}</span>
          </button>
          <span className="sr-only">{formatRelative(h.createdAt)}</span>
        </li>
      ))}
    </ul>
  );
}
