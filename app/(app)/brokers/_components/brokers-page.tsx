"use client";
// The Brokers screen: pick a Kafka or RabbitMQ protocol server of the namespace
// (or type an address), then look into it like Kafka UI or the RabbitMQ
// management console: topics/queues/exchanges with counts, publish, peek,
// consumer groups and lag. Everything goes through the broker admin service
// (server/services/broker-admin), the same as /api/v1/api-tester/kafka|rabbitmq.
import { useQuery } from "@tanstack/react-query";
import { RadioTower } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useNamespace } from "../../_components/namespace-context";
import type { BrokerTarget } from "./broker-target";
import { KafkaPanel } from "./kafka-panel";
import { RabbitPanel } from "./rabbit-panel";

const INLINE_RABBIT = "inline:rabbitmq";
const INLINE_KAFKA = "inline:kafka";

export function BrokersPage() {
  const trpc = useTRPC();
  const namespace = useNamespace().current?.name;
  const servers = useQuery(trpc.protocolServers.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const brokers = (servers.data?.servers ?? []).filter((s) => s.protocol === "kafka" || s.protocol === "rabbitmq");
  const [choice, setChoice] = useState<string>("");
  const [address, setAddress] = useState("");
  const [managementUrl, setManagementUrl] = useState("");
  const [target, setTarget] = useState<BrokerTarget | null>(null);

  function pick(value: string) {
    setChoice(value);
    setAddress("");
    const server = brokers.find((s) => s.name === value);
    if (server) setTarget(server.protocol === "kafka" ? { kind: "kafka", label: server.name, fields: { serverName: server.name } } : { kind: "rabbitmq", label: server.name, fields: { serverName: server.name } });
    else setTarget(null);
  }

  function connectInline(e: React.FormEvent) {
    e.preventDefault();
    if (!address.trim()) return;
    if (choice === INLINE_KAFKA) {
      const list = address.split(/[\s,]+/).filter(Boolean);
      setTarget({ kind: "kafka", label: list.join(", "), fields: { brokers: list } });
    } else {
      setTarget({ kind: "rabbitmq", label: address.replace(/\/\/[^@/]*@/, "//"), fields: { url: address.trim(), ...(managementUrl.trim() ? { managementUrl: managementUrl.trim() } : {}) } });
    }
  }

  const inline = choice === INLINE_KAFKA || choice === INLINE_RABBIT;
  return (
    <>
      <PageHeader title="Brokers" description="Look into a Kafka cluster or a RabbitMQ broker: topics, queues and exchanges with their counts, publish a message, peek at messages, consumer groups and their lag." />
      <Card>
        <CardHeader>
          <CardTitle>Broker</CardTitle>
          <CardDescription>A Kafka or RabbitMQ protocol server of this namespace (its stored credentials are used), or an address typed here.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Server" htmlFor="broker-choice">
              {(aria) => (
                <Select value={choice} onValueChange={pick}>
                  <SelectTrigger {...aria} aria-label="Server">
                    <SelectValue placeholder={servers.isLoading ? "Loading…" : "Choose a broker"} />
                  </SelectTrigger>
                  <SelectContent>
                    {brokers.map((s) => (
                      <SelectItem key={s.id} value={s.name}>
                        {s.name} ({s.protocol === "kafka" ? "Kafka" : "RabbitMQ"})
                      </SelectItem>
                    ))}
                    <SelectItem value={INLINE_RABBIT}>RabbitMQ URL…</SelectItem>
                    <SelectItem value={INLINE_KAFKA}>Kafka brokers…</SelectItem>
                  </SelectContent>
                </Select>
              )}
            </Field>
          </div>
          {inline ? (
            <form className="grid gap-4 sm:grid-cols-[1fr_1fr_auto] sm:items-end" onSubmit={connectInline}>
              <Field label={choice === INLINE_KAFKA ? "Bootstrap brokers" : "AMQP URL"} htmlFor="broker-address" hint={choice === INLINE_KAFKA ? "host:port, several separated by commas" : "amqp://user:password@host:5672/vhost"}>
                {(aria) => <Input {...aria} value={address} onChange={(e) => setAddress(e.target.value)} placeholder={choice === INLINE_KAFKA ? "localhost:9092" : "amqp://guest:guest@localhost:5672"} autoComplete="off" />}
              </Field>
              {choice === INLINE_RABBIT ? (
                <Field label="Management API (optional)" htmlFor="broker-management" hint="default: http://<host>:15672">
                  {(aria) => <Input {...aria} value={managementUrl} onChange={(e) => setManagementUrl(e.target.value)} placeholder="http://localhost:15672" autoComplete="off" />}
                </Field>
              ) : (
                <div />
              )}
              <Button type="submit">Connect</Button>
            </form>
          ) : null}
          {!servers.isLoading && brokers.length === 0 && !inline ? (
            <p className="text-sm text-muted-foreground">
              This namespace has no Kafka or RabbitMQ protocol server yet. <Link className="underline" href="/protocol-servers">Create one</Link> or type an address.
            </p>
          ) : null}
        </CardContent>
      </Card>
      {target === null ? (
        <Card>
          <CardContent className="pt-6">
            <EmptyState icon={RadioTower} title="No broker chosen">
              Choose a protocol server above, say the RabbitMQ server your mocks consume from, to see its queues and exchanges, publish a test message and peek at what is waiting; or a Kafka server to see its topics and consumer-group lag.
            </EmptyState>
          </CardContent>
        </Card>
      ) : target.kind === "rabbitmq" ? (
        <RabbitPanel key={JSON.stringify(target)} namespace={namespace} target={target.fields} label={target.label} />
      ) : (
        <KafkaPanel key={JSON.stringify(target)} namespace={namespace} target={target.fields} label={target.label} />
      )}
    </>
  );
}
