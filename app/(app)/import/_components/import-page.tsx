"use client";
// Mocks from a contract: paste, upload or point at a document, preview the
// mocks it gives (with the generator's warnings and, per mock, whether it is
// new, changes an existing mock, or is unchanged), pick which to keep, create.
// Generating again from the same document updates the same mocks.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { FileInput, FileUp, ListChecks } from "lucide-react";
import Link from "next/link";
import { useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { cn } from "@/components/lib/cn";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DataTable, type DataColumn } from "@/components/ui/data-table";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { GeneratorKind, GeneratorResponse } from "@/server/contracts/generators";
import { useNamespace } from "../../_components/namespace-context";
import { ProtocolBadge } from "../../mocks/_components/protocol-badge";
import { ExportSpecCard } from "./export-spec-card";

type Row = GeneratorResponse["mocks"][number];

/** What each format takes, for the format picker, the file chooser and the placeholder. */
// `url`: what the URL tab asks for when it is not a document to fetch (MCP: a live server).
const FORMATS: Record<GeneratorKind, { label: string; accept: string; placeholder: string; files: string; url?: { label: string; placeholder: string } }> = {
  openapi: { label: "OpenAPI 3.0/3.1 or Swagger 2.0", accept: ".json,.yaml,.yml", files: "openapi.yaml, swagger.json…", placeholder: "openapi: 3.0.3\ninfo: {title: Shop, version: '1'}\npaths:\n  /items/{id}:\n    get:\n      responses: …" },
  graphql: { label: "GraphQL schema (SDL or introspection)", accept: ".graphql,.gql,.graphqls,.json", files: "schema.graphql, introspection.json…", placeholder: "type Query {\n  book(id: ID!): Book\n}\ntype Book { id: ID! title: String! }" },
  soap: { label: "SOAP: WSDL 1.1", accept: ".wsdl,.xml", files: "service.wsdl, service.asmx?wsdl…", placeholder: '<wsdl:definitions name="Shop" targetNamespace="urn:shop"\n    xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/" …>\n  <wsdl:types>…</wsdl:types>\n  <wsdl:service name="Shop">…</wsdl:service>\n</wsdl:definitions>' },
  grpc: { label: "gRPC (.proto)", accept: ".proto", files: "greeter.proto…", placeholder: 'syntax = "proto3";\npackage shop;\nservice Orders {\n  rpc Get(GetOrder) returns (Order);\n}\nmessage GetOrder { string id = 1; }\nmessage Order { string id = 1; string state = 2; }' },
  har: { label: "HAR recording (browser or proxy traffic)", accept: ".har,.json", files: "traffic.har…", placeholder: '{"log": {"version": "1.2", "entries": [\n  {"request": {"method": "GET", "url": "https://api.example/items?page=1", "headers": []},\n   "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}],\n                "content": {"mimeType": "application/json", "text": "[{\\"id\\": 1}]"}}}\n]}}' },
  socket: { label: "Socket events (WebSocket, TCP, UDP)", accept: ".json,.yaml,.yml", files: "sockets.yaml…", placeholder: "title: Chat\nservers:\n  - name: chat            # ws://host/stubs/<namespace>/chat, or the TCP/UDP server so named\n    events:\n      - event: join\n        match: {room: lobby}\n        reply: {joined: true, user: $.req.user}\n      - event: ping\n        reply: pong" },
  mcp: { label: "MCP server (URL) or tools/prompts list", accept: ".json,.yaml,.yml", files: "tools.json, prompts.yaml…", placeholder: '{"tools": [{"name": "get_weather", "description": "Current weather",\n  "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}}}],\n "prompts": [{"name": "greet", "arguments": [{"name": "name", "required": true}]}]}', url: { label: "MCP server URL (Streamable HTTP or SSE)", placeholder: "https://mcp.example.com/mcp" } },
  asyncapi: { label: "AsyncAPI 2.x/3.0 (Kafka, RabbitMQ, NATS)", accept: ".json,.yaml,.yml", files: "asyncapi.yaml…", placeholder: "asyncapi: 3.0.0\ninfo: {title: Orders, version: '1'}\nservers:\n  broker: {host: 'localhost:4222', protocol: nats}\nchannels: …\noperations: …" },
};
type Source = "paste" | "file" | "url";

const TEXTAREA = "w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-xs shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40";
const STATUS: Record<Row["status"], { label: string; variant: "success" | "warning" | "secondary" | "default" }> = {
  new: { label: "new", variant: "success" },
  update: { label: "changes a mock", variant: "warning" },
  unchanged: { label: "unchanged", variant: "secondary" },
  created: { label: "created", variant: "success" },
  updated: { label: "updated", variant: "warning" },
  skipped: { label: "skipped", variant: "secondary" },
};

export function ImportPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const fileInput = useRef<HTMLInputElement>(null);
  const [kind, setKind] = useState<GeneratorKind>("openapi");
  const [source, setSource] = useState<Source>("paste");
  const [text, setText] = useState("");
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [url, setUrl] = useState("");
  const [pathPrefix, setPathPrefix] = useState("");
  const [tags, setTags] = useState("");
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [expanded, setExpanded] = useState<string | null>(null);
  const [result, setResult] = useState<GeneratorResponse | null>(null);

  const request = () => ({
    ...(source === "url" ? { url: url.trim() } : { document: source === "file" ? (file?.content ?? "") : text }),
    ...(pathPrefix.trim() ? { pathPrefix: pathPrefix.trim() } : {}),
    ...(tags.trim() ? { tags: tags.split(",").map((t) => t.trim()).filter(Boolean) } : {}),
  });
  const preview = useMutation(
    trpc.generators.preview.mutationOptions({
      onSuccess: (r) => {
        setResult(r);
        setExpanded(null);
        // What would change is picked; unchanged mocks have nothing to do.
        setSelected(new Set(r.mocks.filter((m) => m.status !== "unchanged").map((m) => m.id)));
      },
    }),
  );
  const generate = useMutation(
    trpc.generators.generate.mutationOptions({
      onSuccess: (r) => {
        setResult(r);
        setSelected(new Set());
        void queryClient.invalidateQueries({ queryKey: trpc.mocks.pathKey() });
        toast.success(`${r.created} created, ${r.updated} updated, ${r.skipped} left as they were`);
      },
    }),
  );
  // The namespace comes from the URL once the console has loaded the caller's namespaces.
  const ready = !!namespace && (source === "url" ? url.trim() !== "" : source === "file" ? !!file : text.trim() !== "");
  const runPreview = () => {
    if (!ready || preview.isPending) return;
    generate.reset();
    preview.mutate({ namespace, kind, request: request() });
  };
  const generated = generate.isSuccess && result === generate.data;

  const columns: DataColumn<Row>[] = useMemo(
    () => [
      { id: "summary", header: "Operation", cell: (m) => <span className="font-mono text-xs">{m.summary}</span> },
      { id: "protocol", header: "Protocol", cell: (m) => <ProtocolBadge protocol={m.protocol} /> },
      { id: "id", header: "Mock id", cell: (m) => <span className="font-mono text-xs text-muted-foreground">{m.id}</span> },
      {
        id: "status",
        header: "Status",
        cell: (m) => <Badge variant={STATUS[m.status].variant}>{STATUS[m.status].label}</Badge>,
      },
      {
        id: "details",
        header: "",
        srHeader: "Details",
        cell: (m) => (
          <Button type="button" variant="ghost" size="sm" aria-expanded={expanded === m.id} aria-label={`Details of ${m.summary}`} onClick={() => setExpanded(expanded === m.id ? null : m.id)}>
            {expanded === m.id ? "Hide" : "Show"}
          </Button>
        ),
      },
    ],
    [expanded],
  );

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title="Import" description="Mocks from a contract or from recorded traffic: OpenAPI, GraphQL, WSDL, .proto, HAR, MCP, AsyncAPI and socket event documents. Preview them, pick which to keep, create; importing the same document again updates the same mocks. Below, export the namespace's mocks as OpenAPI or AsyncAPI." />
      <Card>
        <CardHeader>
          <CardTitle>Document</CardTitle>
          <CardDescription>Only references inside the document are followed; a URL is fetched by the server under the outbound policy.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-4">
          <div className="flex max-w-sm flex-col gap-1.5">
            <Label htmlFor="import-format">Format</Label>
            <Select
              value={kind}
              onValueChange={(v) => {
                setKind(v as GeneratorKind);
                setResult(null);
                preview.reset();
              }}
            >
              <SelectTrigger id="import-format">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {(Object.keys(FORMATS) as GeneratorKind[]).map((k) => (
                  <SelectItem key={k} value={k}>
                    {FORMATS[k].label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <Tabs value={source} onValueChange={(v) => setSource(v as Source)}>
            <TabsList aria-label="Where the document comes from">
              <TabsTrigger value="paste">Paste</TabsTrigger>
              <TabsTrigger value="file">Upload a file</TabsTrigger>
              <TabsTrigger value="url">From a URL</TabsTrigger>
            </TabsList>
            <TabsContent value="paste" className="pt-3">
              <Label htmlFor="import-text" className="sr-only">
                Document text
              </Label>
              <textarea
                id="import-text"
                rows={14}
                className={TEXTAREA}
                placeholder={FORMATS[kind].placeholder}
                value={text}
                onChange={(e) => setText(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
                    e.preventDefault();
                    runPreview();
                  }
                }}
              />
              <p className="mt-1 text-xs text-muted-foreground">Ctrl+Enter previews.</p>
            </TabsContent>
            <TabsContent value="file" className="pt-3">
              <div className="flex items-center gap-3 rounded-lg border border-dashed px-4 py-4 text-sm text-muted-foreground">
                <FileUp className="size-5" aria-hidden />
                <input
                  ref={fileInput}
                  type="file"
                  accept={FORMATS[kind].accept}
                  className="sr-only"
                  aria-label="Choose a document"
                  onChange={async (e) => {
                    const f = e.target.files?.[0];
                    if (f) setFile({ name: f.name, content: await f.text() });
                    e.target.value = "";
                  }}
                />
                <Button type="button" variant="outline" onClick={() => fileInput.current?.click()}>
                  Choose a file
                </Button>
                <span>{file ? `${file.name} (${Math.ceil(file.content.length / 1024)} KB)` : FORMATS[kind].files}</span>
              </div>
            </TabsContent>
            <TabsContent value="url" className="pt-3">
              <Label htmlFor="import-url">{FORMATS[kind].url?.label ?? "Document URL"}</Label>
              <Input id="import-url" className="mt-1.5" placeholder={FORMATS[kind].url?.placeholder ?? "https://api.example.com/openapi.json"} value={url} onChange={(e) => setUrl(e.target.value)} onKeyDown={(e) => e.key === "Enter" && runPreview()} />
            </TabsContent>
          </Tabs>
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="import-path-prefix">Path prefix</Label>
              <Input id="import-path-prefix" placeholder="optional, e.g. /v3" value={pathPrefix} onChange={(e) => setPathPrefix(e.target.value)} />
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="import-tags">Tags</Label>
              <Input id="import-tags" placeholder="optional, comma-separated" value={tags} onChange={(e) => setTags(e.target.value)} />
            </div>
          </div>
          <div>
            <Button type="button" onClick={runPreview} disabled={!ready || preview.isPending}>
              <ListChecks aria-hidden /> {preview.isPending ? "Reading the document…" : "Preview mocks"}
            </Button>
          </div>
          <ApiErrorAlert error={preview.error} title="The document could not be read" />
        </CardContent>
      </Card>

      {result ? (
        <section aria-label="Mocks from the document" className="flex flex-col gap-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="text-sm" role="status">
              {generated
                ? `${result.created} created, ${result.updated} updated, ${result.skipped} left as they were.`
                : `${result.mocks.length} mock${result.mocks.length === 1 ? "" : "s"}: ${result.created} new, ${result.updated} changing an existing mock, ${result.skipped} unchanged.`}
            </p>
            {generated ? (
              <Button asChild variant="outline">
                <Link href={hrefWithNs("/mocks")}>Open the mocks</Link>
              </Button>
            ) : (
              <Button type="button" disabled={selected.size === 0 || generate.isPending} onClick={() => generate.mutate({ namespace, kind, request: { ...request(), mockIds: [...selected] } })}>
                <FileInput aria-hidden /> {generate.isPending ? "Creating…" : `Create ${selected.size} selected`}
              </Button>
            )}
          </div>
          <ApiErrorAlert error={generate.error} title="Nothing was created" />
          {result.warnings.length ? (
            <Alert variant="warning" title={`${result.warnings.length} warning${result.warnings.length === 1 ? "" : "s"}`}>
              <ul className="list-disc pl-4 text-sm">
                {result.warnings.map((w, i) => (
                  <li key={i}>
                    {w.message}
                    {w.pointer ? <span className="ml-1 font-mono text-xs text-muted-foreground">at {w.pointer}</span> : null}
                  </li>
                ))}
              </ul>
            </Alert>
          ) : null}
          <DataTable
            label="Mocks from the document"
            columns={columns}
            data={result.mocks}
            rowKey={(m) => m.id}
            empty={{ icon: FileInput, title: "No mocks", body: "The document describes no operations with responses." }}
            search={{ label: "Search the mocks", placeholder: "Filter by operation or id", text: (m) => `${m.summary} ${m.id}` }}
            selection={
              generated
                ? undefined
                : {
                    selected,
                    onChange: (keys, on) =>
                      setSelected((prev) => {
                        const next = new Set(prev);
                        for (const k of keys) if (on) next.add(k);
                        else next.delete(k);
                        return next;
                      }),
                    label: (m) => `Select ${m.summary}`,
                    allLabel: "Select every shown mock",
                  }
            }
            expandedKey={expanded}
            renderDetails={(m) => <pre className={cn("max-h-80 overflow-auto rounded-md bg-muted p-3 font-mono text-xs")}>{JSON.stringify(m.mock, null, 2)}</pre>}
          />
        </section>
      ) : null}
      <ExportSpecCard namespace={namespace} />
    </div>
  );
}
