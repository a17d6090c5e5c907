"use client";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { PROTOCOLS, type Protocol } from "@/server/contracts/mock";
import { PROTOCOL_LABELS } from "../../protocol-badge";
import { protocolOfDraft } from "../draft";
import { ConditionGroup } from "./condition-group";
import { ConditionsBuilder } from "./conditions-builder";
import { GrpcBlockForm } from "./grpc-block";
import { BrokerBlockForm, KAFKA_FORM, NATS_FORM, RABBITMQ_FORM } from "./messaging-block";
import { FormSection, LabeledInput, type DraftProps } from "./section";
import { SmtpBlockForm } from "./smtp-block";
import { SocketBlockForm } from "./socket-block";

const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE", "CONNECT"];
const ANY = "__any__";

interface BlockField {
  key: string;
  label: string;
  options?: string[];
  placeholder?: string;
  /** An older key for the same thing: shown when `key` is empty, and dropped once `key` is written. */
  legacyKey?: string;
}

/** Protocols with a form of their own (pickers over the namespace's protos and protocol servers). */
type OwnForm = "http" | "grpc" | "smtp" | "socket" | "kafka" | "rabbitmq" | "nats";

/** The match keys of each other protocol block (server/contracts/mock.ts); conditions lists follow. */
const BLOCKS: Record<Exclude<Protocol, OwnForm>, { fields: BlockField[]; conditions?: { key: string; noun: string }[]; hint: string }> = {
  graphql: { fields: [{ key: "operation", label: "Operation", options: ["query", "mutation", "subscription"] }, { key: "field", label: "Field" }, { key: "type", label: "Type" }, { key: "path", label: "Path", placeholder: "/graphql" }], conditions: [{ key: "conditions", noun: "Variable condition" }], hint: "POST a JSON body with `query` to /stubs/<namespace>/<path>." },
  soap: { fields: [{ key: "service", label: "Service" }, { key: "method", label: "SOAP method" }, { key: "action", label: "SOAPAction" }, { key: "path", label: "Path", placeholder: "/soap" }], conditions: [{ key: "conditions", noun: "Envelope condition" }], hint: "POST XML with a SOAPAction header; the payload is the raw envelope." },
  mcp: { fields: [{ key: "method", label: "MCP method", options: ["tools/call", "prompts/get", "resources/read"] }, { key: "tool", label: "Tool" }, { key: "prompt", label: "Prompt" }, { key: "resource", label: "Resource" }, { key: "description", label: "Description" }], conditions: [{ key: "conditions", noun: "Argument condition" }], hint: "JSON-RPC 2.0 at /stubs/<namespace> (plus the path prefix)." },
  // One path and one name: `route` is the older spelling of `eventPath`, and the server name is the mock's own (Matching and limits).
  sse: { fields: [{ key: "eventPath", label: "Event path", placeholder: "/events/orders", legacyKey: "route" }, { key: "eventName", label: "Default event name", placeholder: "message" }], hint: "GET with Accept: text/event-stream; the response streams the event chain below. Events without a name of their own get the default event name." },
  s3: { fields: [{ key: "bucket", label: "Bucket" }], hint: "Path-style S3 at /stubs/<namespace>/<bucket>/<key>: PUT stores, GET returns." },
};

/** What a new block of each protocol starts as: its required fields, empty. */
function emptyBlock(p: Protocol): Record<string, unknown> {
  switch (p) {
    case "http":
      return { route: "/", httpMethod: "GET" };
    case "grpc":
      return { service: "", method: "" };
    case "mcp":
      return { method: "tools/call" };
    case "socket":
      return { serverName: "" };
    case "kafka":
      return { topic: "" };
    case "rabbitmq":
      return { queue: "" };
    case "nats":
      return { subject: "" };
    case "s3":
      return { bucket: "" };
    default:
      return {};
  }
}

/** Which protocol the mock targets, and that protocol's match keys and conditions. */
export function ProtocolSection({ draft, set }: DraftProps) {
  const protocol = protocolOfDraft(draft);
  function switchTo(next: Protocol) {
    if (next === protocol) return;
    set([protocol], undefined);
    set([next], emptyBlock(next));
  }
  return (
    <FormSection title="Request" description="What the mock answers: the protocol, where it listens, and the conditions a request must meet.">
      <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="mock-protocol" className="text-xs text-muted-foreground">
            Protocol
          </Label>
          <Select value={protocol} onValueChange={(v) => switchTo(v as Protocol)}>
            <SelectTrigger id="mock-protocol">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {PROTOCOLS.map((p) => (
                <SelectItem key={p} value={p}>
                  {p === "socket" ? "WebSocket/TCP/UDP" : PROTOCOL_LABELS[p]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <LabeledInput id="mock-path-prefix" label="Path prefix" placeholder="optional, e.g. /v2" value={(draft.pathPrefix as string) ?? ""} onChange={(e) => set(["pathPrefix"], e.target.value || undefined)} />
      </div>
      <ProtocolBlock protocol={protocol} draft={draft} set={set} />
    </FormSection>
  );
}

function ProtocolBlock({ protocol, draft, set }: DraftProps & { protocol: Protocol }) {
  switch (protocol) {
    case "http":
      return <HttpBlock draft={draft} set={set} />;
    case "grpc":
      return <GrpcBlockForm draft={draft} set={set} />;
    case "smtp":
      return <SmtpBlockForm draft={draft} set={set} />;
    case "socket":
      return <SocketBlockForm draft={draft} set={set} />;
    case "rabbitmq":
      return <BrokerBlockForm spec={RABBITMQ_FORM} draft={draft} set={set} />;
    case "kafka":
      return <BrokerBlockForm spec={KAFKA_FORM} draft={draft} set={set} />;
    case "nats":
      return <BrokerBlockForm spec={NATS_FORM} draft={draft} set={set} />;
    default:
      return <GenericBlock protocol={protocol} draft={draft} set={set} />;
  }
}

function HttpBlock({ draft, set }: DraftProps) {
  const http = (draft.http ?? {}) as Record<string, unknown>;
  return (
    <div className="flex flex-col gap-5">
      <div className="grid gap-4 sm:grid-cols-[12rem_1fr]">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="http-method" className="text-xs text-muted-foreground">
            Method
          </Label>
          <Select value={(http.httpMethod as string | undefined)?.toUpperCase() ?? ANY} onValueChange={(v) => set(["http", "httpMethod"], v === ANY ? undefined : v)}>
            <SelectTrigger id="http-method">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>Any method</SelectItem>
              {HTTP_METHODS.map((m) => (
                <SelectItem key={m} value={m}>
                  {m}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <LabeledInput id="http-route" label="Route" placeholder="/users/:id" value={(http.route as string) ?? ""} onChange={(e) => set(["http", "route"], e.target.value)} />
      </div>
      <ConditionGroup title="Body conditions" hint="A JSON path into the request body, e.g. $.type">
        <ConditionsBuilder idPrefix="http-body" noun="Body condition" pathLabel="path" pathPlaceholder="$.type" rows={http.conditions as never} onChange={(v) => set(["http", "conditions"], v)} />
      </ConditionGroup>
      <ConditionGroup title="Query parameter conditions" hint="The parameter's name, e.g. page">
        <ConditionsBuilder idPrefix="http-query" noun="Query condition" pathLabel="name" pathPlaceholder="page" rows={http.queryParams as never} onChange={(v) => set(["http", "queryParams"], v)} />
      </ConditionGroup>
      <ConditionGroup title="Header conditions" hint="The header's name (any case), e.g. Authorization">
        <ConditionsBuilder idPrefix="http-header" noun="Header condition" pathLabel="name" pathPlaceholder="Authorization" rows={http.header as never} onChange={(v) => set(["http", "header"], v)} />
      </ConditionGroup>
    </div>
  );
}

function GenericBlock({ protocol, draft, set }: DraftProps & { protocol: Exclude<Protocol, OwnForm> }) {
  const spec = BLOCKS[protocol];
  const block = (draft[protocol] ?? {}) as Record<string, unknown>;
  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-muted-foreground">{spec.hint}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        {spec.fields.map((f) =>
          f.options ? (
            <div key={f.key} className="flex flex-col gap-1.5">
              <Label htmlFor={`${protocol}-${f.key}`} className="text-xs text-muted-foreground">
                {f.label}
              </Label>
              <Select value={(block[f.key] as string) ?? ANY} onValueChange={(v) => set([protocol, f.key], v === ANY ? undefined : v)}>
                <SelectTrigger id={`${protocol}-${f.key}`}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  <SelectItem value={ANY}>(not set)</SelectItem>
                  {f.options.map((o) => (
                    <SelectItem key={o} value={o}>
                      {o}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
          ) : (
            <LabeledInput
              key={f.key}
              id={`${protocol}-${f.key}`}
              label={f.label}
              placeholder={f.placeholder}
              value={((block[f.key] ?? (f.legacyKey ? block[f.legacyKey] : undefined)) as string | undefined) ?? ""}
              onChange={(e) => {
                if (f.legacyKey) set([protocol, f.legacyKey], undefined);
                set([protocol, f.key], e.target.value || undefined);
              }}
            />
          ),
        )}
      </div>
      {(spec.conditions ?? []).map((c) => (
        <ConditionGroup key={c.key} title={`${c.noun}s`} hint="A JSON path into the message">
          <ConditionsBuilder idPrefix={`${protocol}-${c.key}`} noun={c.noun} pathLabel="path" pathPlaceholder="$.id" rows={block[c.key] as never} onChange={(v) => set([protocol, c.key], v)} />
        </ConditionGroup>
      ))}
    </div>
  );
}
