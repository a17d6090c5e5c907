"use client";
// A Kafka cluster on the Brokers screen: metadata, topics with partitions and
// message counts (create, delete), consumer groups with lag, and the produce
// and peek forms (kafka-messages.tsx).
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Layers, Users } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import type { z } from "zod";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { KafkaConsumerGroup, KafkaTopic } from "@/server/contracts/broker-admin";
import type { KafkaTargetFields } from "./broker-target";
import { KafkaPeek, KafkaProduce } from "./kafka-messages";

type Topic = z.infer<typeof KafkaTopic>;
type Group = z.infer<typeof KafkaConsumerGroup>;
type Input = { namespace: string | undefined } & KafkaTargetFields;

export function KafkaPanel({ namespace, target, label }: { namespace: string | undefined; target: KafkaTargetFields; label: string }) {
  const trpc = useTRPC();
  const input: Input = { namespace, ...target };
  const meta = useQuery(trpc.brokers.kafkaMetadata.queryOptions(input, { enabled: !!namespace, retry: false }));
  const [tab, setTab] = useState("topics");
  const [peekTopic, setPeekTopic] = useState("");
  return (
    <Card>
      <CardContent className="flex flex-col gap-4 pt-6">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span className="font-medium">{label}</span>
          {meta.data ? (
            <>
              {meta.data.clusterId ? <Badge variant="outline">cluster {meta.data.clusterId}</Badge> : null}
              <span className="text-muted-foreground">
                {meta.data.brokers.length} broker{meta.data.brokers.length === 1 ? "" : "s"} · {meta.data.topicCount} topics · controller {meta.data.controller ?? "unknown"}
              </span>
            </>
          ) : null}
        </div>
        {meta.error ? <ApiErrorAlert error={meta.error} title="The cluster did not answer" /> : null}
        <Tabs value={tab} onValueChange={setTab}>
          <TabsList>
            <TabsTrigger value="topics">Topics</TabsTrigger>
            <TabsTrigger value="groups">Consumer groups</TabsTrigger>
            <TabsTrigger value="produce">Produce</TabsTrigger>
            <TabsTrigger value="peek">Peek</TabsTrigger>
          </TabsList>
          <TabsContent value="topics" className="pt-4">
            <TopicsTab
              input={input}
              onPeek={(t) => {
                setPeekTopic(t);
                setTab("peek");
              }}
            />
          </TabsContent>
          <TabsContent value="groups" className="pt-4">
            <GroupsTab input={input} />
          </TabsContent>
          <TabsContent value="produce" className="pt-4">
            <KafkaProduce input={input} />
          </TabsContent>
          <TabsContent value="peek" className="pt-4">
            <KafkaPeek input={input} topic={peekTopic} onTopic={setPeekTopic} />
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}

function TopicsTab({ input, onPeek }: { input: Input; onPeek: (topic: string) => void }) {
  const trpc = useTRPC();
  const client = useQueryClient();
  const list = useQuery(trpc.brokers.kafkaTopics.queryOptions(input, { enabled: !!input.namespace, retry: false }));
  const refresh = () => client.invalidateQueries({ queryKey: trpc.brokers.pathKey() });
  const [name, setName] = useState("");
  const [partitions, setPartitions] = useState(1);
  const [deleting, setDeleting] = useState<string | null>(null);
  const create = useMutation(trpc.brokers.kafkaCreateTopic.mutationOptions({ onSuccess: (r) => (toast.success(`Topic ${r.topic} created`), setName(""), void refresh()), onError: toastError }));
  const remove = useMutation(trpc.brokers.kafkaDeleteTopic.mutationOptions({ onSuccess: (r) => (toast.success(`Topic ${r.topic} deleted`), setDeleting(null), void refresh()), onError: toastError }));
  const columns: DataColumn<Topic>[] = [
    { id: "name", header: "Topic", cell: (t) => <span className="font-mono text-sm break-all">{t.name}</span> },
    { id: "partitions", header: "Partitions", cell: (t) => t.partitions, className: "tabular-nums" },
    { id: "messages", header: "Messages", cell: (t) => t.messages, className: "tabular-nums" },
    { id: "offsets", header: "Offsets", cell: (t) => <span className="font-mono text-xs text-muted-foreground">{t.partitionDetails.map((p) => `p${p.partition} ${p.low}–${p.high}`).join(" · ")}</span> },
    {
      id: "actions",
      header: "",
      srHeader: "Actions",
      cell: (t) => (
        <div className="flex justify-end gap-2">
          <Button variant="outline" size="sm" aria-label={`Peek ${t.name}`} onClick={() => onPeek(t.name)}>
            Peek
          </Button>
          <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" aria-label={`Delete topic ${t.name}`} onClick={() => setDeleting(t.name)}>
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
          if (name.trim()) create.mutate({ ...input, topic: name.trim(), numPartitions: partitions });
        }}
      >
        <Field label="New topic" htmlFor="new-topic" className="min-w-64 flex-1">
          {(aria) => <Input {...aria} value={name} onChange={(e) => setName(e.target.value)} placeholder="orders" autoComplete="off" />}
        </Field>
        <Field label="Partitions" htmlFor="new-topic-partitions">
          {(aria) => <Input {...aria} type="number" min={1} max={1000} className="w-24" value={partitions} onChange={(e) => setPartitions(Math.max(1, Number(e.target.value) || 1))} />}
        </Field>
        <Button type="submit" pending={create.isPending} disabled={!name.trim()}>
          Create topic
        </Button>
        <Button type="button" variant="outline" onClick={() => void refresh()}>
          Refresh
        </Button>
      </form>
      <DataTable
        label="Topics"
        columns={columns}
        data={list.data?.topics}
        isLoading={list.isLoading}
        error={list.error}
        rowKey={(t) => t.name}
        search={{ label: "Search topics", placeholder: "Search by name", text: (t) => t.name }}
        empty={{ icon: Layers, title: "No topics", body: "Create a topic above, or produce a message: brokers that auto-create topics make it on the first record." }}
        noMatch={{ title: "No topics match", body: "Try part of the name." }}
      />
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(o) => (o ? undefined : setDeleting(null))}
        title={`Delete topic ${deleting ?? ""}?`}
        description="The topic and every record in it are deleted on the cluster."
        confirmLabel="Delete topic"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate({ ...input, topic: deleting })}
      />
    </div>
  );
}

function GroupsTab({ input }: { input: Input }) {
  const trpc = useTRPC();
  const [named, setNamed] = useState("");
  const [groups, setGroups] = useState<string[] | undefined>(undefined);
  const list = useQuery(trpc.brokers.kafkaConsumerGroups.queryOptions({ ...input, groups }, { enabled: !!input.namespace, retry: false }));
  const columns: DataColumn<Group>[] = [
    { id: "group", header: "Group", cell: (g) => <span className="font-mono text-sm break-all">{g.groupId}</span> },
    { id: "state", header: "State", cell: (g) => <Badge variant="outline">{g.state}</Badge> },
    { id: "members", header: "Members", cell: (g) => g.members ?? "–", className: "tabular-nums" },
    { id: "topics", header: "Topics", cell: (g) => g.topics.map((t) => `${t.topic} (lag ${t.lag})`).join(", ") || "–" },
    { id: "lag", header: "Total lag", cell: (g) => g.totalLag, className: "tabular-nums" },
  ];
  return (
    <div className="flex flex-col gap-4">
      <form
        className="flex flex-wrap items-end gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          const names = named.split(/[\s,]+/).filter(Boolean);
          setGroups(names.length ? names : undefined);
        }}
      >
        <Field label="Groups" htmlFor="group-names" className="min-w-64 flex-1" hint="empty: every group the cluster lists; some brokers cannot list groups, then name them here">
          {(aria) => <Input {...aria} value={named} onChange={(e) => setNamed(e.target.value)} placeholder="billing, shipping" autoComplete="off" />}
        </Field>
        <Button type="submit" variant="outline">
          Show
        </Button>
      </form>
      {list.error ? (
        <ApiErrorAlert error={list.error} />
      ) : (
        <DataTable
          label="Consumer groups"
          columns={columns}
          data={list.data?.groups}
          isLoading={list.isLoading}
          rowKey={(g) => g.groupId}
          empty={{ icon: Users, title: "No consumer groups", body: "A group appears once a consumer with a group id has joined the cluster or committed offsets." }}
        />
      )}
    </div>
  );
}
