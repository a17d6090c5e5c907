"use client";
// Produce one record to a Kafka topic and peek at a topic's newest (or oldest)
// records without committing anything.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { toastError } from "@/components/lib/toast-error";
import { Alert } from "@/components/ui/alert";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { KafkaPublishInput } from "@/server/contracts/broker-admin";
import type { KafkaTargetFields } from "./broker-target";
import { firstIssue, jsonObject, TEXTAREA } from "./form-bits";
import { MessageCard } from "./message-card";

type Input = { namespace: string | undefined } & KafkaTargetFields;

export function KafkaProduce({ input }: { input: Input }) {
  const trpc = useTRPC();
  const [topic, setTopic] = useState("");
  const [key, setKey] = useState("");
  const [headers, setHeaders] = useState("");
  const [value, setValue] = useState('{"hello": "world"}');
  const [problem, setProblem] = useState<string | null>(null);
  const produce = useMutation(trpc.brokers.kafkaPublish.mutationOptions({ onSuccess: (r) => toast.success(`Produced to ${r.topic} partition ${r.partition} at offset ${r.offset}`), onError: toastError }));
  function submit(e: React.FormEvent) {
    e.preventDefault();
    try {
      const values = { ...input, topic: topic.trim(), key: key || null, value, headers: jsonObject(headers, "Headers") };
      const issue = firstIssue(KafkaPublishInput.safeParse(values));
      setProblem(issue);
      if (!issue) produce.mutate(values as Parameters<typeof produce.mutate>[0]);
    } catch (err) {
      setProblem((err as Error).message);
    }
  }
  return (
    <form className="grid gap-4 sm:grid-cols-2" onSubmit={submit}>
      <Field label="Topic" htmlFor="produce-topic">
        {(aria) => <Input {...aria} value={topic} onChange={(e) => setTopic(e.target.value)} placeholder="orders" autoComplete="off" />}
      </Field>
      <Field label="Key" htmlFor="produce-key" hint="empty: no key (round-robin partitions)">
        {(aria) => <Input {...aria} value={key} onChange={(e) => setKey(e.target.value)} autoComplete="off" />}
      </Field>
      <Field label="Headers (JSON)" htmlFor="produce-headers" className="sm:col-span-2">
        {(aria) => <textarea {...aria} className={TEXTAREA} rows={2} value={headers} onChange={(e) => setHeaders(e.target.value)} placeholder='{"trace": "abc"}' />}
      </Field>
      <Field label="Value" htmlFor="produce-value" className="sm:col-span-2">
        {(aria) => <textarea {...aria} className={TEXTAREA} rows={6} value={value} onChange={(e) => setValue(e.target.value)} />}
      </Field>
      {problem ? (
        <Alert variant="error" className="sm:col-span-2">
          {problem}
        </Alert>
      ) : null}
      <div className="sm:col-span-2">
        <Button type="submit" pending={produce.isPending}>
          Produce record
        </Button>
      </div>
    </form>
  );
}

export function KafkaPeek({ input, topic, onTopic }: { input: Input; topic: string; onTopic: (t: string) => void }) {
  const trpc = useTRPC();
  const [limit, setLimit] = useState(10);
  const [from, setFrom] = useState<"latest" | "earliest">("latest");
  const read = useMutation(trpc.brokers.kafkaRead.mutationOptions());
  return (
    <div className="flex flex-col gap-4">
      <form
        className="flex flex-wrap items-end gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (topic.trim()) read.mutate({ ...input, topic: topic.trim(), limit, from, timeoutMs: 15_000 });
        }}
      >
        <Field label="Topic" htmlFor="peek-topic" className="min-w-64 flex-1">
          {(aria) => <Input {...aria} value={topic} onChange={(e) => onTopic(e.target.value)} placeholder="orders" autoComplete="off" />}
        </Field>
        <Field label="Per partition" htmlFor="peek-limit">
          {(aria) => <Input {...aria} type="number" min={1} max={100} className="w-24" value={limit} onChange={(e) => setLimit(Math.max(1, Math.min(100, Number(e.target.value) || 1)))} />}
        </Field>
        <Field label="From" htmlFor="peek-from">
          {(aria) => (
            <Select value={from} onValueChange={(v) => setFrom(v as typeof from)}>
              <SelectTrigger {...aria} className="w-32">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="latest">Newest</SelectItem>
                <SelectItem value="earliest">Oldest</SelectItem>
              </SelectContent>
            </Select>
          )}
        </Field>
        <Button type="submit" pending={read.isPending} disabled={!topic.trim()}>
          Peek
        </Button>
      </form>
      <p className="text-xs text-muted-foreground">A peek joins a throw-away consumer group and commits nothing; joining takes a few seconds.</p>
      {read.error ? <ApiErrorAlert error={read.error} /> : null}
      {read.data ? (
        read.data.count === 0 ? (
          <Alert variant="info">The topic has no records.</Alert>
        ) : (
          <ol className="flex flex-col gap-3" aria-label="Records">
            {read.data.messages.map((m) => (
              <MessageCard
                key={`${m.partition}:${m.offset}`}
                title={`partition ${m.partition} · offset ${m.offset}`}
                badges={[m.key !== null ? `key ${m.key}` : null]}
                body={m.value}
                meta={{ timestamp: new Date(Number(m.timestamp)).toISOString(), ...(Object.keys(m.headers).length ? { headers: m.headers } : {}) }}
              />
            ))}
          </ol>
        )
      ) : null}
    </div>
  );
}
