"use client";
// Runs going on right now (any mode, anyone's) at the top of the run history,
// each with how far it got, a link to follow it and a Cancel button. The page
// polls the list; a run leaves it when it ends.
import { Square } from "lucide-react";
import Link from "next/link";
import { formatRelative } from "@/components/lib/format";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { RunStatusBadge } from "@/components/tester/run-summary";
import type { TestRunSummary } from "@/server/contracts/tester-run";
import { runPath } from "../../_components/run-links";
import { MODE_LABEL } from "./run-modes";

export interface ActiveRunsProps {
  runs: readonly TestRunSummary[];
  hrefWithNs: (href: string) => string;
  onCancel: (id: string) => void;
  cancellingId: string | null;
}

export function ActiveRuns({ runs, hrefWithNs, onCancel, cancellingId }: ActiveRunsProps) {
  return (
    <Card aria-labelledby="active-runs-title">
      <CardHeader>
        <CardTitle id="active-runs-title">Running now</CardTitle>
        <CardDescription>Updated every 2 seconds. A cancelled run stops within a second and keeps the results it has.</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="flex flex-col divide-y" aria-label="Active runs">
          {runs.map((r) => (
            <li key={r.id} className="flex flex-wrap items-center gap-3 py-2.5">
              <RunStatusBadge status={r.status} />
              <div className="flex min-w-0 flex-1 flex-col">
                <Link href={hrefWithNs(runPath(r.id))} className="truncate font-medium hover:underline">
                  {r.name}
                </Link>
                <span className="text-xs text-muted-foreground">
                  {MODE_LABEL[r.mode]} · {r.counts.requests === 1 ? "1 request done" : `${r.counts.requests} requests done`}
                  {r.counts.failedTests ? ` · ${r.counts.failedTests} tests failed` : ""} · started {formatRelative(r.startedAt ?? r.createdAt)}
                  {r.createdBy ? ` by ${r.createdBy}` : ""}
                </span>
              </div>
              <Button variant="outline" size="sm" aria-label={`Cancel ${r.name}`} pending={cancellingId === r.id} onClick={() => onCancel(r.id)}>
                <Square aria-hidden /> Cancel
              </Button>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
