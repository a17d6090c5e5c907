"use client";
import { Plus, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { Protocol } from "@/server/contracts/mock";
import { looseText, looseValue, numberOrUndefined, type Path } from "../draft";
import { GRPC_CODES, grpcCodeOf } from "./grpc-codes";
import { KeyValueList } from "./key-value-list";
import { PayloadEditor } from "./payload-editor";
import { LabeledInput } from "./section";

type Response = Record<string, unknown>;

/** Status, delay, headers and payload of one response (the main one, or one of oneOf's). */
/** `sse`: the mock is an SSE mock; its value is the mock's default event name ("" when unset). */
/** `protocol` decides what the status is: a gRPC code by name, an SMTP reply code, or an HTTP status. */
export function ResponseFields({ idPrefix, label, response, set, sse, protocol }: { idPrefix: string; label: string; response: Response; set: (path: Path, value: unknown) => void; sse?: string; protocol?: Protocol }) {
  const grpcCode = grpcCodeOf(response.statusCode);
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-3">
        {protocol === "grpc" ? (
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={`${idPrefix}-status`} className="text-xs text-muted-foreground">
              {label} gRPC status
            </Label>
            <Select value={String(grpcCode)} onValueChange={(v) => set(["statusCode"], Number(v))}>
              <SelectTrigger id={`${idPrefix}-status`}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {GRPC_CODES.map((name, code) => (
                  <SelectItem key={name} value={String(code)}>
                    {code} {name}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
        ) : (
          <LabeledInput
            id={`${idPrefix}-status`}
            label={protocol === "smtp" ? `${label} SMTP reply code` : `${label} status code`}
            type="number"
            min={0}
            max={599}
            placeholder={protocol === "smtp" ? "250" : "200"}
            value={(response.statusCode as number | undefined) ?? ""}
            onChange={(e) => set(["statusCode"], numberOrUndefined(e.target.value))}
          />
        )}
        <LabeledInput id={`${idPrefix}-delay`} label={`${label} delay (ms)`} type="number" min={0} placeholder="0" value={(response.delay as number | undefined) ?? ""} onChange={(e) => set(["delay"], numberOrUndefined(e.target.value))} />
        <LabeledInput id={`${idPrefix}-template`} label={`${label} template file`} placeholder="uploaded file name (optional)" value={(response.payloadTemplatePath as string) ?? ""} onChange={(e) => set(["payloadTemplatePath"], e.target.value || undefined)} />
      </div>
      {protocol === "grpc" && grpcCode !== 0 ? (
        <LabeledInput id={`${idPrefix}-error`} label={`${label} status message`} placeholder="order not found" value={(response.error as string | undefined) ?? ""} onChange={(e) => set(["error"], e.target.value || undefined)} />
      ) : null}
      <fieldset className="flex flex-col gap-2">
        <legend className="text-sm font-medium">{label} headers</legend>
        <KeyValueList idPrefix={`${idPrefix}-headers`} noun={`${label} header`} keyLabel="name" valueLabel="value" kind="headers" record={response.headers} onChange={(v) => set(["headers"], v)} />
      </fieldset>
      <PayloadEditor id={`${idPrefix}-payload`} label={`${label} payload`} value={response.payload} onChange={(v) => set(["payload"], v)} />
      {sse !== undefined ? <SseEvents idPrefix={`${idPrefix}-sse`} defaultName={sse || "message"} events={((response.sseEventChain as { events?: unknown[] } | undefined)?.events ?? []) as Record<string, unknown>[]} onChange={(events) => set(["sseEventChain"], events.length ? { events } : undefined)} /> : null}
    </div>
  );
}

function SseEvents({ idPrefix, defaultName, events, onChange }: { idPrefix: string; defaultName: string; events: Record<string, unknown>[]; onChange: (e: Record<string, unknown>[]) => void }) {
  const update = (i: number, patch: Record<string, unknown>) => onChange(events.map((e, j) => (j === i ? Object.fromEntries(Object.entries({ ...e, ...patch }).filter(([, v]) => v !== undefined)) : e)));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium">Event chain</legend>
      <p className="text-xs text-muted-foreground">An event without a name is sent as “{defaultName}”, the mock&apos;s default event name.</p>
      {events.map((e, i) => (
        <div key={i} className="grid grid-cols-[1fr_2fr_7rem_auto] items-end gap-2">
          <LabeledInput id={`${idPrefix}-${i}-name`} label={`Event ${i + 1} name`} placeholder={defaultName} value={(e.eventName as string) ?? ""} onChange={(ev) => update(i, { eventName: ev.target.value || undefined })} />
          <LabeledInput id={`${idPrefix}-${i}-data`} label={`Event ${i + 1} data`} value={looseText(e.data)} onChange={(ev) => update(i, { data: looseValue(ev.target.value) })} />
          <LabeledInput id={`${idPrefix}-${i}-delay`} label={`Event ${i + 1} delay (ms)`} type="number" min={0} value={(e.delay as number | undefined) ?? ""} onChange={(ev) => update(i, { delay: numberOrUndefined(ev.target.value) })} />
          <Button type="button" variant="ghost" size="icon" aria-label={`Remove event ${i + 1}`} onClick={() => onChange(events.filter((_, j) => j !== i))}>
            <X aria-hidden />
          </Button>
        </div>
      ))}
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => onChange([...events, { data: {} }])}>
          <Plus aria-hidden /> Add event
        </Button>
      </div>
    </fieldset>
  );
}
