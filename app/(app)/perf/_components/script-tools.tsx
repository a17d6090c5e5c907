"use client";
// The menus above the script: short pieces of k6 code inserted at the cursor,
// whole scripts to start from (the server's snippets), and scripts generated
// from an API tester request or a HAR recording. A replaced script can be
// brought back from the toast's Undo.
import { useMutation, useQuery } from "@tanstack/react-query";
import { ChevronDown, Code2, FileJson, Globe, Send, Sparkles } from "lucide-react";
import { useState } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { K6_INSERTS } from "@/components/perf/k6-snippets";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import type { PerfScriptResult } from "@/server/contracts/perf-script-endpoints";

export interface GeneratedScript {
  source: string;
  result: PerfScriptResult;
}

interface ScriptToolsProps {
  namespace: string | undefined;
  onInsert: (code: string) => void;
  onReplace: (script: string, what: string) => void;
  onGenerated: (generated: GeneratedScript) => void;
}

export function ScriptTools({ namespace, onInsert, onReplace, onGenerated }: ScriptToolsProps) {
  const trpc = useTRPC();
  const snippets = useQuery(trpc.perfScripts.snippets.queryOptions(undefined, { staleTime: Infinity }));
  const [dialog, setDialog] = useState<"url" | "request" | "har" | null>(null);
  return (
    <div className="flex flex-wrap items-center gap-2">
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button type="button" variant="outline" size="sm">
            <Code2 aria-hidden /> Snippets <ChevronDown aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start" className="max-h-[70vh] w-80 overflow-y-auto">
          <DropdownMenuLabel className="text-xs text-muted-foreground">Insert at the cursor</DropdownMenuLabel>
          {K6_INSERTS.map((s) => (
            <DropdownMenuItem key={s.title} onSelect={() => onInsert(s.code)}>
              {s.title}
            </DropdownMenuItem>
          ))}
          <DropdownMenuSeparator />
          <DropdownMenuLabel className="text-xs text-muted-foreground">Replace the script with an example</DropdownMenuLabel>
          {snippets.isLoading ? <DropdownMenuItem disabled>Loading examples…</DropdownMenuItem> : null}
          {snippets.error ? <DropdownMenuItem disabled>The examples could not be loaded</DropdownMenuItem> : null}
          {(snippets.data?.snippets ?? []).map((s) => (
            <DropdownMenuItem key={s.id} onSelect={() => onReplace(s.code, s.title)} title={s.description}>
              <span className="flex flex-col">
                <span>{s.title}</span>
                <span className="text-xs text-muted-foreground">{s.description}</span>
              </span>
            </DropdownMenuItem>
          ))}
        </DropdownMenuContent>
      </DropdownMenu>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button type="button" variant="outline" size="sm">
            <Sparkles aria-hidden /> Generate <ChevronDown aria-hidden />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="start">
          <DropdownMenuItem onSelect={() => setDialog("url")}>
            <Globe aria-hidden /> From a URL…
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setDialog("request")}>
            <Send aria-hidden /> From an API tester request…
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setDialog("har")}>
            <FileJson aria-hidden /> From a HAR recording…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <Dialog open={dialog !== null} onOpenChange={(o) => (o ? undefined : setDialog(null))}>
        <DialogContent className="max-w-lg">
          {dialog === "url" ? <FromUrlForm namespace={namespace} onDone={(g) => (setDialog(null), onGenerated(g))} onCancel={() => setDialog(null)} /> : null}
          {dialog === "request" ? <FromRequestForm namespace={namespace} onDone={(g) => (setDialog(null), onGenerated(g))} onCancel={() => setDialog(null)} /> : null}
          {dialog === "har" ? <FromHarForm namespace={namespace} onDone={(g) => (setDialog(null), onGenerated(g))} onCancel={() => setDialog(null)} /> : null}
        </DialogContent>
      </Dialog>
    </div>
  );
}

const selectClass = "h-9 w-full rounded-md border bg-background px-3 text-sm";

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

interface GenerateFormProps {
  namespace: string | undefined;
  onDone: (g: GeneratedScript) => void;
  onCancel: () => void;
}

/** The frame every "Generate" dialog shares: what it makes, the API's error, its fields, then Cancel and Generate script (enabled once `ready`). */
function GenerateForm({ title, description, error, ready, pending, onGenerate, onCancel, children }: { title: string; description: React.ReactNode; error: unknown; ready: boolean; pending: boolean; onGenerate: () => void; onCancel: () => void; children: React.ReactNode }) {
  return (
    <form
      className="flex flex-col gap-4"
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) onGenerate();
      }}
    >
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      <ApiErrorAlert error={error} />
      {children}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={!ready} pending={pending}>
          Generate script
        </Button>
      </DialogFooter>
    </form>
  );
}

/** One request typed in: the script sends it each iteration and checks for a 2xx. */
function FromUrlForm({ namespace, onDone, onCancel }: GenerateFormProps) {
  const trpc = useTRPC();
  const [method, setMethod] = useState("GET");
  const [url, setUrl] = useState("");
  const [body, setBody] = useState("");
  const generate = useMutation(trpc.perfScripts.fromConfig.mutationOptions({ onSuccess: (result) => onDone({ source: url, result }) }));
  return (
    <GenerateForm
      title="Generate from a URL"
      description={<>A script that sends this request in every iteration and checks for a 2xx answer; {"{{name}}"} in the URL becomes __ENV.name. It replaces the script in the editor.</>}
      error={generate.error}
      ready={!!url.trim()}
      pending={generate.isPending}
      onGenerate={() => generate.mutate({ namespace, request: { name: "Load test", requests: [{ method, url: url.trim(), headers: body.trim() ? { "Content-Type": "application/json" } : {}, ...(body.trim() ? { body } : {}) }] } })}
      onCancel={onCancel}
    >
      <div className="grid grid-cols-[7rem_1fr] gap-2">
        <Field label="Method" htmlFor="gen-method">
          {(aria) => (
            <select {...aria} className={selectClass} value={method} onChange={(e) => setMethod(e.target.value)}>
              {METHODS.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="URL" htmlFor="gen-url">
          {(aria) => <Input {...aria} autoFocus className="font-mono" placeholder="https://api.example.com/items" value={url} onChange={(e) => setUrl(e.target.value)} />}
        </Field>
      </div>
      {method !== "GET" && method !== "HEAD" ? (
        <Field label="JSON body" htmlFor="gen-body" hint="optional">
          {(aria) => <textarea {...aria} rows={4} className="rounded-md border bg-background px-3 py-2 font-mono text-xs" value={body} onChange={(e) => setBody(e.target.value)} />}
        </Field>
      ) : null}
    </GenerateForm>
  );
}

function FromRequestForm({ namespace, onDone, onCancel }: GenerateFormProps) {
  const trpc = useTRPC();
  const [collectionId, setCollectionId] = useState("");
  const [requestId, setRequestId] = useState("");
  const collections = useQuery(trpc.apiTester.collections.list.queryOptions({ namespace }, { enabled: !!namespace }));
  const requests = useQuery(trpc.apiTester.requests.list.queryOptions({ namespace, collectionId }, { enabled: !!namespace && !!collectionId }));
  const generate = useMutation(trpc.perfScripts.fromRequest.mutationOptions({ onSuccess: (result) => onDone({ source: "the request", result }) }));
  const list = collections.data?.collections ?? [];
  return (
    <GenerateForm
      title="Generate from an API tester request"
      description={<>The request becomes a k6 script with its auth, headers and body; its {"{{variables}}"} become __ENV values. The script replaces the one in the editor.</>}
      error={generate.error ?? collections.error ?? requests.error}
      ready={!!requestId}
      pending={generate.isPending}
      onGenerate={() => generate.mutate({ namespace, request: { requestId } })}
      onCancel={onCancel}
    >
      {collections.data && !list.length ? <p className="text-sm text-muted-foreground">This namespace has no collections yet. Save a request in the API tester first.</p> : null}
      <Field label="Collection" htmlFor="gen-collection">
        {(aria) => (
          <select {...aria} className={selectClass} value={collectionId} onChange={(e) => (setCollectionId(e.target.value), setRequestId(""))}>
            <option value="">Choose a collection</option>
            {list.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Request" htmlFor="gen-request">
        {(aria) => (
          <select {...aria} className={selectClass} value={requestId} disabled={!collectionId} onChange={(e) => setRequestId(e.target.value)}>
            <option value="">{requests.isLoading ? "Loading…" : "Choose a request"}</option>
            {(requests.data?.requests ?? []).map((r) => (
              <option key={r.id} value={r.id}>
                {r.method} {r.name}
              </option>
            ))}
          </select>
        )}
      </Field>
    </GenerateForm>
  );
}

function FromHarForm({ namespace, onDone, onCancel }: GenerateFormProps) {
  const trpc = useTRPC();
  const [har, setHar] = useState<{ name: string; text: string } | null>(null);
  const [includeStatic, setIncludeStatic] = useState(false);
  const [thinkTime, setThinkTime] = useState(true);
  const generate = useMutation(trpc.perfScripts.fromHar.mutationOptions({ onSuccess: (result) => onDone({ source: har?.name ?? "the HAR file", result }) }));
  return (
    <GenerateForm
      title="Generate from a HAR recording"
      description="Record a session in the browser's developer tools (Network → Save all as HAR); each page becomes a group, with the pauses between pages as think time. The script replaces the one in the editor."
      error={generate.error}
      ready={!!har}
      pending={generate.isPending}
      onGenerate={() => har && generate.mutate({ namespace, request: { har: har.text, includeStatic, thinkTime } })}
      onCancel={onCancel}
    >
      <Field label="HAR file" htmlFor="gen-har" hint={har ? `${har.name}, ${Math.round(har.text.length / 1024)} kB` : "a .har file (JSON)"}>
        {(aria) => <input {...aria} type="file" accept=".har,application/json" className="text-sm" onChange={async (e) => {
          const file = e.target.files?.[0];
          setHar(file ? { name: file.name, text: await file.text() } : null);
        }} />}
      </Field>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4 accent-primary" checked={includeStatic} onChange={(e) => setIncludeStatic(e.target.checked)} /> Keep images, style sheets, scripts and fonts
      </label>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" className="size-4 accent-primary" checked={thinkTime} onChange={(e) => setThinkTime(e.target.checked)} /> Sleep between pages as long as the recorded user paused
      </label>
    </GenerateForm>
  );
}
