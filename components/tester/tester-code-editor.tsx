"use client";
// The console's Monaco wrapper as the API tester uses it: one model per editor
// (a unique path, so two open requests never share a buffer), a file
// extension matching the language, and Ctrl/Cmd+Enter bound to "send" inside
// a SendShortcutScope (Monaco keeps the key from bubbling up). JSON bodies may
// hold unquoted `{{placeholders}}`, which are substituted before sending, so
// the JSON checker's complaints about them are dropped.
import type * as MonacoApi from "monaco-editor";
import { useId } from "react";
import { CodeEditor, type CodeEditorProps, type CodeLanguage } from "@/components/code/code-editor";
import { useSendShortcut } from "./send-shortcut";

const EXTENSION: Record<CodeLanguage, string> = { json: "json", xml: "xml", plaintext: "txt", javascript: "js", html: "html", graphql: "graphql" };

export interface TesterCodeEditorProps extends Omit<CodeEditorProps, "path"> {
  /** The model's file name without extension ("body", "pre-request"), for Monaco's own messages. */
  name: string;
  /** JSON that may hold `{{placeholders}}` outside strings: no error markers on them. */
  allowPlaceholders?: boolean;
}

const PLACEHOLDER = /\{\{[^{}]+?\}\}/g;

/** Drops the JSON checker's markers that fall on a `{{placeholder}}` of the editor's current model. */
function ignorePlaceholderErrors(editor: MonacoApi.editor.IStandaloneCodeEditor, monaco: typeof MonacoApi) {
  const clean = () => {
    const model = editor.getModel();
    if (!model || model.getLanguageId() !== "json") return;
    const markers = monaco.editor.getModelMarkers({ owner: "json", resource: model.uri });
    if (!markers.length) return;
    const spans = [...model.getValue().matchAll(PLACEHOLDER)].map((m) => [m.index ?? 0, (m.index ?? 0) + m[0].length] as const);
    const kept = markers.filter((mk) => {
      const start = model.getOffsetAt({ lineNumber: mk.startLineNumber, column: mk.startColumn });
      const end = model.getOffsetAt({ lineNumber: mk.endLineNumber, column: mk.endColumn });
      return !spans.some(([s, e]) => start <= e && end >= s);
    });
    if (kept.length !== markers.length) monaco.editor.setModelMarkers(model, "json", kept);
  };
  // The checker may have reported before the editor mounted, so once now and then on every report.
  clean();
  const sub = monaco.editor.onDidChangeMarkers((uris) => {
    const uri = editor.getModel()?.uri.toString();
    if (uri && uris.some((u) => u.toString() === uri)) clean();
  });
  editor.onDidDispose(() => sub.dispose());
}

export function TesterCodeEditor({ name, language, onMount, allowPlaceholders = false, ...props }: TesterCodeEditorProps) {
  const id = useId().replace(/[^A-Za-z0-9]/g, "");
  const send = useSendShortcut();
  const mount = (editor: MonacoApi.editor.IStandaloneCodeEditor, monaco: typeof MonacoApi) => {
    if (send) {
      editor.addAction({ id: "tester.send-request", label: "Send request", keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter], run: () => send() });
    }
    if (allowPlaceholders) ignorePlaceholderErrors(editor, monaco);
    onMount?.(editor, monaco);
  };
  return <CodeEditor {...props} language={language} path={`tester/${id}/${name}.${EXTENSION[language]}`} onMount={mount} />;
}
