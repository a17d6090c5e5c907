"use client";
// The API tester's import wizard: 1) choose the format, 2) upload or paste
// the document, 3) preview (the would-be tree of folders and requests with
// counts, warnings and items that will fail; nothing saved yet), 4) import,
// then open the new collection (or environment). Every format posts to
// /api/v1/api-tester/import/<format> with the same {data} body and
// `preview` flag, so one screen serves them all.
import { useQueryClient } from "@tanstack/react-query";
import { FileUp, Folder, FileText, Upload } from "lucide-react";
import Link from "next/link";
import { useId, useRef, useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { ApiError, postJson } from "@/components/lib/api-error";
import { cn } from "@/components/lib/cn";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { PageHeader } from "@/components/ui/page-header";
import type { ImportPreviewNode } from "@/server/contracts/tester-import";
import { useNamespace } from "../../../_components/namespace-context";
import { IMPORT_FORMATS, importFormat, importUrl, isEnvironmentAnswer, type ImportAnswer } from "./import-formats";

const TEXTAREA = "w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-xs shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40";

function PreviewTree({ nodes }: { nodes: ImportPreviewNode[] }) {
  return (
    <ul className="flex flex-col gap-1 pl-4" role="group">
      {nodes.map((node, i) =>
        node.type === "folder" ? (
          <li key={i} role="treeitem" aria-selected={false} aria-expanded aria-label={`Folder ${node.name}`}>
            <span className="flex items-center gap-1.5 font-medium">
              <Folder className="size-4 text-muted-foreground" aria-hidden />
              {node.name}
            </span>
            {node.items.length ? <PreviewTree nodes={node.items} /> : <p className="pl-6 text-xs text-muted-foreground">empty</p>}
          </li>
        ) : (
          <li key={i} role="treeitem" aria-selected={false} aria-label={`Request ${node.name}`} className="flex min-w-0 items-center gap-2">
            <Badge variant="outline" className="font-mono">
              {node.method}
            </Badge>
            <span className="truncate">{node.name}</span>
            <span className="truncate font-mono text-xs text-muted-foreground">{node.url}</span>
          </li>
        ),
      )}
    </ul>
  );
}

/** The 400's details: which field of the document is wrong. */
function ErrorDetails({ error }: { error: unknown }) {
  if (!(error instanceof ApiError) || !Object.keys(error.fieldErrors).length) return null;
  return (
    <ul className="list-disc pl-5 text-xs" aria-label="Where the document is wrong">
      {Object.entries(error.fieldErrors).map(([field, message]) => (
        <li key={field}>
          <code>{field || "(document)"}</code>: {message}
        </li>
      ))}
    </ul>
  );
}

function Summary({ answer }: { answer: ImportAnswer }) {
  if (isEnvironmentAnswer(answer)) {
    return (
      <p data-testid="import-counts">
        Environment “{answer.name}”: {answer.imported.variables} variables ({answer.imported.secrets} secret)
      </p>
    );
  }
  return (
    <p data-testid="import-counts">
      “{answer.name}”: {answer.imported.folders} folder{answer.imported.folders === 1 ? "" : "s"}, {answer.imported.requests} request{answer.imported.requests === 1 ? "" : "s"}
      {answer.imported.variables ? `, ${answer.imported.variables} variables` : ""}
      {answer.summary.failedCount ? `; ${answer.summary.failedCount} item${answer.summary.failedCount === 1 ? "" : "s"} will not be imported` : ""}
    </p>
  );
}

function Findings({ answer }: { answer: ImportAnswer }) {
  const failures = isEnvironmentAnswer(answer) ? [] : answer.failures;
  const failedCount = isEnvironmentAnswer(answer) ? 0 : answer.summary.failedCount;
  return (
    <>
      {failures.length ? (
        <Alert variant="error" title={`${failedCount} item${failedCount === 1 ? "" : "s"} cannot be imported`}>
          <ul className="list-disc pl-5 text-xs">
            {failures.map((f, i) => (
              <li key={i}>
                <code>{f.path}</code> {f.name ? `“${f.name}”` : ""}: {f.reason}
              </li>
            ))}
          </ul>
          {failedCount > failures.length ? <p className="text-xs">…and {failedCount - failures.length} more</p> : null}
        </Alert>
      ) : null}
      {answer.warnings.length ? (
        <Alert variant="warning" title={`${answer.warnings.length} warning${answer.warnings.length === 1 ? "" : "s"}: not everything can be kept`}>
          <ul className="list-disc pl-5 text-xs" data-testid="import-warnings">
            {answer.warnings.map((w, i) => (
              <li key={i}>
                <code>{w.path}</code>: {w.message}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
    </>
  );
}

export function ImportWizard() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { current, hrefWithNs } = useNamespace();
  const namespace = current?.name;
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = useId();
  const [formatId, setFormatId] = useState(IMPORT_FORMATS[0].id);
  const [text, setText] = useState("");
  const [fileName, setFileName] = useState<string | null>(null);
  const [name, setName] = useState("");
  const [preview, setPreview] = useState<ImportAnswer | null>(null);
  const [done, setDone] = useState<ImportAnswer | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState<"preview" | "import" | null>(null);
  const format = importFormat(formatId);

  const reset = () => {
    setPreview(null);
    setDone(null);
    setError(null);
  };

  const send = async (mode: "preview" | "import") => {
    setBusy(mode);
    setError(null);
    try {
      const answer = await postJson<ImportAnswer>(importUrl(format.id, namespace, mode === "preview"), { data: text, ...(name.trim() ? { name: name.trim() } : {}) });
      if (mode === "preview") setPreview(answer);
      else {
        setDone(answer);
        void queryClient.invalidateQueries({ queryKey: trpc.apiTester.pathKey() });
        toast.success(`Imported “${answer.name}”`);
      }
    } catch (err) {
      setError(err);
      if (mode === "preview") setPreview(null);
    } finally {
      setBusy(null);
    }
  };

  const readFile = async (file: File) => {
    reset();
    setFileName(file.name);
    setText(await file.text());
  };

  return (
    <div className="flex flex-col gap-4">
      <PageHeader
        title="Import into the API tester"
        description="Bring in collections from Postman, OpenAPI, WSDL, .proto, GraphQL, MCP, HAR, SoapUI, JMeter or a native export. Preview what will be created, then import."
        actions={
          <Button asChild variant="outline" size="sm">
            <Link href={hrefWithNs("/tester")}>Back to the workspace</Link>
          </Button>
        }
      />

      <Card>
        <CardHeader>
          <CardTitle>1. Format</CardTitle>
        </CardHeader>
        <CardContent>
          <fieldset className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
            <legend className="sr-only">Format</legend>
            {IMPORT_FORMATS.map((f) => (
              <label
                key={f.id}
                className={cn("flex cursor-pointer flex-col gap-0.5 rounded-lg border p-3 text-sm has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring/40", f.id === formatId && "border-primary bg-primary/5")}
              >
                <span className="flex items-center gap-2 font-medium">
                  <input type="radio" name={`${ids}-format`} value={f.id} checked={f.id === formatId} onChange={() => (setFormatId(f.id), reset())} />
                  {f.label}
                </span>
                <span className="text-xs text-muted-foreground">{f.hint}</span>
              </label>
            ))}
          </fieldset>
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>2. Document</CardTitle>
          <CardDescription>Choose a file or paste the document.</CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center gap-2">
            <input
              ref={fileInput}
              type="file"
              accept={format.accept}
              className="sr-only"
              aria-label="Document file"
              data-testid="import-file"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void readFile(file);
                e.target.value = "";
              }}
            />
            <Button type="button" variant="outline" size="sm" onClick={() => fileInput.current?.click()}>
              <FileUp aria-hidden /> Choose file
            </Button>
            {fileName ? (
              <span className="flex items-center gap-1 text-sm text-muted-foreground">
                <FileText className="size-4" aria-hidden /> {fileName}
              </span>
            ) : null}
          </div>
          <Label htmlFor={`${ids}-text`}>Document</Label>
          <textarea
            id={`${ids}-text`}
            rows={10}
            className={TEXTAREA}
            value={text}
            placeholder={format.id === "mcp" ? "https://mcp.example.com/mcp" : "Paste the document here"}
            onChange={(e) => (setText(e.target.value), setFileName(null), reset())}
          />
          <Label htmlFor={`${ids}-name`}>Name (optional)</Label>
          <Input id={`${ids}-name`} value={name} placeholder={`the ${format.creates}'s name from the document`} onChange={(e) => setName(e.target.value)} />
          <div className="flex gap-2">
            <Button type="button" disabled={!text.trim() || busy !== null || !namespace} onClick={() => void send("preview")}>
              {busy === "preview" ? "Reading…" : "Preview"}
            </Button>
          </div>
        </CardContent>
      </Card>

      {error ? (
        <div className="flex flex-col gap-2">
          <ApiErrorAlert error={error} title="The document cannot be imported" />
          <ErrorDetails error={error} />
        </div>
      ) : null}

      {preview && !done ? (
        <Card aria-label="Preview">
          <CardHeader>
            <CardTitle>3. Preview</CardTitle>
            <CardDescription>Nothing is saved yet.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-3">
            <Summary answer={preview} />
            {!isEnvironmentAnswer(preview) && preview.tree ? (
              <div role="tree" aria-label="Collection preview" className="max-h-[28rem] overflow-auto rounded-md border p-2 text-sm">
                {preview.tree.length ? <PreviewTree nodes={preview.tree} /> : <p className="text-muted-foreground">The collection will be empty.</p>}
              </div>
            ) : null}
            {isEnvironmentAnswer(preview) ? (
              <ul className="text-sm" aria-label="Variables">
                {preview.variables.map((v) => (
                  <li key={v.key}>
                    <code>{v.key}</code> {v.secret ? <Badge variant="warning">secret</Badge> : null}
                  </li>
                ))}
              </ul>
            ) : null}
            <Findings answer={preview} />
            <div>
              <Button type="button" disabled={busy !== null} onClick={() => void send("import")}>
                <Upload aria-hidden /> {busy === "import" ? "Importing…" : "Import"}
              </Button>
            </div>
          </CardContent>
        </Card>
      ) : null}

      {done ? (
        <Alert variant={isEnvironmentAnswer(done) || !done.summary.failedCount ? "success" : "warning"} title="Imported">
          <Summary answer={done} />
          {!isEnvironmentAnswer(done) && done.failures.length ? <Findings answer={{ ...done, warnings: [] }} /> : null}
          <div className="mt-2 flex gap-2">
            {isEnvironmentAnswer(done) ? (
              <Button asChild size="sm">
                <Link href={hrefWithNs(`/tester/environments?env=${done.environmentId}`)}>Open the environment</Link>
              </Button>
            ) : (
              <>
                <Button asChild size="sm">
                  <Link href={hrefWithNs("/tester")}>Open the collection</Link>
                </Button>
                <Button asChild size="sm" variant="outline">
                  <Link href={hrefWithNs(`/tester/runner?collection=${done.collectionId}`)}>Run it</Link>
                </Button>
              </>
            )}
            <Button type="button" size="sm" variant="ghost" onClick={() => (reset(), setText(""), setFileName(null), setName(""))}>
              Import another
            </Button>
          </div>
        </Alert>
      ) : null}
    </div>
  );
}
