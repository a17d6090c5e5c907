"use client";
import { Plus, X } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { getIn, looseText, looseValue, numberOrUndefined, protocolOfDraft, setIn } from "../draft";
import { KeyValueList } from "./key-value-list";
import { ResponseFields } from "./response-fields";
import { FormSection, LabeledInput, type DraftProps } from "./section";

type Obj = Record<string, unknown>;

function Toggle({ id, label, checked, onChange }: { id: string; label: string; checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <div className="flex items-center gap-2">
      <Checkbox id={id} checked={checked} onCheckedChange={(v) => onChange(v === true)} />
      <Label htmlFor={id}>{label}</Label>
    </div>
  );
}

export function ResponseSection({ draft, set }: DraftProps) {
  const response = (draft.response ?? {}) as Obj;
  return (
    <FormSection title="Response" description="What the mock sends back. Placeholders such as $.req.id or $.fake.Email are filled in when it answers.">
      <ResponseFields idPrefix="response" label="Response" protocol={protocolOfDraft(draft)} response={response} set={(path, value) => set(["response", ...path], value)} sse={protocolOfDraft(draft) === "sse" ? (((draft.sse as Obj | undefined)?.eventName as string | undefined) ?? "") : undefined} />
    </FormSection>
  );
}

export function OneOfSection({ draft, set }: DraftProps) {
  const oneOf = draft.oneOf as { order?: string; responses?: Obj[] } | undefined;
  const responses = oneOf?.responses ?? [];
  return (
    <FormSection title="Several responses (oneOf)" description="Answer with each response in turn, or one at random, instead of the single response above.">
      <Toggle id="oneof-enabled" label="Use several responses" checked={Boolean(oneOf)} onChange={(on) => set(["oneOf"], on ? { order: "order", responses: [{ statusCode: 200, payload: {} }] } : undefined)} />
      {oneOf ? (
        <>
          <div className="flex max-w-56 flex-col gap-1.5">
            <Label htmlFor="oneof-order" className="text-xs text-muted-foreground">
              Order
            </Label>
            <Select value={oneOf.order ?? "order"} onValueChange={(v) => set(["oneOf", "order"], v)}>
              <SelectTrigger id="oneof-order">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="order">In turn</SelectItem>
                <SelectItem value="random">At random</SelectItem>
              </SelectContent>
            </Select>
          </div>
          {responses.map((r, i) => (
            <div key={i} className="flex flex-col gap-3 rounded-lg border p-4">
              <div className="flex items-center justify-between">
                <h3 className="text-sm font-semibold">Response {i + 1}</h3>
                <Button type="button" variant="ghost" size="sm" disabled={responses.length === 1} onClick={() => set(["oneOf", "responses"], responses.filter((_, j) => j !== i))}>
                  <X aria-hidden /> Remove response {i + 1}
                </Button>
              </div>
              <ResponseFields idPrefix={`oneof-${i}`} label={`Response ${i + 1}`} protocol={protocolOfDraft(draft)} response={r} set={(path, value) => set(["oneOf", "responses"], responses.map((x, j) => (j === i ? setIn(x, path, value) : x)))} />
            </div>
          ))}
          <div>
            <Button type="button" variant="outline" size="sm" onClick={() => set(["oneOf", "responses"], [...responses, { statusCode: 200, payload: {} }])}>
              <Plus aria-hidden /> Add response
            </Button>
          </div>
        </>
      ) : null}
    </FormSection>
  );
}

export function ProxySection({ draft, set }: DraftProps) {
  const proxy = draft.proxy as Obj | undefined;
  return (
    <FormSection title="Proxy" description="Forward matching requests to a real service and return its answer.">
      <Toggle id="proxy-enabled" label="Forward to a real service" checked={Boolean(proxy)} onChange={(on) => set(["proxy"], on ? { target: "https://" } : undefined)} />
      {proxy ? (
        <div className="flex flex-col gap-4">
          <div className="grid gap-4 sm:grid-cols-[1fr_10rem]">
            <LabeledInput id="proxy-target" label="Target URL" value={(proxy.target as string) ?? ""} onChange={(e) => set(["proxy", "target"], e.target.value)} />
            <LabeledInput id="proxy-timeout" label="Timeout (ms)" type="number" min={100} value={(proxy.timeoutMs as number | undefined) ?? ""} onChange={(e) => set(["proxy", "timeoutMs"], numberOrUndefined(e.target.value))} />
          </div>
          <Toggle id="proxy-strip" label="Strip the route's literal prefix" checked={Boolean(proxy.stripPrefix)} onChange={(v) => set(["proxy", "stripPrefix"], v || undefined)} />
          <fieldset className="flex flex-col gap-2">
            <legend className="text-sm font-medium">Headers added to the forwarded request</legend>
            <KeyValueList idPrefix="proxy-headers" noun="Proxy header" keyLabel="name" valueLabel="value" kind="headers" record={proxy.headers} onChange={(v) => set(["proxy", "headers"], v)} />
          </fieldset>
        </div>
      ) : null}
    </FormSection>
  );
}

export function WebhooksSection({ draft, set }: DraftProps) {
  const hooks = (draft.webhooks ?? []) as Obj[];
  const update = (i: number, path: string[], value: unknown) => set(["webhooks"], hooks.map((h, j) => (j === i ? setIn(h, path, value) : h)));
  return (
    <FormSection title="Webhooks" description="Calls made after the mock answers; URL and body take placeholders.">
      {hooks.map((h, i) => (
        <div key={i} className="flex flex-col gap-3 rounded-lg border p-4">
          <div className="grid gap-3 sm:grid-cols-[8rem_1fr_auto]">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor={`webhook-${i}-method`} className="text-xs text-muted-foreground">
                Webhook {i + 1} method
              </Label>
              <Select value={((h.method as string) ?? "POST").toUpperCase()} onValueChange={(v) => update(i, ["method"], v)}>
                <SelectTrigger id={`webhook-${i}-method`}>
                  <SelectValue />
                </SelectTrigger>
                <SelectContent>
                  {["POST", "PUT", "PATCH", "GET", "DELETE"].map((m) => (
                    <SelectItem key={m} value={m}>
                      {m}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            </div>
            <LabeledInput id={`webhook-${i}-url`} label={`Webhook ${i + 1} URL`} value={(h.url as string) ?? ""} onChange={(e) => update(i, ["url"], e.target.value)} />
            <Button type="button" variant="ghost" size="icon" className="self-end" aria-label={`Remove webhook ${i + 1}`} onClick={() => set(["webhooks"], hooks.length > 1 ? hooks.filter((_, j) => j !== i) : undefined)}>
              <X aria-hidden />
            </Button>
          </div>
          <LabeledInput id={`webhook-${i}-body`} label={`Webhook ${i + 1} body`} placeholder='text, or JSON: {"id": "$.req.id"}' value={looseText(h.body)} onChange={(e) => update(i, ["body"], e.target.value === "" ? undefined : looseValue(e.target.value))} />
          <div className="grid gap-3 sm:grid-cols-3">
            <LabeledInput id={`webhook-${i}-delay`} label={`Webhook ${i + 1} delay (ms)`} type="number" min={0} value={(h.delay as number | undefined) ?? ""} onChange={(e) => update(i, ["delay"], numberOrUndefined(e.target.value))} />
            <LabeledInput id={`webhook-${i}-timeout`} label={`Webhook ${i + 1} timeout (ms)`} type="number" min={100} value={(h.timeoutMs as number | undefined) ?? ""} onChange={(e) => update(i, ["timeoutMs"], numberOrUndefined(e.target.value))} />
            <LabeledInput id={`webhook-${i}-retries`} label={`Webhook ${i + 1} retries`} type="number" min={0} max={10} value={(h.retries as number | undefined) ?? ""} onChange={(e) => update(i, ["retries"], numberOrUndefined(e.target.value))} />
          </div>
        </div>
      ))}
      <div>
        <Button type="button" variant="outline" size="sm" onClick={() => set(["webhooks"], [...hooks, { url: "https://", method: "POST" }])}>
          <Plus aria-hidden /> Add webhook
        </Button>
      </div>
    </FormSection>
  );
}

export function LimitsSection({ draft, set }: DraftProps) {
  return (
    <FormSection title="Matching and limits" description="Higher priority wins among mocks that match; TTL and use limit retire a mock; transient mocks skip logging.">
      <div className="grid gap-4 sm:grid-cols-4">
        <LabeledInput id="mock-priority" label="Priority" type="number" value={(draft.priority as number | undefined) ?? ""} onChange={(e) => set(["priority"], numberOrUndefined(e.target.value))} />
        <LabeledInput id="mock-ttl" label="TTL (ms)" type="number" min={0} placeholder="0 = forever" value={(draft.ttl as number | undefined) ?? ""} onChange={(e) => set(["ttl"], numberOrUndefined(e.target.value))} />
        <LabeledInput id="mock-use-limiter" label="Use limit" type="number" min={0} placeholder="0 = unlimited" value={(draft.useLimiter as number | undefined) ?? ""} onChange={(e) => set(["useLimiter"], numberOrUndefined(e.target.value))} />
        <LabeledInput id="mock-chain" label="Chain id" value={(draft.chainId as string) ?? ""} onChange={(e) => set(["chainId"], e.target.value || undefined)} />
      </div>
      <div className="grid gap-4 sm:grid-cols-[1fr_auto]">
        <LabeledInput id="mock-server-name" label="Server name" placeholder="optional: test, stage…" value={(draft.serverName as string) ?? ""} onChange={(e) => set(["serverName"], e.target.value || undefined)} />
        <div className="flex items-end pb-2">
          <Toggle id="mock-transient" label="Transient (no request log, no live updates)" checked={Boolean(draft.transient)} onChange={(v) => set(["transient"], v)} />
        </div>
      </div>
    </FormSection>
  );
}

export function StoresSection({ draft, set }: DraftProps) {
  const stores: [string, string, string[], string][] = [
    ["Mock store (mStore)", "mstore", ["mStore"], "Mock store value"],
    ["Extract to the mock store", "extract-m", ["extract", "mStore"], "Mock store extract"],
    ["Extract to the chain store", "extract-c", ["extract", "cStore"], "Chain store extract"],
    ["Extract to the global store", "extract-g", ["extract", "gStore"], "Global store extract"],
  ];
  return (
    <FormSection title="Stores and extract" description="Values the mock keeps: $.gS.key reads the global store, $.cS.key the chain's, $.mS.key this mock's. Extract values may be expressions such as $.req.id.">
      {stores.map(([title, id, path, noun]) => (
        <fieldset key={id} className="flex flex-col gap-2">
          <legend className="text-sm font-medium">{title}</legend>
          <KeyValueList
            idPrefix={id}
            noun={noun}
            keyLabel="key"
            valueLabel="value"
            kind="values"
            record={getIn(draft, path)}
            valuePlaceholder="$.req.id"
            onChange={(v) => {
              set(path, v);
              if (path[0] === "extract" && !v && !Object.keys((getIn(draft, ["extract"]) as Obj | undefined) ?? {}).some((k) => k !== path[1])) set(["extract"], undefined);
            }}
          />
        </fieldset>
      ))}
    </FormSection>
  );
}
