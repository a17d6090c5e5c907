"use client";
// The socket part of the mock form: a TCP or UDP protocol server of the
// namespace (its listener serves the mock), or a WebSocket server name (a path
// under /stubs); the event, with "connect" as a TCP greeting; conditions.
import Link from "next/link";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useNamespace } from "../../../../_components/namespace-context";
import { ConditionGroup } from "./condition-group";
import { ConditionsBuilder } from "./conditions-builder";
import { LabeledInput, type DraftProps } from "./section";
import { useProtocolServers } from "./use-protocol-servers";

type Obj = Record<string, unknown>;
const WEBSOCKET = "__websocket__";

export function SocketBlockForm({ draft, set }: DraftProps) {
  const { current, hrefWithNs } = useNamespace();
  const { servers, loaded } = useProtocolServers(["tcp", "udp"]);
  const block = (draft.socket ?? {}) as Obj;
  const serverName = (block.serverName as string | undefined) ?? "";
  const server = servers.find((s) => s.name === serverName);
  // A name no TCP/UDP server has is a WebSocket path (the two share mocks by name, so this is only what the form shows).
  const webSocket = !server;
  const event = (block.event as string | undefined) ?? "";
  return (
    <div className="flex flex-col gap-5">
      <p className="text-sm text-muted-foreground">
        {server
          ? `${server.protocol.toUpperCase()} clients of “${server.name}” (port ${server.port}) get this reply; ${server.protocol === "udp" ? "one datagram is one message" : "messages are framed as the server says"}.`
          : `WebSocket clients connect to /stubs/${current?.name ?? "<namespace>"}/<server name>.`}
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor="socket-server" className="text-xs text-muted-foreground">
            Server
          </Label>
          <Select
            value={webSocket ? WEBSOCKET : serverName}
            onValueChange={(v) => {
              set(["socket", "serverName"], v === WEBSOCKET ? "" : v);
              if (v !== WEBSOCKET) set(["socket", "namespace"], undefined);
            }}
          >
            <SelectTrigger id="socket-server">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {servers.map((s) => (
                <SelectItem key={s.id} value={s.name}>
                  {s.name} ({s.protocol.toUpperCase()} port {s.port})
                </SelectItem>
              ))}
              <SelectItem value={WEBSOCKET}>WebSocket (a name under /stubs)</SelectItem>
            </SelectContent>
          </Select>
          {loaded && servers.length === 0 ? (
            <p className="text-xs text-muted-foreground">
              For a raw TCP or UDP socket, create a server on{" "}
              <Link className="underline underline-offset-2" href={hrefWithNs("/protocol-servers")}>
                Protocol servers
              </Link>{" "}
              first.
            </p>
          ) : null}
        </div>
        {webSocket ? <LabeledInput id="socket-serverName" label="WebSocket server name" placeholder="chat" value={serverName} onChange={(e) => set(["socket", "serverName"], e.target.value)} /> : null}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="flex flex-col gap-1">
          <LabeledInput id="socket-event" label="Event" placeholder="any message" list="socket-events" value={event} onChange={(e) => set(["socket", "event"], e.target.value || undefined)} />
          <datalist id="socket-events">
            <option value="connect" />
            <option value="message" />
          </datalist>
          <p className="text-xs text-muted-foreground">
            {event === "connect"
              ? "connect: a greeting sent as soon as a TCP client connects, before it says anything (UDP has no connections)."
              : 'Empty answers every message. A JSON message {"event": "order", "data": …} is event “order”; anything else is “message”. “connect” greets a new TCP connection.'}
          </p>
        </div>
        {webSocket ? <LabeledInput id="socket-namespace" label="WebSocket namespace" placeholder="optional" value={(block.namespace as string | undefined) ?? ""} onChange={(e) => set(["socket", "namespace"], e.target.value || undefined)} /> : null}
      </div>
      <ConditionGroup title="Message conditions" hint="A JSON path into the message's data, e.g. $.id">
        <ConditionsBuilder idPrefix="socket-conditions" noun="Message condition" pathLabel="path" pathPlaceholder="$.id" rows={block.conditions as never} onChange={(v) => set(["socket", "conditions"], v)} />
      </ConditionGroup>
    </div>
  );
}
