"use client";
// multipart/form-data parts: text or file per row (a file is read in the
// browser to base64 and saved in the request), with the same empty last row
// as the key/value editor.
import { FileUp, Trash2 } from "lucide-react";
import { useId, useState } from "react";
import { cn } from "@/components/lib/cn";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import type { FormDataPart } from "@/server/contracts/tester-request";
import { readFileAsBase64 } from "./file-base64";
import { base64Bytes, formatBytes } from "./format";

const CELL = "h-8 w-full rounded-sm border border-transparent bg-transparent px-2 font-mono text-sm outline-none hover:border-input focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/40";

export function FormDataEditor({ parts, onChange }: { parts: readonly FormDataPart[]; onChange: (parts: FormDataPart[]) => void }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  const all: FormDataPart[] = [...parts, { key: "", type: "text", value: "", enabled: true }];
  const update = (i: number, patch: Partial<FormDataPart>) => {
    if (i === parts.length) onChange([...parts, { key: "", type: "text", value: "", enabled: true, ...patch }]);
    else onChange(parts.map((p, j) => (j === i ? { ...p, ...patch } : p)));
  };
  const pick = async (i: number, file: File | undefined) => {
    if (!file) return;
    setError(null);
    try {
      const f = await readFileAsBase64(file);
      update(i, { type: "file", fileName: f.fileName, contentType: f.contentType, contentBase64: f.contentBase64, value: "" });
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <div className="overflow-x-auto rounded-md border">
        <table aria-label="Form data parts" className="w-full table-fixed text-sm">
          <thead className="border-b bg-muted/40 text-xs text-muted-foreground">
            <tr>
              <th scope="col" className="w-9">
                <span className="sr-only">Enabled</span>
              </th>
              <th scope="col" className="px-2 py-1.5 text-left font-medium">
                Key
              </th>
              <th scope="col" className="w-24 px-2 py-1.5 text-left font-medium">
                Type
              </th>
              <th scope="col" className="px-2 py-1.5 text-left font-medium">
                Value
              </th>
              <th scope="col" className="w-10">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {all.map((p, i) => {
              const ghost = i === parts.length;
              const inputId = `${id}-file-${i}`;
              return (
                <tr key={i} className={cn("group border-b last:border-0", !p.enabled && !ghost && "text-muted-foreground")}>
                  <td className="px-2 py-1">{ghost ? null : <Checkbox aria-label={`Enable part ${i + 1}`} checked={p.enabled} onCheckedChange={(c) => update(i, { enabled: c === true })} />}</td>
                  <td className="px-1 py-1">
                    <input aria-label={`Part ${i + 1} key`} className={CELL} placeholder={ghost ? "Add key" : "Key"} value={p.key} spellCheck={false} onChange={(e) => update(i, { key: e.target.value })} />
                  </td>
                  <td className="px-1 py-1">
                    <select
                      aria-label={`Part ${i + 1} type`}
                      className="h-8 w-full rounded-sm border border-input bg-background px-1 text-sm outline-none focus-visible:ring-2 focus-visible:ring-ring/40"
                      value={p.type}
                      onChange={(e) => update(i, { type: e.target.value as FormDataPart["type"] })}
                    >
                      <option value="text">Text</option>
                      <option value="file">File</option>
                    </select>
                  </td>
                  <td className="px-1 py-1">
                    {p.type === "file" ? (
                      <div className="flex min-w-0 items-center gap-2">
                        <input id={inputId} type="file" className="sr-only" tabIndex={-1} aria-hidden onChange={(e) => {
                            const file = e.target.files?.[0];
                            // Cleared so that picking the same file again still fires a change.
                            e.target.value = "";
                            void pick(i, file);
                          }} />
                        <Button type="button" variant="outline" size="sm" aria-label={`Choose a file for part ${i + 1}`} onClick={() => document.getElementById(inputId)?.click()}>
                          <FileUp aria-hidden /> {p.fileName ? "Replace" : "Choose file"}
                        </Button>
                        {p.fileName ? (
                          <span className="truncate text-xs text-muted-foreground" title={p.fileName}>
                            {p.fileName} · {formatBytes(base64Bytes(p.contentBase64 ?? ""))}
                          </span>
                        ) : (
                          <span className="text-xs text-muted-foreground">No file</span>
                        )}
                      </div>
                    ) : (
                      <input aria-label={`Part ${i + 1} value`} className={CELL} placeholder="Value" value={p.value} spellCheck={false} onChange={(e) => update(i, { value: e.target.value })} />
                    )}
                  </td>
                  <td className="px-1 py-1 text-right">
                    {ghost ? null : (
                      <Button type="button" variant="ghost" size="icon-sm" className="opacity-60 group-hover:opacity-100 focus-visible:opacity-100" aria-label={`Delete part ${i + 1}`} onClick={() => onChange(parts.filter((_, j) => j !== i))}>
                        <Trash2 aria-hidden />
                      </Button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {error ? (
        <p role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
