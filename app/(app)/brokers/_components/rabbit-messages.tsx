"use client";
// Publish a message to a RabbitMQ exchange and peek at a queue's messages
// (put back by default, or acknowledged to remove them).
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
import { RabbitPublishInput } from "@/server/contracts/broker-admin";
import type { RabbitTargetFields } from "./broker-target";
import { CheckboxLine, firstIssue, jsonObject, TEXTAREA } from "./form-bits";
import { MessageCard } from "./message-card";

type Input = { namespace: string | undefined } & RabbitTargetFields;

export function RabbitPublish({ input }: { input: Input }) {
  const trpc = useTRPC();
  const [exchange, setExchange] = useState("");
  const [routingKey, setRoutingKey] = useState("");
  const [headers, setHeaders] = useState("");
  const [properties, setProperties] = useState('{"contentType": "application/json"}');
  const [body, setBody] = useState('{"hello": "world"}');
  const [problem, setProblem] = useState<string | null>(null);
  const publish = useMutation(
    trpc.brokers.rabbitPublish.mutationOptions({
      onSuccess: (r) => (r.routed ? toast.success("Message published") : toast.warning("Published, but no queue is bound for that routing key: the broker returned it")),
      onError: toastError,
    }),
  );
  function submit(e: React.FormEvent) {
    e.preventDefault();
    try {
      const values = { ...input, exchange, routingKey, body, headers: jsonObject(headers, "Headers"), properties: jsonObject(properties, "Properties") };
      const issue = firstIssue(RabbitPublishInput.safeParse(values));
      setProblem(issue);
      if (!issue) publish.mutate(values as Parameters<typeof publish.mutate>[0]);
    } catch (err) {
      setProblem((err as Error).message);
    }
  }
  return (
    <form className="grid gap-4 sm:grid-cols-2" onSubmit={submit}>
      <Field label="Exchange" htmlFor="pub-exchange" hint="empty: the default exchange, which routes to the queue named by the routing key">
        {(aria) => <Input {...aria} value={exchange} onChange={(e) => setExchange(e.target.value)} placeholder="(default)" autoComplete="off" />}
      </Field>
      <Field label="Routing key" htmlFor="pub-routing-key">
        {(aria) => <Input {...aria} value={routingKey} onChange={(e) => setRoutingKey(e.target.value)} placeholder="orders.created" autoComplete="off" />}
      </Field>
      <Field label="Headers (JSON)" htmlFor="pub-headers">
        {(aria) => <textarea {...aria} className={TEXTAREA} rows={3} value={headers} onChange={(e) => setHeaders(e.target.value)} placeholder='{"x-trace": "abc"}' />}
      </Field>
      <Field label="Properties (JSON)" htmlFor="pub-properties" hint="contentType, correlationId, messageId, replyTo, expiration, priority, persistent, type, appId">
        {(aria) => <textarea {...aria} className={TEXTAREA} rows={3} value={properties} onChange={(e) => setProperties(e.target.value)} />}
      </Field>
      <Field label="Body" htmlFor="pub-body" className="sm:col-span-2">
        {(aria) => <textarea {...aria} className={TEXTAREA} rows={6} value={body} onChange={(e) => setBody(e.target.value)} />}
      </Field>
      {problem ? (
        <Alert variant="error" className="sm:col-span-2">
          {problem}
        </Alert>
      ) : null}
      <div className="sm:col-span-2">
        <Button type="submit" pending={publish.isPending}>
          Publish message
        </Button>
      </div>
    </form>
  );
}

export function RabbitPeek({ input, queue, onQueue }: { input: Input; queue: string; onQueue: (q: string) => void }) {
  const trpc = useTRPC();
  const [count, setCount] = useState(5);
  const [ack, setAck] = useState(false);
  const read = useMutation(trpc.brokers.rabbitRead.mutationOptions());
  return (
    <div className="flex flex-col gap-4">
      <form
        className="flex flex-wrap items-end gap-4"
        onSubmit={(e) => {
          e.preventDefault();
          if (queue.trim()) read.mutate({ ...input, queue: queue.trim(), count, ack });
        }}
      >
        <Field label="Queue" htmlFor="peek-queue" className="min-w-64 flex-1">
          {(aria) => <Input {...aria} value={queue} onChange={(e) => onQueue(e.target.value)} placeholder="orders.created" autoComplete="off" />}
        </Field>
        <Field label="Count" htmlFor="peek-count">
          {(aria) => <Input {...aria} type="number" min={1} max={100} className="w-24" value={count} onChange={(e) => setCount(Math.max(1, Math.min(100, Number(e.target.value) || 1)))} />}
        </Field>
        <CheckboxLine id="peek-ack" label="Remove them (ack)" checked={ack} onChange={setAck} />
        <Button type="submit" pending={read.isPending} disabled={!queue.trim()}>
          {ack ? "Read and remove" : "Peek"}
        </Button>
      </form>
      <p className="text-xs text-muted-foreground">A peek puts the messages back in the queue, marked redelivered; with “Remove them” they are acknowledged and gone.</p>
      {read.error ? <ApiErrorAlert error={read.error} /> : null}
      {read.data ? (
        read.data.count === 0 ? (
          <Alert variant="info">The queue has no ready messages.</Alert>
        ) : (
          <ol className="flex flex-col gap-3" aria-label="Messages">
            {read.data.messages.map((m, i) => (
              <MessageCard
                key={i}
                title={`#${i + 1} via ${m.exchange || "(default)"} / ${m.routingKey}`}
                badges={[m.redelivered ? "redelivered" : null, m.bodyEncoding === "base64" ? "base64" : null]}
                body={m.body}
                meta={{ ...m.properties, ...(Object.keys(m.headers).length ? { headers: m.headers } : {}) }}
              />
            ))}
          </ol>
        )
      ) : null}
    </div>
  );
}
