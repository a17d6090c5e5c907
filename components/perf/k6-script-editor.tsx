"use client";
// A k6 load script in Monaco: completions and hovers of the k6 API (an extra
// lib for Monaco's JavaScript service, see k6-api-types.ts), Ctrl/Cmd+Enter
// to run and Ctrl/Cmd+S to save from inside the editor (Monaco keeps those
// keys from bubbling), and the API's validation problem shown where it is:
// a red marker at its line and column, with the cursor moved there.
import { useEffect, useId, useImperativeHandle, useRef } from "react";
import { CodeEditor } from "@/components/code/code-editor";
import { useMonacoEditor } from "@/components/code/use-monaco-editor";
import { K6_API_DTS, K6_API_FILE } from "./k6-api-types";

const MARKER_OWNER = "polymock-perf";
const K6_API = { file: K6_API_FILE, dts: K6_API_DTS, esModules: true };

export interface ScriptProblem {
  message: string;
  line: number;
  column?: number;
}

export interface K6ScriptEditorHandle {
  /** Inserts code at the cursor, on a line of its own. */
  insert: (code: string) => void;
  focus: () => void;
}

export interface K6ScriptEditorProps {
  value: string;
  onChange: (value: string) => void;
  onRun?: () => void;
  onSave?: () => void;
  /** Where the API said the script is wrong; the marker goes away at the next edit. */
  problem?: ScriptProblem | null;
  height?: number | string;
  label?: string;
  ref?: React.Ref<K6ScriptEditorHandle>;
}

export function K6ScriptEditor({ value, onChange, onRun, onSave, problem, height = 480, label = "k6 script", ref }: K6ScriptEditorProps) {
  const id = useId().replace(/[^A-Za-z0-9]/g, "");
  const { editor, monaco: monacoRef, onMount, insert } = useMonacoEditor({ value, onChange, api: K6_API });
  // Monaco's actions are bound once; they call the latest handlers.
  const handlers = useRef({ onRun, onSave });
  useEffect(() => {
    handlers.current = { onRun, onSave };
  });

  useImperativeHandle(ref, () => ({
    insert,
    focus() {
      editor.current?.focus();
    },
  }));

  useEffect(() => {
    const ed = editor.current;
    const monaco = monacoRef.current;
    const model = ed?.getModel();
    if (!ed || !monaco || !model) return;
    if (!problem) {
      monaco.editor.setModelMarkers(model, MARKER_OWNER, []);
      return;
    }
    const line = Math.min(Math.max(1, problem.line), model.getLineCount());
    const column = Math.min(Math.max(1, problem.column ?? 1), model.getLineMaxColumn(line));
    monaco.editor.setModelMarkers(model, MARKER_OWNER, [
      { severity: monaco.MarkerSeverity.Error, message: problem.message, startLineNumber: line, startColumn: column, endLineNumber: line, endColumn: Math.max(column + 1, model.getLineMaxColumn(line)) },
    ]);
    ed.setPosition({ lineNumber: line, column });
    ed.revealLineInCenter(line);
    ed.focus();
  }, [problem, editor, monacoRef]);

  return (
    <CodeEditor
      label={label}
      language="javascript"
      path={`perf/${id}/script.js`}
      value={value}
      onChange={(v) => {
        const model = editor.current?.getModel();
        if (model && monacoRef.current) monacoRef.current.editor.setModelMarkers(model, MARKER_OWNER, []);
        onChange(v);
      }}
      height={height}
      options={{ wordWrap: "off", lineNumbers: "on", folding: true, renderLineHighlight: "line", lineHeight: 20 }}
      onMount={(ed, monaco) => {
        onMount(ed, monaco);
        ed.addAction({ id: "perf.run", label: "Run load test", keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter], run: () => handlers.current.onRun?.() });
        ed.addAction({ id: "perf.save", label: "Save load test", keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS], run: () => handlers.current.onSave?.() });
      }}
    />
  );
}
