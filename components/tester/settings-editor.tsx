"use client";
// A request's transport settings: timeout, redirects and TLS verification.
// Number fields keep what is typed while it is out of range (and say so),
// and only in-range values reach `onChange`.
import { useId, useState } from "react";
import { Checkbox } from "@/components/ui/checkbox";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { RequestSettings } from "@/server/contracts/tester-request";

export function SettingsEditor({ settings, onChange }: { settings: RequestSettings; onChange: (settings: RequestSettings) => void }) {
  const id = useId();
  const set = (patch: Partial<RequestSettings>) => onChange({ ...settings, ...patch });
  return (
    <div className="flex max-w-2xl flex-col divide-y rounded-md border">
      <Setting id={`${id}-timeout`} title="Request timeout" hint="How long to wait for the whole response, in milliseconds (1 to 300,000).">
        <NumberField id={`${id}-timeout`} value={settings.timeoutMs} min={1} max={300_000} suffix="ms" onValue={(timeoutMs) => set({ timeoutMs })} />
      </Setting>
      <Setting id={`${id}-follow`} title="Follow redirects" hint="Follow 3xx answers to their Location; the response shows each hop.">
        <Checkbox id={`${id}-follow`} checked={settings.followRedirects} onCheckedChange={(c) => set({ followRedirects: c === true })} />
      </Setting>
      <Setting id={`${id}-max`} title="Maximum redirects" hint="More hops than this fail the request with too_many_redirects.">
        <NumberField id={`${id}-max`} value={settings.maxRedirects} min={0} max={50} disabled={!settings.followRedirects} onValue={(maxRedirects) => set({ maxRedirects })} />
      </Setting>
      <Setting id={`${id}-tls`} title="Verify TLS certificates" hint="Turn off for self-signed certificates on test servers; never for production.">
        <Checkbox id={`${id}-tls`} checked={settings.verifyTls} onCheckedChange={(c) => set({ verifyTls: c === true })} />
      </Setting>
    </div>
  );
}

function Setting({ id, title, hint, children }: { id: string; title: string; hint: string; children: React.ReactNode }) {
  return (
    <div className="flex items-center justify-between gap-6 px-4 py-3">
      <div className="flex flex-col gap-0.5">
        <Label htmlFor={id}>{title}</Label>
        <p id={`${id}-hint`} className="text-xs text-muted-foreground">
          {hint}
        </p>
      </div>
      <div className="shrink-0">{children}</div>
    </div>
  );
}

function NumberField({ id, value, min, max, suffix, disabled, onValue }: { id: string; value: number; min: number; max: number; suffix?: string; disabled?: boolean; onValue: (n: number) => void }) {
  // The text while it does not hold a valid number; null shows `value`.
  const [draft, setDraft] = useState<string | null>(null);
  const text = draft ?? String(value);
  const n = Number(text);
  const invalid = draft !== null && (!Number.isInteger(n) || n < min || n > max || text.trim() === "");
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex items-center gap-2">
        <Input
          id={id}
          inputMode="numeric"
          className="w-28 text-right font-mono"
          value={text}
          disabled={disabled}
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}-hint${invalid ? ` ${id}-error` : ""}`}
          onChange={(e) => {
            const next = e.target.value;
            const parsed = Number(next);
            if (next.trim() !== "" && Number.isInteger(parsed) && parsed >= min && parsed <= max) {
              setDraft(null);
              onValue(parsed);
            } else setDraft(next);
          }}
          onBlur={() => setDraft(null)}
        />
        {suffix ? <span className="text-xs text-muted-foreground">{suffix}</span> : null}
      </div>
      {invalid ? (
        <p id={`${id}-error`} className="text-xs font-medium text-destructive">
          A whole number from {min} to {max}
        </p>
      ) : null}
    </div>
  );
}
