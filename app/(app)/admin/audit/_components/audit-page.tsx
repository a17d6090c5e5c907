"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Download, ScrollText } from "lucide-react";
import { useState } from "react";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { formatDateTime } from "@/components/lib/format";
import { useDebounced } from "@/components/lib/use-debounced";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { SkeletonRows } from "@/components/ui/skeleton";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { AuditFormat } from "@/server/contracts/audit";

const PAGE_SIZE = 50;
const FORMAT_LABEL: Record<z.infer<typeof AuditFormat>, string> = { csv: "CSV", json: "JSON", syslog: "Syslog", cef: "CEF" };

function detailsText(details: unknown): string {
  if (details === null || details === undefined) return "";
  return typeof details === "string" ? details : JSON.stringify(details);
}

export function AuditPage() {
  const trpc = useTRPC();
  const [action, setAction] = useState("");
  const [actor, setActor] = useState("");
  const [offset, setOffset] = useState(0);
  const filters = { action: useDebounced(action.trim()) || undefined, actor: useDebounced(actor.trim()) || undefined };
  const list = useQuery({ ...trpc.audit.list.queryOptions({ ...filters, offset, limit: PAGE_SIZE }), placeholderData: keepPreviousData });
  const events = list.data?.events ?? [];
  const total = list.data?.total ?? 0;
  const exportQuery = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => Boolean(e[1])));

  return (
    <>
      <PageHeader
        title="Audit log"
        description="Every sign-in, failed sign-in, credential change and administrative action, newest first. The log is append-only."
        actions={
          <div className="flex flex-wrap gap-2" role="group" aria-label="Export">
            {AuditFormat.options.map((f) => {
              const q = new URLSearchParams(exportQuery);
              q.set("format", f);
              return (
                <Button key={f} variant="outline" size="sm" asChild>
                  <a href={`/api/v1/admin/audit/export?${q}`} download aria-label={`Export as ${FORMAT_LABEL[f]}`}>
                    <Download aria-hidden /> {FORMAT_LABEL[f]}
                  </a>
                </Button>
              );
            })}
          </div>
        }
      />
      <Card>
        <CardContent className="flex flex-col gap-4 pt-6">
          <div className="grid gap-3 sm:grid-cols-[repeat(2,minmax(0,16rem))]">
            <div className="flex flex-col gap-2">
              <Label htmlFor="audit-action">Action starts with</Label>
              <Input
                id="audit-action"
                placeholder="e.g. auth.login"
                value={action}
                onChange={(e) => {
                  setAction(e.target.value);
                  setOffset(0);
                }}
              />
            </div>
            <div className="flex flex-col gap-2">
              <Label htmlFor="audit-actor">Actor</Label>
              <Input
                id="audit-actor"
                placeholder="exact username"
                value={actor}
                onChange={(e) => {
                  setActor(e.target.value);
                  setOffset(0);
                }}
              />
            </div>
          </div>
          {list.isLoading ? (
            <SkeletonRows rows={6} label="Loading audit events" />
          ) : list.error ? (
            <ApiErrorAlert error={list.error} />
          ) : events.length === 0 ? (
            <EmptyState icon={ScrollText} title={filters.action || filters.actor ? "No events match" : "No events yet"}>
              {filters.action || filters.actor
                ? "Actions are matched from the start (auth. finds auth.login and auth.logout); actors by exact username."
                : "Sign-ins, token changes and admin actions appear here as they happen."}
            </EmptyState>
          ) : (
            <>
              <Table aria-label="Audit events">
                <TableHeader>
                  <TableRow>
                    <TableHead>Time</TableHead>
                    <TableHead>Actor</TableHead>
                    <TableHead>Action</TableHead>
                    <TableHead>Outcome</TableHead>
                    <TableHead>Namespace</TableHead>
                    <TableHead>IP</TableHead>
                    <TableHead>Details</TableHead>
                  </TableRow>
                </TableHeader>
                <TableBody>
                  {events.map((e) => {
                    const details = detailsText(e.details);
                    return (
                      <TableRow key={e.id}>
                        <TableCell className="whitespace-nowrap">{formatDateTime(e.at)}</TableCell>
                        <TableCell className="font-medium whitespace-nowrap">{e.actorName}</TableCell>
                        <TableCell>
                          <code className="font-mono text-xs">{e.action}</code>
                        </TableCell>
                        <TableCell>{e.outcome === "success" ? <Badge variant="success">Success</Badge> : <Badge variant="destructive">Failure</Badge>}</TableCell>
                        <TableCell>{e.namespace ?? <span className="text-muted-foreground">—</span>}</TableCell>
                        <TableCell className="font-mono text-xs">{e.ip ?? "—"}</TableCell>
                        <TableCell className="max-w-72">
                          <span className="block truncate font-mono text-xs text-muted-foreground" title={details}>
                            {details || "—"}
                          </span>
                        </TableCell>
                      </TableRow>
                    );
                  })}
                </TableBody>
              </Table>
              <nav aria-label="Pages" className="flex items-center justify-between text-sm text-muted-foreground">
                <span>
                  {offset + 1}–{Math.min(offset + PAGE_SIZE, total)} of {total}
                </span>
                <div className="flex gap-2">
                  <Button variant="outline" size="sm" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
                    Newer
                  </Button>
                  <Button variant="outline" size="sm" disabled={offset + PAGE_SIZE >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>
                    Older
                  </Button>
                </div>
              </nav>
            </>
          )}
        </CardContent>
      </Card>
    </>
  );
}
