"use client";
// The gRPC panel: discover a server's services through reflection, pick a
// method (its input skeleton fills the message), and call it through
// proxy/grpc; the answer shows the status, the messages and the trailers.
import { useId, useState } from "react";
import { Checkbox } from "@/components/ui/checkbox";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Label } from "@/components/ui/label";
import { TesterCodeEditor } from "../tester-code-editor";
import type { GrpcService, ProtocolHelperApi } from "./helper-api";
import { ActionButton, Hint, JsonBlock, TextField } from "./helper-bits";

type CallResult = Awaited<ReturnType<ProtocolHelperApi["proxyGrpc"]>>;

function parseJson(text: string, what: string): unknown {
  try {
    return text.trim() ? JSON.parse(text) : {};
  } catch {
    throw new Error(`${what} is not valid JSON`);
  }
}

export function GrpcPanel({ api }: { api: ProtocolHelperApi }) {
  const id = useId();
  const [target, setTarget] = useState("localhost:5773");
  const [tls, setTls] = useState(false);
  const [services, setServices] = useState<GrpcService[] | null>(null);
  const [choice, setChoice] = useState("");
  const [message, setMessage] = useState("{}");
  const [metadata, setMetadata] = useState("{}");
  const [result, setResult] = useState<CallResult | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<"discover" | "call" | null>(null);
  const [service, method] = choice.split("/");
  const picked = services?.find((s) => s.name === service)?.methods.find((m) => m.name === method);

  const run = async (what: "discover" | "call", work: () => Promise<void>) => {
    setBusy(what);
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(err);
    } finally {
      setBusy(null);
    }
  };
  const discover = () =>
    run("discover", async () => {
      const found = await api.grpcDiscover({ target, tls });
      setServices(found.services);
      setChoice("");
    });
  const pick = (value: string) => {
    setChoice(value);
    const [s, m] = value.split("/");
    const info = services?.find((x) => x.name === s)?.methods.find((x) => x.name === m);
    if (info) setMessage(JSON.stringify(info.requestStream ? [info.inputSkeleton] : info.inputSkeleton, null, 2));
    setResult(null);
  };
  const callIt = () =>
    run("call", async () => {
      const body = parseJson(message, "The message");
      const md = parseJson(metadata, "The metadata") as Record<string, string>;
      const streamed = picked?.requestStream;
      setResult(await api.proxyGrpc({ target, tls, service, method, metadata: md, ...(streamed ? { messages: Array.isArray(body) ? body : [body] } : { message: body }) }));
    });

  return (
    <div className="flex flex-col gap-3" data-testid="grpc-panel">
      <div className="flex flex-wrap items-end gap-2">
        <TextField label="Server (host:port)" value={target} onChange={setTarget} className="min-w-56 flex-1" />
        <div className="flex h-8 items-center gap-2">
          <Checkbox id={`${id}-tls`} checked={tls} onCheckedChange={(c) => setTls(c === true)} />
          <Label htmlFor={`${id}-tls`} className="font-normal">
            TLS
          </Label>
        </div>
        <ActionButton onClick={discover} busy={busy === "discover"} disabled={!target.trim()}>
          Discover
        </ActionButton>
      </div>
      {services === null ? <Hint>Discover lists the server&apos;s services through gRPC server reflection.</Hint> : null}
      {services && services.length === 0 ? <Hint>The server lists no services.</Hint> : null}
      {services?.length ? (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-method`} className="text-xs text-muted-foreground">
            Method
          </Label>
          <select id={`${id}-method`} className="h-8 rounded-md border border-input bg-background px-2 font-mono text-sm" value={choice} onChange={(e) => pick(e.target.value)}>
            <option value="">Choose a method…</option>
            {services.map((s) => (
              <optgroup key={s.name} label={s.name}>
                {s.methods.map((m) => (
                  <option key={m.name} value={`${s.name}/${m.name}`}>
                    {m.name} ({m.kind}) {m.requestType} → {m.responseType}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </div>
      ) : null}
      {picked ? (
        <>
          <div className="grid gap-3 lg:grid-cols-[3fr_2fr]">
            <div className="flex flex-col gap-1.5">
              <span className="text-xs font-medium text-muted-foreground">{picked.requestStream ? "Messages (a JSON list, sent in order)" : `Message (${picked.requestType})`}</span>
              <TesterCodeEditor name="grpc-message" label="gRPC message" language="json" value={message} onChange={setMessage} height={200} />
            </div>
            <div className="flex flex-col gap-1.5">
              <span className="text-xs font-medium text-muted-foreground">Metadata (JSON object)</span>
              <TesterCodeEditor name="grpc-metadata" label="gRPC metadata" language="json" value={metadata} onChange={setMetadata} height={200} />
            </div>
          </div>
          <ActionButton variant="default" onClick={callIt} busy={busy === "call"}>
            Call {picked.name}
          </ActionButton>
        </>
      ) : null}
      <ApiErrorAlert error={error} title="gRPC helper failed" />
      {result ? (
        <div className="flex flex-col gap-2" data-testid="grpc-result">
          <p className={`text-sm font-medium ${result.ok ? "text-success" : "text-destructive"}`}>
            {result.code} {result.codeName}
            {result.details ? ` — ${result.details}` : ""} <span className="text-xs font-normal text-muted-foreground">{Math.round(result.durationMs)} ms</span>
          </p>
          <JsonBlock label="Response messages" value={result.responses.length === 1 && !picked?.responseStream ? result.responses[0] : result.responses} />
          {Object.keys(result.trailers).length ? <JsonBlock label="Trailers" value={result.trailers} /> : null}
        </div>
      ) : null}
    </div>
  );
}
