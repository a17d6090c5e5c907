"use client";
// The runners page's view of GET /api/v1/integrations/status: each delegated
// credential the user may manage, how many runner agents registered with it
// and how many are online, their VUs, and whether the credential still works
// (an expired or revoked one explains agents that went offline).
import { useQuery } from "@tanstack/react-query";
import { KeyRound } from "lucide-react";
import Link from "next/link";
import { useTRPC } from "@/app/_trpc/client";
import { formatDateTime, formatRelative } from "@/components/lib/format";
import { Badge } from "@/components/ui/badge";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import type { IntegrationStatusOutput } from "@/server/contracts/runner-endpoints";
import type { z } from "zod";
import { useNamespace } from "../../_components/namespace-context";

type Integration = z.infer<typeof IntegrationStatusOutput>["integrations"][number];
const CREDENTIAL_VARIANT = { active: "success", expired: "warning", revoked: "destructive" } as const;

export function IntegrationStatus() {
  const trpc = useTRPC();
  const { hrefWithNs } = useNamespace();
  const status = useQuery(trpc.runners.integrationStatus.queryOptions(undefined, { refetchInterval: 10_000 }));
  const totals = status.data?.totals;

  const columns: DataColumn<Integration>[] = [
    {
      id: "name",
      header: "Credential",
      cell: (i) => (
        <div className="flex flex-col">
          <span className="font-medium">{i.name}</span>
          <span className="text-xs text-muted-foreground">{i.namespace ?? "every namespace of its owner"}</span>
        </div>
      ),
    },
    { id: "status", header: "Credential state", cell: (i) => <Badge variant={CREDENTIAL_VARIANT[i.status]}>{i.status}</Badge> },
    {
      id: "runners",
      header: "Agents online",
      className: "tabular-nums",
      cell: (i) => (
        <span className={i.online ? undefined : "text-muted-foreground"}>
          {i.online} of {i.runners}
        </span>
      ),
    },
    { id: "vus", header: "VUs in use", className: "font-mono text-xs tabular-nums", cell: (i) => (i.online ? `${i.activeVus} / ${i.capacityVus}` : "—") },
    {
      id: "seen",
      header: "Last heartbeat",
      className: "whitespace-nowrap text-xs",
      cell: (i) => (i.lastHeartbeatAt ? <span title={formatDateTime(i.lastHeartbeatAt)}>{formatRelative(i.lastHeartbeatAt)}</span> : <span className="text-muted-foreground">never</span>),
    },
    { id: "expires", header: "Expires", className: "whitespace-nowrap text-xs", cell: (i) => <span title={formatDateTime(i.credentialExpiresAt)}>{formatRelative(i.credentialExpiresAt)}</span> },
  ];

  return (
    <section aria-labelledby="runner-credentials" className="flex flex-col gap-3">
      <h2 id="runner-credentials" className="text-lg font-semibold">
        Credentials{" "}
        {totals ? (
          <span className="text-sm font-normal text-muted-foreground">
            ({totals.online} of {totals.runners} agents online{totals.online > 0 ? `, ${totals.activeVus} / ${totals.capacityVus} VUs in use` : ""})
          </span>
        ) : null}
      </h2>
      <DataTable
        label="Runner credentials"
        columns={columns}
        data={status.data?.integrations}
        isLoading={status.isLoading}
        error={status.error}
        rowKey={(i) => i.id}
        rowClassName={(i) => (i.status !== "active" ? "text-muted-foreground" : undefined)}
        empty={{
          icon: KeyRound,
          title: "No delegated credentials",
          body: (
            <>
              An agent registers with a delegated credential of its own.{" "}
              <Link href={hrefWithNs("/settings/tokens")} className="underline underline-offset-2">
                Create one
              </Link>{" "}
              (Settings → API tokens), then start the agent with it.
            </>
          ),
        }}
      />
    </section>
  );
}
