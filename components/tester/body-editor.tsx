"use client";
// The request body, by mode as in Postman: none, form-data (text and file
// parts), x-www-form-urlencoded, raw (JSON, XML, text, HTML or JavaScript in
// Monaco, with Beautify for JSON and XML), binary (one file) and GraphQL
// (query and variables). Switching mode keeps what the other modes hold, so
// switching back loses nothing.
import { FileUp, Sparkles, X } from "lucide-react";
import { useId, useState } from "react";
import { toast } from "sonner";
import type { CodeLanguage } from "@/components/code/code-editor";
import { cn } from "@/components/lib/cn";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { BODY_MODES, RAW_LANGUAGES, type RequestBody } from "@/server/contracts/tester-request";
import { formatJson, formatXml } from "./beautify";
import { readFileAsBase64 } from "./file-base64";
import { FormDataEditor } from "./form-data-editor";
import { base64Bytes, formatBytes } from "./format";
import { KeyValueEditor } from "./key-value-editor";
import { TesterCodeEditor } from "./tester-code-editor";

type Mode = (typeof BODY_MODES)[number];
type RawLanguage = (typeof RAW_LANGUAGES)[number];

const MODE_LABELS: Record<Mode, string> = { none: "none", formdata: "form-data", urlencoded: "x-www-form-urlencoded", raw: "raw", binary: "binary", graphql: "GraphQL" };
const MODE_ORDER: Mode[] = ["none", "formdata", "urlencoded", "raw", "binary", "graphql"];
const RAW_LABELS: Record<RawLanguage, string> = { json: "JSON", xml: "XML", text: "Text", html: "HTML", javascript: "JavaScript" };
const EDITOR_LANGUAGE: Record<RawLanguage, CodeLanguage> = { json: "json", xml: "xml", text: "plaintext", html: "html", javascript: "javascript" };

export interface BodyEditorProps {
  body: RequestBody;
  onChange: (body: RequestBody) => void;
  variables?: Record<string, string>;
  /** Height of the raw and GraphQL editors. */
  editorHeight?: number | string;
}

export function BodyEditor({ body, onChange, variables, editorHeight = 260 }: BodyEditorProps) {
  const id = useId();
  const language: RawLanguage = body.language ?? "json";
  const set = (patch: Partial<RequestBody>) => onChange({ ...body, ...patch });

  const beautify = () => {
    const raw = body.raw ?? "";
    const pretty = language === "json" ? formatJson(raw) : formatXml(raw);
    if (pretty === null) toast.error(`The body is not valid ${RAW_LABELS[language]}, so it was left as it is`);
    else set({ raw: pretty });
  };

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <div role="radiogroup" aria-label="Body type" className="flex flex-wrap items-center gap-x-4 gap-y-1">
          {MODE_ORDER.map((m) => (
            <label key={m} className="flex cursor-pointer items-center gap-1.5 text-sm">
              <input type="radio" name={`${id}-mode`} value={m} checked={body.mode === m} onChange={() => set({ mode: m })} className="size-3.5 accent-primary focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none" />
              <span className={cn(body.mode === m ? "font-medium" : "text-muted-foreground")}>{MODE_LABELS[m]}</span>
            </label>
          ))}
        </div>
        {body.mode === "raw" ? (
          <div className="ml-auto flex items-center gap-2">
            <Select value={language} onValueChange={(v) => set({ language: v as RawLanguage })}>
              <SelectTrigger aria-label="Raw body language" className="h-8 w-32">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {RAW_LANGUAGES.map((l) => (
                  <SelectItem key={l} value={l}>
                    {RAW_LABELS[l]}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            {language === "json" || language === "xml" ? (
              <Button type="button" variant="outline" size="sm" onClick={beautify} title={`Re-indent the ${RAW_LABELS[language]}`}>
                <Sparkles aria-hidden /> Beautify
              </Button>
            ) : null}
          </div>
        ) : null}
      </div>

      {body.mode === "none" ? <p className="rounded-md border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">This request does not have a body.</p> : null}
      {body.mode === "raw" ? (
        <TesterCodeEditor name="body" label={`Request body (${RAW_LABELS[language]})`} language={EDITOR_LANGUAGE[language]} value={body.raw ?? ""} onChange={(raw) => set({ raw })} height={editorHeight} allowPlaceholders />
      ) : null}
      {body.mode === "urlencoded" ? <KeyValueEditor label="Form fields" rows={body.urlencoded ?? []} onChange={(urlencoded) => set({ urlencoded })} variables={variables} /> : null}
      {body.mode === "formdata" ? <FormDataEditor parts={body.formdata ?? []} onChange={(formdata) => set({ formdata })} /> : null}
      {body.mode === "binary" ? <BinaryPicker value={body.binary} onChange={(binary) => set({ binary })} /> : null}
      {body.mode === "graphql" ? <GraphqlBody body={body} set={set} height={editorHeight} /> : null}
    </div>
  );
}

function BinaryPicker({ value, onChange }: { value: RequestBody["binary"]; onChange: (v: RequestBody["binary"]) => void }) {
  const id = useId();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-col gap-2 rounded-md border border-dashed px-4 py-5">
      <div className="flex flex-wrap items-center gap-3">
        <input
          id={id}
          type="file"
          className="sr-only"
          tabIndex={-1}
          aria-hidden
          onChange={async (e) => {
            const file = e.target.files?.[0];
            e.target.value = "";
            if (!file) return;
            setError(null);
            try {
              const f = await readFileAsBase64(file);
              onChange({ fileName: f.fileName, contentType: f.contentType, contentBase64: f.contentBase64 });
            } catch (err) {
              setError(err instanceof Error ? err.message : String(err));
            }
          }}
        />
        <Button type="button" variant="outline" size="sm" onClick={() => document.getElementById(id)?.click()}>
          <FileUp aria-hidden /> {value ? "Replace file" : "Choose file"}
        </Button>
        {value ? (
          <>
            <span className="text-sm">
              <span className="font-medium">{value.fileName ?? "file"}</span> <span className="text-muted-foreground">· {value.contentType ?? "application/octet-stream"} · {formatBytes(base64Bytes(value.contentBase64))}</span>
            </span>
            <Button type="button" variant="ghost" size="icon-sm" aria-label="Remove the file" onClick={() => onChange(undefined)}>
              <X aria-hidden />
            </Button>
          </>
        ) : (
          <span className="text-sm text-muted-foreground">The file&apos;s bytes are sent as the body, with its type as Content-Type unless a header sets one.</span>
        )}
      </div>
      {error ? (
        <p role="alert" className="text-xs font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function GraphqlBody({ body, set, height }: { body: RequestBody; set: (patch: Partial<RequestBody>) => void; height: number | string }) {
  const id = useId();
  const gql = body.graphql ?? { query: "" };
  const variables = typeof gql.variables === "string" ? gql.variables : gql.variables ? JSON.stringify(gql.variables, null, 2) : "";
  const update = (patch: Partial<NonNullable<RequestBody["graphql"]>>) => set({ graphql: { ...gql, ...patch } });
  return (
    <div className="flex flex-col gap-3">
      <div className="grid gap-3 lg:grid-cols-[3fr_2fr]">
        <div className="flex flex-col gap-1.5">
          <span className="text-xs font-medium text-muted-foreground">Query</span>
          <TesterCodeEditor name="query" label="GraphQL query" language="graphql" value={gql.query} onChange={(query) => update({ query })} height={height} />
        </div>
        <div className="flex flex-col gap-1.5">
          <span className="text-xs font-medium text-muted-foreground">Variables (JSON)</span>
          <TesterCodeEditor name="variables" label="GraphQL variables" language="json" value={variables} onChange={(v) => update({ variables: v })} height={height} allowPlaceholders />
        </div>
      </div>
      <div className="flex max-w-sm flex-col gap-1.5">
        <Label htmlFor={`${id}-op`} className="text-xs text-muted-foreground">
          Operation name (when the query holds several)
        </Label>
        <Input id={`${id}-op`} className="h-8" value={gql.operationName ?? ""} onChange={(e) => update({ operationName: e.target.value || undefined })} />
      </div>
    </div>
  );
}
