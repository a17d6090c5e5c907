"use client";
// The other way round from the Import card: the namespace's mocks out as a
// specification (HTTP mocks as OpenAPI 3.0, Kafka, RabbitMQ and NATS mocks
// as AsyncAPI 2.6), downloaded as JSON, with a warning for each mock the
// format cannot express. Each export is recorded in the audit log.
import { useMutation } from "@tanstack/react-query";
import { FileDown } from "lucide-react";
import { useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { SpecFormat, SpecResponse } from "@/server/contracts/spec-builder";

const FORMATS: Record<SpecFormat, { label: string; file: string }> = {
  openapi: { label: "OpenAPI 3.0 (HTTP mocks)", file: "openapi" },
  asyncapi: { label: "AsyncAPI 2.6 (Kafka, RabbitMQ, NATS mocks)", file: "asyncapi" },
};

/** Saves the document as a JSON file through a Blob (nothing leaves the browser but the download). */
function download(spec: SpecResponse["spec"], name: string) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(spec, null, 2)], { type: "application/json" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function ExportSpecCard({ namespace }: { namespace: string | undefined }) {
  const trpc = useTRPC();
  const [format, setFormat] = useState<SpecFormat>("openapi");
  const [title, setTitle] = useState("");
  const [version, setVersion] = useState("");
  const [serverUrl, setServerUrl] = useState("");
  const [tags, setTags] = useState("");
  const exported = useMutation(
    trpc.generators.spec.mutationOptions({
      onSuccess: (r, vars) => {
        download(r.spec, `${vars.namespace ?? "mocks"}-${FORMATS[vars.request.format].file}.json`);
        toast.success(`${r.stats.exported} of ${r.stats.considered} mocks exported`);
      },
    }),
  );
  const run = () => {
    if (!namespace || exported.isPending) return;
    const list = tags.split(",").map((t) => t.trim()).filter(Boolean);
    exported.mutate({
      namespace,
      request: {
        format,
        ...(title.trim() ? { title: title.trim() } : {}),
        ...(version.trim() ? { version: version.trim() } : {}),
        ...(serverUrl.trim() ? { serverUrl: serverUrl.trim() } : {}),
        ...(list.length ? { tags: list } : {}),
      },
    });
  };
  const result = exported.data;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Export specification</CardTitle>
        <CardDescription>The namespace&apos;s mocks as a document other tools read: HTTP mocks as OpenAPI 3.0, Kafka, RabbitMQ and NATS mocks as AsyncAPI 2.6. Importing it here gives the mocks back.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div className="grid gap-4 sm:grid-cols-2">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="export-format">Specification format</Label>
            <Select
              value={format}
              onValueChange={(v) => {
                setFormat(v as SpecFormat);
                exported.reset();
              }}
            >
              <SelectTrigger id="export-format">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {(Object.keys(FORMATS) as SpecFormat[]).map((f) => (
                  <SelectItem key={f} value={f}>
                    {FORMATS[f].label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="export-tags">Only mocks tagged</Label>
            <Input id="export-tags" placeholder="optional, comma-separated (a mock needs them all)" value={tags} onChange={(e) => setTags(e.target.value)} />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="export-title">Title</Label>
            <Input id="export-title" placeholder={`optional, default: ${namespace ?? "namespace"} ${format === "openapi" ? "HTTP" : "messaging"} mocks`} value={title} onChange={(e) => setTitle(e.target.value)} />
          </div>
          <div className="flex flex-col gap-1.5">
            <Label htmlFor="export-version">Version</Label>
            <Input id="export-version" placeholder="optional, default 1.0.0" value={version} onChange={(e) => setVersion(e.target.value)} />
          </div>
          <div className="flex flex-col gap-1.5 sm:col-span-2">
            <Label htmlFor="export-server-url">Server URL</Label>
            <Input id="export-server-url" placeholder={format === "openapi" ? `optional, default /stubs/${namespace ?? "<namespace>"}` : "optional, e.g. broker.example.com:9092"} value={serverUrl} onChange={(e) => setServerUrl(e.target.value)} />
          </div>
        </div>
        <div>
          <Button type="button" onClick={run} disabled={!namespace || exported.isPending}>
            <FileDown aria-hidden /> {exported.isPending ? "Exporting…" : "Export"}
          </Button>
        </div>
        <ApiErrorAlert error={exported.error} title="Nothing was exported" />
        {result ? (
          <p className="text-sm" role="status">
            {result.stats.exported} of {result.stats.considered} mock{result.stats.considered === 1 ? "" : "s"} exported; the document was downloaded.
          </p>
        ) : null}
        {result?.warnings.length ? (
          <Alert variant="warning" title={`${result.warnings.length} warning${result.warnings.length === 1 ? "" : "s"}`}>
            <ul className="list-disc pl-4 text-sm">
              {result.warnings.map((w, i) => (
                <li key={i}>
                  <span className="font-mono text-xs">{w.mockId}</span> <span className="text-muted-foreground">({w.route})</span>: {w.reason}
                </li>
              ))}
            </ul>
          </Alert>
        ) : null}
      </CardContent>
    </Card>
  );
}
