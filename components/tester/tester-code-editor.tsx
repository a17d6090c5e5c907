"use client";
// The console's Monaco wrapper as the API tester uses it: one model per editor
// (a unique path, so two open requests never share a buffer), a file
// extension matching the language, and Ctrl/Cmd+Enter bound to "send" inside
// a SendShortcutScope (Monaco keeps the key from bubbling up).
import type * as MonacoApi from "monaco-editor";
import { useId } from "react";
import { CodeEditor, type CodeEditorProps, type CodeLanguage } from "@/components/code/code-editor";
import { useSendShortcut } from "./send-shortcut";

const EXTENSION: Record<CodeLanguage, string> = { json: "json", xml: "xml", plaintext: "txt", javascript: "js", html: "html", graphql: "graphql" };

export interface TesterCodeEditorProps extends Omit<CodeEditorProps, "path"> {
  /** The model's file name without extension ("body", "pre-request"), for Monaco's own messages. */
  name: string;
}

export function TesterCodeEditor({ name, language, onMount, ...props }: TesterCodeEditorProps) {
  const id = useId().replace(/[^A-Za-z0-9]/g, "");
  const send = useSendShortcut();
  const mount = (editor: MonacoApi.editor.IStandaloneCodeEditor, monaco: typeof MonacoApi) => {
    if (send) {
      editor.addAction({ id: "tester.send-request", label: "Send request", keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter], run: () => send() });
    }
    onMount?.(editor, monaco);
  };
  return <CodeEditor {...props} language={language} path={`tester/${id}/${name}.${EXTENSION[language]}`} onMount={mount} />;
}
