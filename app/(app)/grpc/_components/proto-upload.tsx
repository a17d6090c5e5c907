"use client";
// Upload .proto files: pick or drop them (several at once), or paste one.
// Each staged file keeps an editable name, because the name is the import
// path other files use (`import "acme/types.proto";`). All staged files go up
// together, so files that import each other are checked as one set.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ClipboardPaste, FileUp, Upload, X } from "lucide-react";
import { useRef, useState } from "react";
import { toast } from "sonner";
import { useTRPC } from "@/app/_trpc/client";
import { fieldErrorsOf } from "@/components/lib/api-error";
import { cn } from "@/components/lib/cn";
import { ApiErrorAlert } from "@/components/ui/api-error-alert";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { useNamespace } from "../../_components/namespace-context";

interface Staged {
  name: string;
  content: string;
}

const TEXTAREA = "w-full rounded-md border border-input bg-background px-3 py-2 font-mono text-xs shadow-xs outline-none focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40";

export function ProtoUpload() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const namespace = useNamespace().current?.name;
  const input = useRef<HTMLInputElement>(null);
  const [staged, setStaged] = useState<Staged[]>([]);
  const [dragging, setDragging] = useState(false);
  const [pasteName, setPasteName] = useState("");
  const [pasteText, setPasteText] = useState("");
  const upload = useMutation(
    trpc.grpcProtos.upload.mutationOptions({
      onSuccess: (list, vars) => {
        void queryClient.invalidateQueries({ queryKey: trpc.grpcProtos.pathKey() });
        toast.success(`Uploaded ${vars.files.length === 1 ? `“${vars.files[0]!.name}”` : `${vars.files.length} files`}; the namespace has ${list.count} .proto file${list.count === 1 ? "" : "s"}`);
        setStaged([]);
      },
    }),
  );
  const problems = fieldErrorsOf(upload.error);

  const stage = (files: Staged[]) => {
    upload.reset();
    setStaged((prev) => [...prev.filter((p) => !files.some((f) => f.name === p.name)), ...files]);
  };
  async function addFiles(list: FileList | null) {
    if (!list?.length) return;
    stage(await Promise.all([...list].map(async (f) => ({ name: f.name, content: await f.text() }))));
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Upload .proto files</CardTitle>
        <CardDescription>
          The runner serves every service they define on its gRPC port, with reflection. Files that import each other go up together; a file&apos;s name is its import path, and a file with the same name is replaced.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <div
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(e) => {
            e.preventDefault();
            setDragging(false);
            void addFiles(e.dataTransfer.files);
          }}
          className={cn("flex flex-col items-center gap-3 rounded-lg border border-dashed px-6 py-6 text-center text-sm text-muted-foreground", dragging && "border-primary bg-primary/5")}
        >
          <FileUp className="size-5" aria-hidden />
          <p>Drop .proto files here, or</p>
          <input
            ref={input}
            type="file"
            accept=".proto"
            multiple
            className="sr-only"
            aria-label="Choose .proto files"
            onChange={(e) => {
              void addFiles(e.target.files);
              e.target.value = "";
            }}
          />
          <Button type="button" variant="outline" onClick={() => input.current?.click()}>
            Choose files
          </Button>
        </div>
        <details className="rounded-lg border px-4 py-3">
          <summary className="cursor-pointer text-sm font-medium">
            <ClipboardPaste className="mr-2 inline size-4" aria-hidden />
            Paste a file instead
          </summary>
          <div className="mt-3 flex flex-col gap-3">
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="paste-name">File name (its import path)</Label>
              <Input id="paste-name" placeholder="acme/greeter.proto" value={pasteName} onChange={(e) => setPasteName(e.target.value)} />
            </div>
            <div className="flex flex-col gap-1.5">
              <Label htmlFor="paste-content">.proto text</Label>
              <textarea id="paste-content" rows={8} className={TEXTAREA} placeholder={'syntax = "proto3";\npackage acme;\n…'} value={pasteText} onChange={(e) => setPasteText(e.target.value)} />
            </div>
            <div>
              <Button
                type="button"
                variant="outline"
                disabled={!pasteName.trim() || !pasteText.trim()}
                onClick={() => {
                  stage([{ name: pasteName.trim(), content: pasteText }]);
                  setPasteName("");
                  setPasteText("");
                }}
              >
                Add pasted file
              </Button>
            </div>
          </div>
        </details>
        {staged.length ? (
          <div className="flex flex-col gap-2" role="group" aria-label="Files to upload">
            <p className="text-sm font-medium">Files to upload</p>
            {staged.map((f, i) => {
              const problem = problems[`files.${i}.content`] ?? problems[`files.${i}.name`];
              return (
                <div key={i} className="flex flex-col gap-1">
                  <div className="flex items-center gap-2">
                    <Input aria-label={`Name of file ${i + 1}`} aria-invalid={problem ? true : undefined} className="font-mono text-xs" value={f.name} onChange={(e) => setStaged((s) => s.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))} />
                    <span className="shrink-0 text-xs text-muted-foreground tabular-nums">{f.content.split("\n").length} lines</span>
                    <Button type="button" variant="ghost" size="icon-sm" aria-label={`Remove ${f.name}`} onClick={() => setStaged((s) => s.filter((_, j) => j !== i))}>
                      <X aria-hidden />
                    </Button>
                  </div>
                  {problem ? <p className="text-xs font-medium text-destructive">{problem}</p> : null}
                </div>
              );
            })}
            <ApiErrorAlert error={upload.error} title="Nothing was uploaded" />
            <div>
              <Button type="button" pending={upload.isPending} onClick={() => upload.mutate({ namespace, files: staged })}>
                <Upload aria-hidden /> Upload {staged.length === 1 ? "1 file" : `${staged.length} files`}
              </Button>
            </div>
          </div>
        ) : null}
      </CardContent>
    </Card>
  );
}
