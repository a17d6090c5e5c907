"use client";
// A RabbitMQ broker on the Brokers screen: what it is (metadata), its queues
// with counts (create, purge, delete), its exchanges (create, delete), and the
// publish and peek forms (rabbit-messages.tsx).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Inbox, Shuffle } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { errorCode } from "@/components/lib/api-error";
import { toastError } from "@/components/lib/toast-error";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ExchangeType, type RabbitExchange, type RabbitQueue } from "@/server/contracts/broker-admin";
import type { RabbitTargetFields } from "./broker-target";
import { CheckboxLine } from "./form-bits";
import { RabbitPeek, RabbitPublish } from "./rabbit-messages";

type Queue = z.infer<typeof RabbitQueue>;
type Exchange = z.infer<typeof RabbitExchange>;
type Props = { namespace: string | undefined; target: RabbitTargetFields; label: string };

export function RabbitPanel({ namespace, target, label }: Props) {
  const trpc = useTRPC();
  const input = { namespace, ...target };
  const meta = useQuery(trpc.brokers.rabbitMetadata.queryOptions(input, { enabled: !!namespace, retry: false }));
  const [tab, setTab] = useState("queues");
  const [peekQueue, setPeekQueue] = useState("");

  return (
    <Card>
      <CardContent className="flex flex-col gap-4 pt-6">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium">{label}</span>
          {meta.data ? (
            <>
              <Badge variant="outline">
                {meta.data.product ?? "AMQP broker"} {meta.data.version ?? ""}
              </Badge>
              <Badge variant="outline">vhost {meta.data.vhost}</Badge>
              {meta.data.totals ? (
                <span className="text-muted-foreground">
                  {meta.data.totals.queues} queues · {meta.data.totals.messages} messages · {meta.data.totals.connections} connections
                </span>
              ) : null}
            </>
          ) : null}
        </div>
        {meta.error ? <ApiErrorAlert error={meta.error} title="The broker did not answer" /> : null}
        {meta.data?.source === "amqp" ? (
          <Alert variant="warning" title="Management API not reachable">
            Queues and exchanges cannot be listed without RabbitMQ&apos;s management plugin ({meta.data.managementError}). Publishing, peeking and creating, purging or deleting a named queue still work over AMQP.
          </Alert>
        ) : null}
        <Tabs value={tab} onValueChange={setTab}>
          <TabsList>
            <TabsTrigger value="queues">Queues</TabsTrigger>
            <TabsTrigger value="exchanges">Exchanges</TabsTrigger>
            <TabsTrigger value="publish">Publish</TabsTrigger>
            <TabsTrigger value="peek">Peek</TabsTrigger>
          </TabsList>
          <TabsContent value="queues" className="pt-4">
            <QueuesTab
              input={input}
              onPeek={(q) => {
                setPeekQueue(q);
                setTab("peek");
              }}
            />
          </TabsContent>
          <TabsContent value="exchanges" className="pt-4">
            <ExchangesTab input={input} />
          </TabsContent>
          <TabsContent value="publish" className="pt-4">
            <RabbitPublish input={input} />
          </TabsContent>
          <TabsContent value="peek" className="pt-4">
            <RabbitPeek input={input} queue={peekQueue} onQueue={setPeekQueue} />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}

type Input = { namespace: string | undefined } & RabbitTargetFields;

function QueuesTab({ input, onPeek }: { input: Input; onPeek: (queue: string) => void }) {
  const trpc = useTRPC();
  const client = useQueryClient();
  const list = useQuery(trpc.brokers.rabbitQueues.queryOptions(input, { enabled: !!input.namespace, retry: false }));
  const refresh = () => client.invalidateQueries({ queryKey: trpc.brokers.pathKey() });
  const [name, setName] = useState("");
  const [durable, setDurable] = useState(true);
  const [confirm, setConfirm] = useState<{ action: "purge" | "delete"; queue: string } | null>(null);
  const create = useMutation(
    trpc.brokers.rabbitCreateQueue.mutationOptions({
      onSuccess: (r) => {
        toast.success(`Queue ${r.queue} created`);
        setName("");
        void refresh();
      },
      onError: toastError,
    }),
  );
  const purge = useMutation(trpc.brokers.rabbitPurgeQueue.mutationOptions({ onSuccess: (r) => (toast.success(`${r.messagesPurged} message${r.messagesPurged === 1 ? "" : "s"} purged from ${r.queue}`), setConfirm(null), void refresh()), onError: toastError }));
  const remove = useMutation(trpc.brokers.rabbitDeleteQueue.mutationOptions({ onSuccess: (r) => (toast.success(`Queue ${r.queue} deleted`), setConfirm(null), void refresh()), onError: toastError }));

  const columns: DataColumn<Queue>[] = [
    { id: "name", header: "Name", cell: (q) => <span className="font-mono text-sm break-all">{q.name}</span> },
    { id: "ready", header: "Ready", cell: (q) => q.messagesReady, className: "tabular-nums" },
    { id: "unacked", header: "Unacked", cell: (q) => q.messagesUnacknowledged ?? "–", className: "tabular-nums" },
    { id: "consumers", header: "Consumers", cell: (q) => q.consumers, className: "tabular-nums" },
    { id: "flags", header: "Flags", cell: (q) => [q.durable ? "durable" : null, q.autoDelete ? "auto-delete" : null, q.type].filter(Boolean).join(" · ") },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      cell: (q) => (
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" aria-label={`Peek ${q.name}`} onClick={() => onPeek(q.name)}>
            Peek
          </Button>
          <Button variant="outline" size="sm" aria-label={`Purge ${q.name}`} onClick={() => setConfirm({ action: "purge", queue: q.name })}>
            Purge
          </Button>
          <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`Delete ${q.name}`} onClick={() => setConfirm({ action: "delete", queue: q.name })}>
            Delete
          </Button>
        </div>
      ),
    },
  ];

  return (
    <div className="flex flex-col gap-4">
      <form
        className="flex flex-wrap items-end gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) create.mutate({ ...input, queue: name.trim(), durable });
        }}
      >
        <Field label="New queue" htmlFor="new-queue" className="min-w-64 flex-1">
          {(aria) => <Input {...aria} value={name} onChange={(e) => setName(e.target.value)} placeholder="orders.created" autoComplete="off" />}
        </Field>
        <CheckboxLine id="new-queue-durable" label="Durable" checked={durable} onChange={setDurable} />
        <Button type="submit" pending={create.isPending} disabled={!name.trim()}>
          Create queue
        </Button>
        <Button type="button" variant="outline" onClick={() => void refresh()}>
          Refresh
        </Button>
      </form>
      {errorCode(list.error) === "management_api_unavailable" ? (
        <Alert variant="warning" title="Listing queues needs the management API">
          Enable the rabbitmq_management plugin on the broker, or set the protocol server&apos;s managementUrl option. You can still peek, purge or delete a queue you name in the Peek tab.
        </Alert>
      ) : null}
      <DataTable
        label="Queues"
        columns={columns}
        data={list.data?.queues}
        isLoading={list.isLoading}
        error={errorCode(list.error) === "management_api_unavailable" ? undefined : list.error}
        rowKey={(q) => q.name}
        search={{ label: "Search queues", placeholder: "Search by name", text: (q) => q.name }}
        empty={{ icon: Inbox, title: "No queues", body: "Create a queue above; messages published to the default exchange with its name as routing key land in it." }}
        noMatch={{ title: "No queues match", body: "Try part of the name." }}
      />
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(o) => (o ? undefined : setConfirm(null))}
        title={confirm?.action === "purge" ? `Purge ${confirm.queue}?` : `Delete ${confirm?.queue ?? ""}?`}
        description={confirm?.action === "purge" ? "Every ready message of the queue is removed. Messages being delivered to consumers stay." : "The queue and every message in it are removed; bindings to it go too."}
        confirmLabel={confirm?.action === "purge" ? "Purge queue" : "Delete queue"}
        pending={purge.isPending || remove.isPending}
        onConfirm={() => {
          if (!confirm) return;
          if (confirm.action === "purge") purge.mutate({ ...input, queue: confirm.queue });
          else remove.mutate({ ...input, queue: confirm.queue });
        }}
      />
    </div>
  );
}

function ExchangesTab({ input }: { input: Input }) {
  const trpc = useTRPC();
  const client = useQueryClient();
  const list = useQuery(trpc.brokers.rabbitExchanges.queryOptions(input, { enabled: !!input.namespace, retry: false }));
  const refresh = () => client.invalidateQueries({ queryKey: trpc.brokers.pathKey() });
  const [name, setName] = useState("");
  const [type, setType] = useState<z.infer<typeof ExchangeType>>("direct");
  const [deleting, setDeleting] = useState<string | null>(null);
  const create = useMutation(trpc.brokers.rabbitCreateExchange.mutationOptions({ onSuccess: (r) => (toast.success(`Exchange ${r.exchange} created`), setName(""), void refresh()), onError: toastError }));
  const remove = useMutation(trpc.brokers.rabbitDeleteExchange.mutationOptions({ onSuccess: (r) => (toast.success(`Exchange ${r.exchange} deleted`), setDeleting(null), void refresh()), onError: toastError }));
  const columns: DataColumn<Exchange>[] = [
    { id: "name", header: "Name", cell: (e) => <span className="font-mono text-sm break-all">{e.name === "" ? "(default)" : e.name}</span> },
    { id: "type", header: "Type", cell: (e) => (e.type ? <Badge variant="outline">{e.type}</Badge> : "–") },
    { id: "flags", header: "Flags", cell: (e) => [e.durable ? "durable" : null, e.autoDelete ? "auto-delete" : null, e.internal ? "internal" : null].filter(Boolean).join(" · ") },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      cell: (e) =>
        e.name === "" || e.name.startsWith("amq.") ? null : (
          <div className="flex justify-end">
            <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`Delete exchange ${e.name}`} onClick={() => setDeleting(e.name)}>
              Delete
            </Button>
          </div>
        ),
    },
  ];
  return (
    <div className="flex flex-col gap-4">
      <form
        className="flex flex-wrap items-end gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) create.mutate({ ...input, exchange: name.trim(), type });
        }}
      >
        <Field label="New exchange" htmlFor="new-exchange" className="min-w-64 flex-1">
          {(aria) => <Input {...aria} value={name} onChange={(e) => setName(e.target.value)} placeholder="orders" autoComplete="off" />}
        </Field>
        <Field label="Type" htmlFor="new-exchange-type">
          {(aria) => (
            <Select value={type} onValueChange={(v) => setType(v as typeof type)}>
              <SelectTrigger {...aria} className="w-36">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {ExchangeType.options.map((t) => (
                  <SelectItem key={t} value={t}>
                    {t}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          )}
        </Field>
        <Button type="submit" pending={create.isPending} disabled={!name.trim()}>
          Create exchange
        </Button>
      </form>
      {errorCode(list.error) === "management_api_unavailable" ? (
        <Alert variant="warning" title="Listing exchanges needs the management API">
          Enable the rabbitmq_management plugin on the broker, or set the protocol server&apos;s managementUrl option.
        </Alert>
      ) : null}
      <DataTable
        label="Exchanges"
        columns={columns}
        data={list.data?.exchanges}
        isLoading={list.isLoading}
        error={errorCode(list.error) === "management_api_unavailable" ? undefined : list.error}
        rowKey={(e) => e.name || "(default)"}
        search={{ label: "Search exchanges", placeholder: "Search by name or type", text: (e) => `${e.name} ${e.type ?? ""}` }}
        empty={{ icon: Shuffle, title: "No exchanges", body: "Create an exchange above, then bind queues to it from your application." }}
        noMatch={{ title: "No exchanges match", body: "Try part of the name or the type." }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title={`Delete exchange ${deleting ?? ""}?`}
        description="The exchange and its bindings are removed; publishers to it get an error."
        confirmLabel="Delete exchange"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ ...input, exchange: deleting })}
      />
    </div>
  );
}
