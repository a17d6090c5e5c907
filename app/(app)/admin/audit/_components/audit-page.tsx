"use client";
// The audit log for administrators: filter by action prefix and actor, page through, export.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Download, ScrollText } from "lucide-react";
import { useState } from "react";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { formatDateTime } from "@/components/lib/format";
import { useDebounced } from "@/components/lib/use-debounced";
import { Badge } from "@/components/ui/badge";
import { Pager } from "@/components/ui/pager";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { AuditFormat } from "@/server/contracts/audit";
import type { RouterOutputs } from "../../../mocks/_components/types";

const PAGE_SIZE = 50;
const FORMAT_LABEL: Record<z.infer<typeof AuditFormat>, string> = { csv: "CSV", json: "JSON", syslog: "Syslog", cef: "CEF" };

function detailsText(details: unknown): string {
  if (details === null || details === undefined) return "";
  return typeof details === "string" ? details : JSON.stringify(details);
}

type AuditEvent = RouterOutputs["audit"]["list"]["events"][number];

const COLUMNS: DataColumn<AuditEvent>[] = [
  { id: "time", header: "Time", className: "whitespace-nowrap", cell: (e) => formatDateTime(e.at) },
  { id: "actor", header: "Actor", className: "font-medium whitespace-nowrap", cell: (e) => e.actorName },
  { id: "action", header: "Action", cell: (e) => <code className="font-mono text-xs">{e.action}</code> },
  { id: "outcome", header: "Outcome", cell: (e) => (e.outcome === "success" ? <Badge variant="success">Success</Badge> : <Badge variant="destructive">Failure</Badge>) },
  { id: "namespace", header: "Namespace", cell: (e) => e.namespace ?? <span className="text-muted-foreground">—</span> },
  { id: "ip", header: "IP", className: "font-mono text-xs", cell: (e) => e.ip ?? "—" },
  {
    id: "details",
    header: "Details",
    className: "max-w-72",
    cell: (e) => {
      const details = detailsText(e.details);
      return (
        <span className="block truncate font-mono text-xs text-muted-foreground" title={details}>
          {details || "—"}
        </span>
      );
    },
  },
];

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
          <DataTable
            label="Audit events"
            columns={COLUMNS}
            data={list.data?.events}
            isLoading={list.isLoading}
            error={list.error}
            rowKey={(e) => String(e.id)}
            filtered={Boolean(filters.action || filters.actor)}
            skeletonRows={6}
            empty={{ icon: ScrollText, title: "No events yet", body: "Sign-ins, token changes and admin actions appear here as they happen." }}
            noMatch={{ title: "No events match", body: "Actions are matched from the start (auth. finds auth.login and auth.logout); actors by exact username." }}
            footer={
              events.length ? (
                <Pager offset={offset} shown={events.length} total={total} pageSize={PAGE_SIZE} onOffset={setOffset} labels={{ previous: "Newer", next: "Older" }} />
              ) : null
            }
          />
        </CardContent>
      </Card>
    </>
  );
}
