"use client";
// One response body in the mock form. Text that is not valid JSON (in JSON
// format) blocks saving through the editor's problem list: the draft keeps the
// last parsable value, and saving that would store something the user no longer sees.
import { useState } from "react";
import { CodeEditor } from "@/components/code/code-editor";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { prettyJson } from "../draft";
import { useReportProblem } from "../editor-problems";

type Format = "json" | "text" | "xml";

function formatOf(value: unknown): Format {
  if (typeof value !== "string") return "json";
  return value.trimStart().startsWith("<") ? "xml" : "text";
}

/**
 * A response body: JSON (any JSON value) or raw text / XML (a string payload).
 * Template placeholders ($.fake.…, $.req.…) autocomplete in the editor.
 */
export function PayloadEditor({ id, label, value, onChange, height = 200 }: { id: string; label: string; value: unknown; onChange: (v: unknown) => void; height?: number }) {
  const [format, setFormat] = useState<Format>(() => formatOf(value));
  const [text, setText] = useState(() => (value === undefined ? "" : typeof value === "string" ? value : prettyJson(value)));
  const [invalid, setInvalid] = useState(false);
  useReportProblem(id, invalid ? `${label} is not valid JSON` : null);

  function edit(next: string) {
    setText(next);
    if (format !== "json") return onChange(next);
    if (next.trim() === "") {
      setInvalid(false);
      return onChange(undefined);
    }
    try {
      onChange(JSON.parse(next));
      setInvalid(false);
    } catch {
      setInvalid(true);
    }
  }

  function switchFormat(next: Format) {
    setFormat(next);
    if (next === "json") {
      try {
        onChange(text.trim() ? JSON.parse(text) : undefined);
        setInvalid(false);
      } catch {
        setInvalid(true);
      }
    } else onChange(text);
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm font-medium" id={`${id}-label`}>
          {label}
        </span>
        <Select value={format} onValueChange={(v) => switchFormat(v as Format)}>
          <SelectTrigger className="h-8 w-28" aria-label={`${label} format`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            <SelectItem value="json">JSON</SelectItem>
            <SelectItem value="text">Text</SelectItem>
            <SelectItem value="xml">XML</SelectItem>
          </SelectContent>
        </Select>
      </div>
      <CodeEditor label={label} language={format === "text" ? "plaintext" : format} value={text} onChange={edit} height={height} path={`${id}.${format === "text" ? "txt" : format}`} />
      {invalid ? (
        <p role="alert" className="text-xs font-medium text-destructive">
          Not valid JSON: fix it (or switch the format to Text) before saving.
        </p>
      ) : <p className="text-xs text-muted-foreground">Type <code className="font-mono">$.</code> for placeholders, e.g. <code className="font-mono">$.fake.UUID</code> or <code className="font-mono">$.req.id</code>.</p>}
    </div>
  );
}
