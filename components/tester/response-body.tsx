"use client";
// A response body in three views, as in Postman: Pretty (JSON and XML
// re-indented, in a read-only Monaco with the right language), Raw (the text
// as received) and Preview (HTML rendered in an iframe with every sandbox
// restriction on — no scripts, no same-origin, no forms — and images drawn
// from their base64). Binary bodies offer a download; a cut body says so.
import { Download, FileQuestion } from "lucide-react";
import { useMemo, useState } from "react";
import type { CodeLanguage } from "@/components/code/code-editor";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { type ExecutedResponse, MAX_RESPONSE_BODY_BYTES } from "@/server/contracts/tester-execution";
import { formatJson, formatXml } from "./beautify";
import { downloadBody } from "./file-base64";
import { FilterChips } from "./filter-chips";
import { formatBytes } from "./format";
import { TesterCodeEditor } from "./tester-code-editor";

type Kind = "json" | "xml" | "html" | "javascript" | "text" | "image" | "binary";
type View = "pretty" | "raw" | "preview";

const LANGUAGE: Record<Kind, CodeLanguage> = { json: "json", xml: "xml", html: "html", javascript: "javascript", text: "plaintext", image: "plaintext", binary: "plaintext" };
const KIND_LABEL: Record<Kind, string> = { json: "JSON", xml: "XML", html: "HTML", javascript: "JavaScript", text: "Text", image: "Image", binary: "Binary" };
const EXTENSION: Record<Kind, string> = { json: "json", xml: "xml", html: "html", javascript: "js", text: "txt", image: "img", binary: "bin" };

function header(response: ExecutedResponse, name: string): string | undefined {
  return response.headers.find((h) => h.key.toLowerCase() === name)?.value;
}

export function bodyKind(response: ExecutedResponse): Kind {
  const type = (header(response, "content-type") ?? "").toLowerCase();
  if (response.bodyEncoding === "base64") return type.startsWith("image/") ? "image" : "binary";
  if (/[/+]json\b/.test(type)) return "json";
  if (/[/+]xml\b/.test(type)) return "xml";
  if (type.includes("html")) return "html";
  if (type.includes("javascript")) return "javascript";
  const head = response.body.trimStart()[0];
  if ((head === "{" || head === "[") && formatJson(response.body) !== null) return "json";
  if (head === "<") return /^\s*<!doctype html|^\s*<html/i.test(response.body) ? "html" : "xml";
  return "text";
}

function fileName(response: ExecutedResponse, kind: Kind): string {
  const disposition = header(response, "content-disposition") ?? "";
  const named = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)?.[1];
  if (named) return decodeURIComponent(named);
  try {
    const last = new URL(response.url).pathname.split("/").filter(Boolean).pop();
    if (last && last.includes(".")) return last;
  } catch {}
  return `response.${EXTENSION[kind]}`;
}

export function ResponseBody({ response, height = 360 }: { response: ExecutedResponse; height?: number | string }) {
  const kind = useMemo(() => bodyKind(response), [response]);
  const binary = kind === "image" || kind === "binary";
  // A view picked for one kind of body does not carry over to a response of another kind.
  const [choice, setChoice] = useState<{ kind: Kind; view: View } | null>(null);
  const view: View = choice?.kind === kind ? choice.view : binary ? "preview" : "pretty";
  const setView = (v: View) => setChoice({ kind, view: v });
  const contentType = header(response, "content-type") ?? "application/octet-stream";
  const pretty = useMemo(() => (kind === "json" ? (formatJson(response.body) ?? response.body) : kind === "xml" ? (formatXml(response.body) ?? response.body) : response.body), [kind, response.body]);
  const views: { value: View; label: string }[] = binary
    ? [
        { value: "preview", label: "Preview" },
        { value: "raw", label: "Raw (base64)" },
      ]
    : [
        { value: "pretty", label: "Pretty" },
        { value: "raw", label: "Raw" },
        { value: "preview", label: "Preview" },
      ];

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <FilterChips label="Body view" value={view} onChange={setView} options={views} />
        <span className="rounded-sm bg-muted px-1.5 py-0.5 font-mono text-[11px] text-muted-foreground">{KIND_LABEL[kind]}</span>
        <div className="ml-auto flex items-center gap-1">
          {binary ? null : <CopyButton value={response.body} size="sm" variant="ghost" label="Copy" />}
          <Button type="button" size="sm" variant="ghost" onClick={() => downloadBody(response.body, response.bodyEncoding, fileName(response, kind), contentType)}>
            <Download aria-hidden /> Save to file
          </Button>
        </div>
      </div>
      {response.bodyTruncated ? (
        <Alert variant="warning" title="The body is cut">
          {formatBytes(response.size.body)} were received; only the first {formatBytes(MAX_RESPONSE_BODY_BYTES)} are kept and shown. Save it to a file to see what was kept.
        </Alert>
      ) : null}
      {response.body === "" ? (
        <p className="rounded-md border border-dashed px-4 py-6 text-center text-sm text-muted-foreground">The response has no body.</p>
      ) : view === "pretty" && !binary ? (
        <TesterCodeEditor name="response" label="Response body" language={LANGUAGE[kind]} value={pretty} readOnly height={height} options={{ folding: true, lineNumbers: "on" }} />
      ) : view === "raw" ? (
        <pre aria-label="Raw response body" tabIndex={0} className="overflow-auto rounded-md border bg-muted/40 p-3 font-mono text-xs break-all whitespace-pre-wrap outline-none focus-visible:ring-2 focus-visible:ring-ring" style={{ maxHeight: height }}>
          {response.body}
        </pre>
      ) : kind === "html" ? (
        <iframe title="Response preview" sandbox="" srcDoc={response.body} className="w-full rounded-md border bg-white" style={{ height }} />
      ) : kind === "image" ? (
        <div className="flex justify-center rounded-md border bg-[repeating-conic-gradient(var(--color-muted)_0%_25%,transparent_0%_50%)] bg-[length:16px_16px] p-4">
          {/* eslint-disable-next-line @next/next/no-img-element -- a data URL of the response, not an optimisable asset */}
          <img src={`data:${contentType};base64,${response.body}`} alt="Response body" className="max-h-96 max-w-full object-contain" />
        </div>
      ) : binary ? (
        <div className="flex flex-col items-center gap-3 rounded-md border border-dashed px-6 py-8 text-center">
          <FileQuestion className="size-6 text-muted-foreground" aria-hidden />
          <p className="text-sm text-muted-foreground">
            A binary body ({contentType}, {formatBytes(response.size.body)}) cannot be shown here.
          </p>
          <Button type="button" size="sm" onClick={() => downloadBody(response.body, "base64", fileName(response, kind), contentType)}>
            <Download aria-hidden /> Download
          </Button>
        </div>
      ) : (
        <pre aria-label="Response body preview" tabIndex={0} className="overflow-auto rounded-md border p-3 font-mono text-xs whitespace-pre-wrap outline-none focus-visible:ring-2 focus-visible:ring-ring" style={{ maxHeight: height }}>
          {response.body}
        </pre>
      )}
    </div>
  );
}
