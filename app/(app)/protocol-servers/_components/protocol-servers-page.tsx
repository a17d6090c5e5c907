"use client";
// The namespace's protocol servers: the listeners (SMTP, TCP, UDP) and broker
// connections the protocol runner keeps, with the state it reports (polled,
// so a new server turns "listening" on screen), create, edit, test, delete.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus, Server } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { formatRelative } from "@/components/lib/format";
import { toastError } from "@/components/lib/toast-error";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/page-header";
import type { ProtocolServerTestResult, ProtocolServerView } from "@/server/contracts/protocol-servers";
import { useNamespace } from "../../_components/namespace-context";
import { ServerFormDialog } from "./server-form-dialog";
import { addressOf, PROTOCOL_LABEL } from "./server-form-model";
import { StateBadge } from "./state-badge";
import { PluginProtocolsCard } from "./plugin-protocols-card";

/** The runner writes the state on the row; two seconds is "live" enough for a listener that starts. */
const POLL_MS = 2000;

type TestOutcome = { name: string } & z.infer<typeof ProtocolServerTestResult>;

export function ProtocolServersPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const namespace = useNamespace().current?.name;
  const list = useQuery(trpc.protocolServers.list.queryOptions({ namespace }, { enabled: !!namespace, refetchInterval: POLL_MS }));
  const [editing, setEditing] = useState<ProtocolServerView | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<ProtocolServerView | null>(null);
  const [tested, setTested] = useState<TestOutcome | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: trpc.protocolServers.pathKey() });
  const remove = useMutation(
    trpc.protocolServers.remove.mutationOptions({
      onSuccess: () => {
        void invalidate();
        toast.success(`${deleting?.name ?? "Server"} deleted; the runner stops it`);
        setDeleting(null);
      },
      onError: toastError,
    }),
  );
  const test = useMutation(trpc.protocolServers.test.mutationOptions({ onError: toastError }));
  const runTest = (s: ProtocolServerView) => {
    setTested(null);
    test.mutate({ namespace, id: s.id }, { onSuccess: (r) => setTested({ name: s.name, ...r }) });
  };

  const columns: DataColumn<ProtocolServerView>[] = [
    {
      id: "name",
      header: "Name",
      cell: (s) => (
        <>
          <span className="font-medium">{s.name}</span>
          {s.hasCredentials ? <span className="block text-xs text-muted-foreground">with credentials</span> : null}
        </>
      ),
    },
    { id: "protocol", header: "Protocol", cell: (s) => <Badge variant="outline">{PROTOCOL_LABEL[s.protocol]}</Badge> },
    { id: "address", header: "Address", cell: (s) => <code className="font-mono text-xs break-all">{addressOf(s)}</code> },
    {
      id: "state",
      header: "State",
      cell: (s) => (
        <div className="flex flex-col gap-0.5">
          <StateBadge state={s.state} reason={s.stateReason} />
          {s.stateAt ? <span className="text-xs text-muted-foreground">{formatRelative(s.stateAt)}</span> : null}
        </div>
      ),
    },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      cell: (s) => (
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" aria-label={`Test ${s.name}`} pending={test.isPending && test.variables?.id === s.id} onClick={() => runTest(s)}>
            Test
          </Button>
          <Button variant="outline" size="sm" aria-label={`Edit ${s.name}`} onClick={() => setEditing(s)}>
            Edit
          </Button>
          <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`Delete ${s.name}`} onClick={() => setDeleting(s)}>
            Delete
          </Button>
        </div>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title="Protocol servers"
        description="Listeners and broker connections of the protocol runner: TCP, UDP and SMTP ports it opens, Kafka, RabbitMQ and NATS brokers it consumes from. Mocks name a server by its name."
        actions={
          <Button onClick={() => setEditing(null)}>
            <Plus aria-hidden /> New server
          </Button>
        }
      />
      {tested ? (
        <Alert variant={tested.ok ? "success" : "warning"} title={`Test of ${tested.name}: ${tested.ok ? "OK" : "failed"}`}>
          {tested.message}
          {tested.latencyMs !== undefined ? ` (${Math.round(tested.latencyMs)} ms)` : ""}
        </Alert>
      ) : null}
      <Card>
        <CardContent className="pt-6">
          <DataTable
            label="Protocol servers"
            columns={columns}
            data={namespace ? list.data?.servers : undefined}
            isLoading={list.isLoading}
            error={list.error}
            rowKey={(s) => s.id}
            search={{ label: "Search protocol servers", placeholder: "Search by name, protocol or address", text: (s) => `${s.name} ${s.protocol} ${addressOf(s)}` }}
            empty={{
              icon: Server,
              title: "No protocol servers yet",
              body: (
                <>
                  A TCP, UDP or SMTP mock needs a listener: create a server here (say TCP on port 9000, named <code className="font-mono text-xs">orders</code>), then give a socket mock the server name <code className="font-mono text-xs">orders</code>. The runner opens the port and shows its state.
                </>
              ),
              action: (
                <Button variant="outline" onClick={() => setEditing(null)}>
                  <Plus aria-hidden /> New server
                </Button>
              ),
            }}
            noMatch={{ title: "No servers match", body: "Try part of the name, the protocol or the port." }}
          />
        </CardContent>
      </Card>
      {namespace ? <PluginProtocolsCard namespace={namespace} pollMs={POLL_MS} /> : null}
      <ServerFormDialog server={editing} onClose={() => setEditing(undefined)} />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title={`Delete ${deleting?.name ?? ""}?`}
        description="The runner closes its listener or connection. Mocks that name it stay, and answer again once a server of that name exists."
        confirmLabel="Delete server"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ namespace, id: deleting.id })}
      />
    </>
  );
}
