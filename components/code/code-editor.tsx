"use client";
// Monaco editors of the console (code and side-by-side diff), loaded from our bundle and themed with the app.
import Editor, { DiffEditor } from "@monaco-editor/react";
import type * as MonacoApi from "monaco-editor";
import { useTheme } from "next-themes";
import { useLayoutEffect, useRef } from "react";
import { cn } from "@/components/lib/cn";
import { Skeleton } from "@/components/ui/skeleton";
import { useMonaco } from "./use-monaco";

export type CodeLanguage = "json" | "xml" | "plaintext" | "javascript" | "html" | "graphql";

export interface CodeEditorProps {
  value: string;
  onChange?: (value: string) => void;
  language: CodeLanguage;
  /** Accessible name of the editing area. */
  label: string;
  /** Model path; "*mock-definition.json" is validated against the mock schema. */
  path?: string;
  height?: number | string;
  readOnly?: boolean;
  onValidate?: (markers: MonacoApi.editor.IMarker[]) => void;
  /** The editor once created (to add actions, insert text at the cursor…). */
  onMount?: (editor: MonacoApi.editor.IStandaloneCodeEditor, monaco: typeof MonacoApi) => void;
  /** Options over the console's defaults (line numbers, folding…). */
  options?: MonacoApi.editor.IStandaloneEditorConstructionOptions;
  className?: string;
}

function useMonacoTheme() {
  const { resolvedTheme } = useTheme();
  return resolvedTheme === "dark" ? "vs-dark" : "vs";
}

const OPTIONS: MonacoApi.editor.IStandaloneEditorConstructionOptions = {
  minimap: { enabled: false },
  scrollBeyondLastLine: false,
  fontSize: 13,
  tabSize: 2,
  automaticLayout: true,
  wordWrap: "on",
  quickSuggestions: { strings: true, other: true, comments: false },
  renderLineHighlight: "none",
  // Suggestions and hovers are drawn outside the editor's box, so the first line's are not clipped by it.
  fixedOverflowWidgets: true,
};

/** Monaco for JSON, XML and text, served from our bundle, themed with the app. */
export function CodeEditor({ value, onChange, language, label, path, height = 240, readOnly, onValidate, onMount, options, className }: CodeEditorProps) {
  const monaco = useMonaco();
  const theme = useMonacoTheme();
  return (
    <div className={cn("overflow-hidden rounded-md border", className)} data-testid={`code-editor-${label}`}>
      {monaco ? (
        <Editor
          value={value}
          language={language}
          path={path}
          theme={theme}
          height={height}
          onChange={(v) => onChange?.(v ?? "")}
          onValidate={onValidate}
          // Measured once more after the first paint: mounted while the page is still laying out, the editor can keep a one-line box.
          onMount={(editor, m) => {
            requestAnimationFrame(() => editor.layout());
            onMount?.(editor, m);
          }}
          options={{ ...OPTIONS, ...options, readOnly, ariaLabel: label }}
          loading={<Skeleton className="h-full w-full rounded-none" />}
        />
      ) : (
        <Skeleton className="w-full rounded-none" style={{ height }} />
      )}
    </div>
  );
}

/**
 * Side-by-side diff of two texts. @monaco-editor/react 4.7 disposes the two
 * models before the diff widget on unmount, which Monaco reports as "TextModel
 * got disposed before DiffEditorWidget model got reset" (monaco-react#647).
 * So the library keeps its models and this component detaches and disposes
 * them itself, in a layout-effect cleanup: it runs before the library's
 * passive cleanup disposes the widget.
 */
export function CodeDiff({ original, modified, language = "json", height = 420, label }: { original: string; modified: string; language?: CodeLanguage; height?: number; label: string }) {
  const monaco = useMonaco();
  const theme = useMonacoTheme();
  const editor = useRef<MonacoApi.editor.IStandaloneDiffEditor | null>(null);
  useLayoutEffect(
    () => () => {
      const diff = editor.current;
      editor.current = null;
      const model = diff?.getModel();
      if (!diff || !model) return;
      diff.setModel(null);
      model.original.dispose();
      model.modified.dispose();
    },
    [],
  );
  return (
    <div className="overflow-hidden rounded-md border" role="region" aria-label={label}>
      {monaco ? (
        <DiffEditor
          original={original}
          modified={modified}
          language={language}
          theme={theme}
          height={height}
          keepCurrentOriginalModel
          keepCurrentModifiedModel
          onMount={(e) => {
            editor.current = e;
          }}
          options={{ readOnly: true, renderSideBySide: true, minimap: { enabled: false }, automaticLayout: true, scrollBeyondLastLine: false, fontSize: 13, originalEditable: false }}
          loading={<Skeleton className="h-full w-full rounded-none" />}
        />
      ) : (
        <Skeleton className="w-full rounded-none" style={{ height }} />
      )}
    </div>
  );
}
