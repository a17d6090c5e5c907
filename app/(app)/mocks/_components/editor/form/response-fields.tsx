"use client";
import { Plus, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { looseText, looseValue, numberOrUndefined, type Path } from "../draft";
import { KeyValueList } from "./key-value-list";
import { PayloadEditor } from "./payload-editor";
import { LabeledInput } from "./section";

type Response = Record<string, unknown>;

/** Status, delay, headers and payload of one response (the main one, or one of oneOf's). */
/** `sse`: the mock is an SSE mock; its value is the mock's default event name ("" when unset). */
export function ResponseFields({ idPrefix, label, response, set, sse }: { idPrefix: string; label: string; response: Response; set: (path: Path, value: unknown) => void; sse?: string }) {
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-3">
        <LabeledInput id={`${idPrefix}-status`} label={`${label} status code`} type="number" min={0} max={599} placeholder="200" value={(response.statusCode as number | undefined) ?? ""} onChange={(e) => set(["statusCode"], numberOrUndefined(e.target.value))} />
        <LabeledInput id={`${idPrefix}-delay`} label={`${label} delay (ms)`} type="number" min={0} placeholder="0" value={(response.delay as number | undefined) ?? ""} onChange={(e) => set(["delay"], numberOrUndefined(e.target.value))} />
        <LabeledInput id={`${idPrefix}-template`} label={`${label} template file`} placeholder="uploaded file name (optional)" value={(response.payloadTemplatePath as string) ?? ""} onChange={(e) => set(["payloadTemplatePath"], e.target.value || undefined)} />
      </div>
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
