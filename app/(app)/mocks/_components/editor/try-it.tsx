"use client";
// Try it: sends a real request to the mock's stub URL, shaped for its
// protocol (HTTP, GraphQL query, SOAP envelope, MCP call, SSE stream,
// WebSocket client), and says which mock answered.
import { useMutation } from "@tanstack/react-query";
import { CheckCircle2, Send, XCircle } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { errorMessage } from "@/components/lib/api-error";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CodeEditor } from "@/components/code/code-editor";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { useNamespace } from "../../../_components/namespace-context";
import type { Protocol } from "@/server/contracts/mock";
import { LabeledInput } from "./form/section";
import type { Draft } from "./draft";
import { presetFor } from "./try-it-presets";
import { SocketClient } from "./try-it-socket";
import { SseStream } from "./try-it-sse";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

interface StubAnswer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
  ms: number;
}

interface StubMiss {
  message: string;
  nearest: { id: string; method?: string; route?: string; distance: number; reasons: { kind: string; message: string }[] }[];
}

/** The stub's own "no mock matches" answer (404, code not_found, with the nearest mocks). */
function missOf(answer: StubAnswer): StubMiss | null {
  if (answer.status !== 404) return null;
  try {
    const body = JSON.parse(answer.body) as { error?: string; code?: string; details?: { nearest?: StubMiss["nearest"] } };
    return body.code === "not_found" ? { message: body.error ?? "No mock matched", nearest: body.details?.nearest ?? [] } : null;
  } catch {
    return null;
  }
}

function headerLines(text: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of text.split("\n")) {
    const at = line.indexOf(":");
    if (at <= 0) continue;
    const name = line.slice(0, at).trim();
    (out[name] ??= []).push(line.slice(at + 1).trim());
  }
  return out;
}

/**
 * Sends a real request to the stub URL from the browser and shows the answer;
 * beside it the preview service says which mock matched, or which mocks came
 * nearest and what failed for each.
 */
export function TryIt({ mockId, draft, protocol }: { mockId: string; draft: Draft; protocol: Protocol }) {
  const namespace = useNamespace().current?.name;
  if (protocol === "socket") {
    const serverName = ((draft.socket ?? {}) as { serverName?: string }).serverName ?? "";
    return <SocketClient path={`/stubs/${namespace}/${serverName.replace(/^\//, "")}`} initialMessage='{"type": "hello"}' />;
  }
  if (protocol === "sse") return <SseTry draft={draft} />;
  return <RequestTry mockId={mockId} draft={draft} protocol={protocol} />;
}

function SseTry({ draft }: { draft: Draft }) {
  const namespace = useNamespace().current?.name;
  const [path, setPath] = useState(() => presetFor("sse", draft).path);
  const [query, setQuery] = useState("");
  const url = `/stubs/${namespace}${path.startsWith("/") ? path : `/${path}`}${query ? `?${query.replace(/^\?/, "")}` : ""}`;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">
        Opens <code className="font-mono text-xs">{url}</code> with <code className="font-mono text-xs">Accept: text/event-stream</code> and shows each event as it arrives (it counts as a use and appears in the request log).
      </p>
      <div className="grid gap-3 rounded-xl border bg-card p-5 sm:grid-cols-[1fr_14rem]">
        <LabeledInput id="try-path" label="Request path" value={path} onChange={(e) => setPath(e.target.value)} />
        <LabeledInput id="try-query" label="Query string" placeholder="a=1&b=2" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      <SseStream url={url} />
    </div>
  );
}

function RequestTry({ mockId, draft, protocol }: { mockId: string; draft: Draft; protocol: Protocol }) {
  const trpc = useTRPC();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const [preset] = useState(() => presetFor(protocol, draft));
  const [method, setMethod] = useState(preset.method);
  const [path, setPath] = useState(preset.path);
  const [query, setQuery] = useState("");
  const [headers, setHeaders] = useState(preset.headers);
  const [body, setBody] = useState(preset.body);
  const [variables, setVariables] = useState("{}");
  const [answer, setAnswer] = useState<StubAnswer | null>(null);
  const [sendError, setSendError] = useState<string | null>(null);
  const preview = useMutation(trpc.mocks.preview.mutationOptions());
  const [sending, setSending] = useState(false);

  const stubUrl = `/stubs/${namespace}${path.startsWith("/") ? path : `/${path}`}${query ? `?${query.replace(/^\?/, "")}` : ""}`;
  const hasBody = !["GET", "HEAD"].includes(method) && body.trim() !== "";
  // The preview service knows the HTTP index only; other protocols are judged by the stub's own answer.
  const previewed = protocol === "http";

  async function send() {
    if (!namespace) return;
    setSending(true);
    setSendError(null);
    const hdrs = headerLines(headers);
    let parsedBody: unknown = undefined;
    let wireBody = body;
    if (preset.bodyKind === "graphql") {
      let vars: unknown = {};
      try {
        vars = variables.trim() ? JSON.parse(variables) : {};
      } catch {
        setSending(false);
        setSendError("The variables are not valid JSON");
        return;
      }
      wireBody = JSON.stringify({ query: body, variables: vars });
    }
    if (hasBody) {
      try {
        parsedBody = JSON.parse(body);
      } catch {
        parsedBody = body;
      }
    }
    // Which mock would answer is asked first: the real call below may use up a limited mock.
    if (previewed) preview.mutate({ namespace, request: { method, path, query: query.replace(/^\?/, "") || undefined, headers: hdrs, body: parsedBody } });
    const started = performance.now();
    try {
      const h = new Headers();
      for (const [k, vs] of Object.entries(hdrs)) for (const v of vs) h.append(k, v);
      const res = await fetch(stubUrl, { method, headers: h, body: hasBody ? wireBody : undefined, credentials: "omit" });
      const text = await res.text();
      setAnswer({ status: res.status, statusText: res.statusText, headers: [...res.headers.entries()], body: text, ms: Math.round(performance.now() - started) });
    } catch (err) {
      setAnswer(null);
      setSendError(errorMessage(err));
    } finally {
      setSending(false);
    }
  }

  const result = previewed ? preview.data : undefined;
  const miss = !previewed && answer ? missOf(answer) : null;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">
        Sends a real request to <code className="font-mono text-xs">{stubUrl}</code> (it counts as a use and appears in the request log).
      </p>
      <form
        className="flex flex-col gap-3 rounded-xl border bg-card p-5"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <div className="grid gap-3 sm:grid-cols-[8rem_1fr_14rem]">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="try-method" className="text-xs text-muted-foreground">
              Request method
            </Label>
            <Select value={method} onValueChange={setMethod}>
              <SelectTrigger id="try-method">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {METHODS.map((m) => (
                  <SelectItem key={m} value={m}>
                    {m}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <LabeledInput id="try-path" label="Request path" value={path} onChange={(e) => setPath(e.target.value)} />
          <LabeledInput id="try-query" label="Query string" placeholder="a=1&b=2" value={query} onChange={(e) => setQuery(e.target.value)} />
        </div>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="try-headers" className="text-xs font-medium text-muted-foreground">
            Request headers (one per line, Name: value)
          </label>
          <textarea id="try-headers" rows={3} className="rounded-md border border-input bg-background px-3 py-2 font-mono text-xs outline-none focus-visible:ring-2 focus-visible:ring-ring/40" value={headers} onChange={(e) => setHeaders(e.target.value)} />
        </div>
        {preset.bodyKind === "graphql" ? (
          <div className="grid gap-3 lg:grid-cols-[2fr_1fr]">
            <CodeEditor label="GraphQL query" language="plaintext" path="try-query.graphql" value={body} onChange={setBody} height={160} />
            <CodeEditor label="GraphQL variables" language="json" path="try-variables.json" value={variables} onChange={setVariables} height={160} />
          </div>
        ) : !["GET", "HEAD"].includes(method) ? (
          <CodeEditor label="Request body" language={preset.bodyKind === "xml" ? "xml" : "json"} path={preset.bodyKind === "xml" ? "try-body.xml" : "try-body.json"} value={body} onChange={setBody} height={preset.bodyKind === "xml" ? 200 : 140} />
        ) : null}
        <div>
          <Button type="submit" pending={sending}>
            <Send aria-hidden /> Send request
          </Button>
        </div>
      </form>
      {sendError ? <Alert variant="error" title="The request could not be sent">{sendError}</Alert> : null}
      <div className="grid gap-4 lg:grid-cols-2">
        {answer ? (
          <section aria-label="Response" className="flex flex-col gap-3 rounded-xl border bg-card p-5">
            <div className="flex items-center gap-2">
              <h3 className="text-sm font-semibold">Response</h3>
              <Badge variant={answer.status < 400 ? "success" : "destructive"}>
                {answer.status} {answer.statusText}
              </Badge>
              <span className="ml-auto text-xs text-muted-foreground">{answer.ms} ms</span>
            </div>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 font-mono text-xs">
              {answer.headers.map(([k, v]) => (
                <div key={k} className="contents">
                  <dt className="text-muted-foreground">{k}</dt>
                  <dd className="break-all">{v}</dd>
                </div>
              ))}
            </dl>
            <pre aria-label="Response body" className="max-h-80 overflow-auto rounded-md bg-muted p-3 font-mono text-xs whitespace-pre-wrap">
              {answer.body || "(empty body)"}
            </pre>
          </section>
        ) : null}
        {previewed && preview.error ? <ApiErrorAlert error={preview.error} /> : null}
        {!previewed && answer ? (
          <section aria-label="Matching" className="flex flex-col gap-3 rounded-xl border bg-card p-5 text-sm">
            <h3 className="text-sm font-semibold">Matching</h3>
            {miss ? (
              <>
                <p className="flex items-center gap-2">
                  <XCircle className="size-4 text-destructive" aria-hidden /> No mock matched: {miss.message}
                </p>
                {miss.nearest.length ? (
                  <ul aria-label="Nearest mocks" className="list-disc pl-5 text-xs text-muted-foreground">
                    {miss.nearest.map((n) => (
                      <li key={n.id}>
                        <span className="font-mono font-semibold text-foreground">{n.id}</span>: {n.reasons.map((r) => r.message).join("; ")}
                      </li>
                    ))}
                  </ul>
                ) : null}
              </>
            ) : (
              <p className="flex items-center gap-2">
                <CheckCircle2 className="size-4 text-success" aria-hidden /> A mock answered with status {answer.status}. Its call is in the request log.
              </p>
            )}
          </section>
        ) : null}
        {result ? (
          <section aria-label="Matching" className="flex flex-col gap-3 rounded-xl border bg-card p-5">
            <h3 className="text-sm font-semibold">Matching</h3>
            {result.matched ? (
              <div className="flex flex-col gap-2 text-sm">
                <p className="flex items-center gap-2">
                  <CheckCircle2 className="size-4 text-success" aria-hidden />
                  Matched mock{" "}
                  <Link className="font-mono underline" href={hrefWithNs(`/mocks/${encodeURIComponent(result.mock?.id ?? "")}`)}>
                    {result.mock?.id}
                  </Link>
                </p>
                {result.mock && result.mock.id !== mockId ? <Alert variant="warning">Another mock answered this request, not the one you are editing.</Alert> : null}
                {result.responseError ? <Alert variant="error" title="Its response cannot be formed">{result.responseError}</Alert> : null}
              </div>
            ) : (
              <div className="flex flex-col gap-3 text-sm">
                <p className="flex items-center gap-2">
                  <XCircle className="size-4 text-destructive" aria-hidden /> No mock matched.
                </p>
                {result.nearest.length ? (
                  <ul aria-label="Nearest mocks" className="flex flex-col gap-2">
                    {result.nearest.map((n) => (
                      <li key={n.id} className="rounded-lg border p-3">
                        <p className="font-mono text-xs">
                          <span className="font-semibold">{n.id}</span> · {n.method} {n.route} · distance {n.distance.toFixed(2)}
                        </p>
                        <ul className="mt-1 list-disc pl-5 text-xs text-muted-foreground">
                          {n.reasons.map((r, i) => (
                            <li key={i}>
                              <span className="font-medium text-foreground">{r.kind}:</span> {r.message}
                            </li>
                          ))}
                        </ul>
                      </li>
                    ))}
                  </ul>
                ) : (
                  <p className="text-muted-foreground">No mock in this namespace comes close.</p>
                )}
              </div>
            )}
          </section>
        ) : null}
      </div>
    </div>
  );
}
