"use client";
// The SOAP operation picker: load a WSDL (URL or pasted text), pick an
// operation, and put its sample envelope, SOAPAction, version and address
// into the request.
import { useId, useState } from "react";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Label } from "@/components/ui/label";
import type { ProtocolHelperApi, SoapOperationInfo } from "./helper-api";
import { ActionButton, Hint, TextField } from "./helper-bits";

export interface SoapChoice {
  envelope: string;
  action?: string;
  version: "1.1" | "1.2";
  address?: string;
}

export function SoapPanel({ api, onUse }: { api: ProtocolHelperApi; onUse: (choice: SoapChoice) => void }) {
  const id = useId();
  const [url, setUrl] = useState("");
  const [text, setText] = useState("");
  const [operations, setOperations] = useState<SoapOperationInfo[] | null>(null);
  const [choice, setChoice] = useState("");
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const picked = operations?.find((o) => o.id === choice);

  const load = async () => {
    setBusy(true);
    setError(null);
    try {
      const listed = await api.soapOperations(text.trim() ? { wsdl: text } : { url });
      setOperations(listed.operations);
      setChoice(listed.operations[0]?.id ?? "");
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-3" data-testid="soap-panel">
      <div className="flex flex-wrap items-end gap-2">
        <TextField label="WSDL URL" value={url} onChange={setUrl} placeholder="https://example.com/service.asmx?wsdl" className="min-w-64 flex-1" />
        <ActionButton onClick={load} busy={busy} disabled={!url.trim() && !text.trim()}>
          Load operations
        </ActionButton>
      </div>
      <div className="flex flex-col gap-1.5">
        <Label htmlFor={`${id}-text`} className="text-xs text-muted-foreground">
          …or paste the WSDL (used instead of the URL when given)
        </Label>
        <textarea id={`${id}-text`} className="h-20 rounded-md border border-input bg-background p-2 font-mono text-xs" value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <ApiErrorAlert error={error} title="Cannot read the WSDL" />
      {operations === null && !error ? <Hint>Pick an operation to fill the envelope, SOAPAction and SOAP version of this request.</Hint> : null}
      {operations?.length ? (
        <div className="flex flex-wrap items-end gap-2">
          <div className="flex min-w-64 flex-1 flex-col gap-1.5">
            <Label htmlFor={`${id}-op`} className="text-xs text-muted-foreground">
              Operation
            </Label>
            <select id={`${id}-op`} className="h-8 rounded-md border border-input bg-background px-2 font-mono text-sm" value={choice} onChange={(e) => setChoice(e.target.value)}>
              {operations.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.service}.{o.port}.{o.name} (SOAP {o.soapVersion})
                </option>
              ))}
            </select>
          </div>
          <ActionButton
            variant="default"
            disabled={!picked}
            onClick={() => picked && onUse({ envelope: picked.sampleEnvelope, action: picked.action, version: picked.soapVersion, address: picked.address })}
          >
            Use in request
          </ActionButton>
        </div>
      ) : null}
      {picked ? (
        <p className="font-mono text-xs text-muted-foreground">
          SOAPAction: {picked.action ?? "(none)"} · {picked.style} · {picked.address ?? "no address"}
        </p>
      ) : null}
    </div>
  );
}
