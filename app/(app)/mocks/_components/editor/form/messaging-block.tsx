"use client";
// The broker part of the mock form (RabbitMQ, Kafka, NATS): which protocol
// server's broker the runner consumes from, where the messages come from,
// the conditions over body and headers, and where the reply goes. One form
// driven by a per-broker description, so the three stay alike.
import Link from "next/link";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { ServerProtocol } from "@/server/contracts/protocol-servers";
import { useNamespace } from "../../../../_components/namespace-context";
import { numberOrUndefined } from "../draft";
import { ConditionGroup } from "./condition-group";
import { ConditionsBuilder } from "./conditions-builder";
import { KeyValueList } from "./key-value-list";
import { LabeledInput, type DraftProps } from "./section";
import { useProtocolServers } from "./use-protocol-servers";

type Obj = Record<string, unknown>;
const ANY = "__any__";

interface Field {
  key: string;
  label: string;
  placeholder?: string;
  hint?: string;
}

interface SelectField {
  key: string;
  label: string;
  options: { value: number; label: string }[];
}

export interface BrokerFormSpec {
  protocol: Extract<ServerProtocol, "rabbitmq" | "kafka" | "nats">;
  label: string;
  hint: string;
  /** Where the messages come from. */
  source: Field[];
  bodyHint: string;
  headerHint: string;
  /** Where the reply goes, and how it is addressed. */
  output: Field[];
  outputHint: string;
  /** Reply properties kept in a nested object (RabbitMQ's outputProps). */
  props?: { key: string; text: Field[]; numbers: SelectField[] };
  /** Reply headers, templated (Kafka's outputHeaders). */
  outputHeaders?: string;
}

export const RABBITMQ_FORM: BrokerFormSpec = {
  protocol: "rabbitmq",
  label: "RabbitMQ",
  hint: "A message delivered to the queue (or published to the exchange) on the server's broker is matched; the reply is published to the reply queue or exchange, or, when none is set, to the request's replyTo with its correlationId (RPC).",
  source: [
    { key: "queue", label: "Queue", placeholder: "orders.requests", hint: "Consumed by the runner; required unless an exchange is given." },
    { key: "exchange", label: "Exchange", placeholder: "optional, e.g. orders", hint: "With a queue: the queue is bound to it. Alone: the runner binds a queue of its own." },
    { key: "routingKey", label: "Routing key", placeholder: "the queue's name", hint: "The binding key used with the exchange." },
  ],
  bodyHint: "A JSON path into the message body, e.g. $.type (a body that is not JSON is compared as text)",
  headerHint: "The AMQP header's name (any case), e.g. x-tenant",
  output: [
    { key: "outputQueue", label: "Reply queue", placeholder: "orders.replies" },
    { key: "outputExchange", label: "Reply exchange", placeholder: "default exchange" },
    { key: "outputRoutingKey", label: "Reply routing key", placeholder: "the reply queue's name" },
    { key: "outputURL", label: "Reply broker URL", placeholder: "the server's own broker", hint: "amqp://… of another broker; the reply is confirmed there before the request is acked." },
  ],
  outputHint: "Nothing set: the reply goes to the request's replyTo (RPC); a request without replyTo gets no reply.",
  props: {
    key: "outputProps",
    text: [
      { key: "contentType", label: "Content type", placeholder: "from the payload" },
      { key: "correlationId", label: "Correlation id", placeholder: "the request's" },
      { key: "replyTo", label: "Reply to" },
      { key: "messageId", label: "Message id" },
      { key: "type", label: "Type" },
      { key: "appId", label: "App id" },
    ],
    numbers: [
      {
        key: "deliveryMode",
        label: "Delivery mode",
        options: [
          { value: 1, label: "1 · transient" },
          { value: 2, label: "2 · persistent" },
        ],
      },
    ],
  },
};

export const KAFKA_FORM: BrokerFormSpec = {
  protocol: "kafka",
  label: "Kafka",
  hint: "A record produced to the topic on the server's brokers is matched; the reply is produced to the reply topic.",
  source: [
    { key: "topic", label: "Topic", placeholder: "orders.requests" },
    { key: "consumerGroup", label: "Consumer group", placeholder: "the runner's group of this server", hint: "Mocks naming the same group share one consumer." },
  ],
  bodyHint: "A JSON path into the record's value, e.g. $.type (a value that is not JSON is compared as text)",
  headerHint: "The Kafka header's name, e.g. x-tenant",
  output: [
    { key: "outputTopic", label: "Reply topic", placeholder: "orders.replies" },
    { key: "outputKey", label: "Reply key", placeholder: "optional; templated" },
    { key: "outputBrokers", label: "Reply brokers", placeholder: "the server's brokers", hint: "host:port list, comma-separated, of another cluster." },
  ],
  outputHint: "No reply topic: the record is matched and logged, and nothing is produced.",
  outputHeaders: "outputHeaders",
};

export const NATS_FORM: BrokerFormSpec = {
  protocol: "nats",
  label: "NATS",
  hint: "A message published on the subject is matched; the reply goes to the request's reply subject (request/reply), or is published on the reply subject when one is set.",
  source: [
    { key: "subject", label: "Subject", placeholder: "orders.created or orders.*", hint: "* stands for one token, > (last) for the rest." },
    { key: "queueGroup", label: "Queue group", placeholder: "optional", hint: "Each message goes to one member of the group (the runner joins it)." },
  ],
  bodyHint: "A JSON path into the message data, e.g. $.type (data that is not JSON is compared as text)",
  headerHint: "The NATS header's name, e.g. x-tenant",
  output: [{ key: "outputSubject", label: "Reply subject", placeholder: "the request's reply subject" }],
  outputHint: "No reply subject: the reply goes to the request's reply subject; a plain publish gets no reply.",
  outputHeaders: "outputHeaders",
};

/** The server picker, source, conditions and reply of one broker protocol. */
export function BrokerBlockForm({ spec, draft, set }: DraftProps & { spec: BrokerFormSpec }) {
  const { hrefWithNs } = useNamespace();
  const { servers, loaded } = useProtocolServers([spec.protocol]);
  const p = spec.protocol;
  const block = (draft[p] ?? {}) as Obj;
  const text = (key: string) => (block[key] as string | undefined) ?? "";
  const serverName = text("serverName");
  const known = servers.some((s) => s.name === serverName);
  const props = spec.props ? ((block[spec.props.key] ?? {}) as Obj) : {};
  const setProp = (key: string, value: unknown) => {
    if (!spec.props) return;
    const next = { ...props, [key]: value };
    if (value === undefined) delete next[key];
    set([p, spec.props.key], Object.keys(next).length ? next : undefined);
  };
  const field = (f: Field, value: string, onChange: (v: string) => void, id = `${p}-${f.key}`) => (
    <div key={f.key} className="flex flex-col gap-1">
      <LabeledInput id={id} label={f.label} placeholder={f.placeholder} value={value} onChange={(e) => onChange(e.target.value)} />
      {f.hint ? <p className="text-xs text-muted-foreground">{f.hint}</p> : null}
    </div>
  );
  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-muted-foreground">{spec.hint}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${p}-server`} className="text-xs text-muted-foreground">
            {spec.label} server
          </Label>
          <Select value={serverName || ANY} onValueChange={(v) => set([p, "serverName"], v === ANY ? undefined : v)}>
            <SelectTrigger id={`${p}-server`}>
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>(not set: every {spec.label} server of the namespace)</SelectItem>
              {servers.map((s) => (
                <SelectItem key={s.id} value={s.name}>
                  {s.name} · {s.state}
                </SelectItem>
              ))}
              {serverName && !known ? <SelectItem value={serverName}>{serverName} (no such server)</SelectItem> : null}
            </SelectContent>
          </Select>
          {loaded && servers.length === 0 ? (
            <p className="text-xs text-muted-foreground">
              This namespace has no {spec.label} server yet: add its broker on{" "}
              <Link className="underline underline-offset-2" href={hrefWithNs("/protocol-servers")}>
                Protocol servers
              </Link>{" "}
              so the runner consumes from it.
            </p>
          ) : null}
        </div>
        {spec.source.map((f) => field(f, text(f.key), (v) => set([p, f.key], v || undefined)))}
      </div>
      <ConditionGroup title="Body conditions" hint={spec.bodyHint}>
        <ConditionsBuilder idPrefix={`${p}-conditions`} noun="Body condition" pathLabel="path" pathPlaceholder="$.type" rows={block.conditions as never} onChange={(v) => set([p, "conditions"], v)} />
      </ConditionGroup>
      <ConditionGroup title="Header conditions" hint={spec.headerHint}>
        <ConditionsBuilder idPrefix={`${p}-headers`} noun="Header condition" pathLabel="name" pathPlaceholder="x-tenant" rows={block.headers as never} onChange={(v) => set([p, "headers"], v)} />
      </ConditionGroup>
      <div className="flex flex-col gap-3">
        <div>
          <h3 className="text-sm font-medium">Reply</h3>
          <p className="text-xs text-muted-foreground">{spec.outputHint} The payload is the response below: text as is, anything else as JSON.</p>
        </div>
        <div className="grid gap-4 sm:grid-cols-2">{spec.output.map((f) => field(f, text(f.key), (v) => set([p, f.key], v || undefined)))}</div>
        {spec.props ? (
          <div className="grid gap-4 sm:grid-cols-3">
            {spec.props.numbers.map((f) => (
              <div key={f.key} className="flex flex-col gap-1.5">
                <Label htmlFor={`${p}-prop-${f.key}`} className="text-xs text-muted-foreground">
                  {f.label}
                </Label>
                <Select value={props[f.key] === undefined ? ANY : String(props[f.key])} onValueChange={(v) => setProp(f.key, v === ANY ? undefined : numberOrUndefined(v))}>
                  <SelectTrigger id={`${p}-prop-${f.key}`}>
                    <SelectValue />
                  </SelectTrigger>
                  <SelectContent>
                    <SelectItem value={ANY}>(broker default)</SelectItem>
                    {f.options.map((o) => (
                      <SelectItem key={o.value} value={String(o.value)}>
                        {o.label}
                      </SelectItem>
                    ))}
                  </SelectContent>
                </Select>
              </div>
            ))}
            <LabeledInput id={`${p}-prop-priority`} label="Priority" type="number" min={0} max={255} placeholder="0–255" value={(props.priority as number | undefined) ?? ""} onChange={(e) => setProp("priority", numberOrUndefined(e.target.value))} />
            {spec.props.text.map((f) => field(f, (props[f.key] as string | undefined) ?? "", (v) => setProp(f.key, v || undefined), `${p}-prop-${f.key}`))}
          </div>
        ) : null}
        {spec.outputHeaders ? (
          <ConditionGroup title="Reply headers" hint="Templated, like the payload, e.g. $.reqHeader.x-tenant[0] or $.req.id">
            <KeyValueList idPrefix={`${p}-${spec.outputHeaders}`} noun="Reply header" keyLabel="name" valueLabel="value" kind="strings" record={block[spec.outputHeaders]} onChange={(v) => set([p, spec.outputHeaders!], v)} />
          </ConditionGroup>
        ) : null}
      </div>
    </div>
  );
}
