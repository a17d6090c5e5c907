"use client";
// One response body in the mock form. Text that is not valid JSON (in JSON
// format) blocks saving through the editor's problem list: the draft keeps the
// last parsable value, and saving that would store something the user no longer sees.
// A value set from outside (gRPC's "Insert skeleton") replaces the text.
import { useState } from "react";
import { CodeEditor } from "@/components/code/code-editor";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { prettyJson } from "../draft";
import { useReportProblem } from "../editor-problems";

type Format = "json" | "text" | "xml";

/** What the text stands for, to tell our own edits from a value set elsewhere. */
const keyOf = (value: unknown) => JSON.stringify(value ?? null);
const textOf = (value: unknown) => (value === undefined ? "" : typeof value === "string" ? value : prettyJson(value));

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
  const [text, setText] = useState(() => textOf(value));
  const [invalid, setInvalid] = useState(false);
  // The value the text was last in step with (what we emitted, or what we were given).
  const [synced, setSynced] = useState(() => keyOf(value));
  useReportProblem(id, invalid ? `${label} is not valid JSON` : null);
  if (keyOf(value) !== synced) {
    setSynced(keyOf(value));
    setFormat(formatOf(value));
    setText(textOf(value));
    setInvalid(false);
  }

  function emit(next: unknown) {
    setSynced(keyOf(next));
    onChange(next);
  }

  function edit(next: string) {
    setText(next);
    if (format !== "json") return emit(next);
    if (next.trim() === "") {
      setInvalid(false);
      return emit(undefined);
    }
    try {
      emit(JSON.parse(next));
      setInvalid(false);
    } catch {
      setInvalid(true);
    }
  }

  function switchFormat(next: Format) {
    setFormat(next);
    if (next === "json") {
      try {
        emit(text.trim() ? JSON.parse(text) : undefined);
        setInvalid(false);
      } catch {
        setInvalid(true);
      }
    } else emit(text);
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
