"use client";
// The Monaco set-up every script editor shares (the API tester's pre-request
// and test scripts, k6 load scripts): the editor and Monaco kept at hand once
// mounted, the script API's declarations given to Monaco's JavaScript service
// once per page (completions and hovers of `pm`, of k6), and code inserted at
// the cursor on a line of its own. Each editor adds its own actions and markers.
import type * as MonacoApi from "monaco-editor";
import { useRef } from "react";

type Monaco = typeof MonacoApi;
type Editor = MonacoApi.editor.IStandaloneCodeEditor;

/** The declarations of a script API, as a file of Monaco's JavaScript project. */
export interface ScriptApiLib {
  file: string;
  dts: string;
  /** Scripts are ES modules (k6's `import … from "k6/http"`). */
  esModules?: boolean;
}

const registered = new Set<string>();

/**
 * Once per page and API: its declarations, ES2020 without the DOM (scripts run
 * in a sandbox, not a browser), and no semantic checks, since the scripts of a
 * page share one JavaScript project and would see each other's `const`s.
 */
function registerScriptApi(monaco: Monaco, lib: ScriptApiLib) {
  if (registered.has(lib.file)) return;
  registered.add(lib.file);
  const js = monaco.typescript.javascriptDefaults;
  js.setCompilerOptions({
    target: monaco.typescript.ScriptTarget.ES2020,
    ...(lib.esModules ? { module: monaco.typescript.ModuleKind.ESNext } : {}),
    lib: ["es2020"],
    allowJs: true,
    checkJs: false,
    allowNonTsExtensions: true,
  });
  js.setDiagnosticsOptions({ noSemanticValidation: true, noSyntaxValidation: false });
  js.addExtraLib(lib.dts, lib.file);
}

export interface MonacoScriptEditor {
  editor: React.RefObject<Editor | null>;
  monaco: React.RefObject<Monaco | null>;
  /** For CodeEditor's `onMount`, before the editor's own actions. */
  onMount: (editor: Editor, monaco: Monaco) => void;
  /** Inserts code at the cursor, on a line of its own; appended to the value before the editor has mounted. */
  insert: (code: string) => void;
}

export function useMonacoEditor({ value, onChange, api }: { value: string; onChange: (value: string) => void; api: ScriptApiLib }): MonacoScriptEditor {
  const editor = useRef<Editor | null>(null);
  const monaco = useRef<Monaco | null>(null);

  const onMount = (ed: Editor, m: Monaco) => {
    editor.current = ed;
    monaco.current = m;
    registerScriptApi(m, api);
  };

  const insert = (code: string) => {
    const ed = editor.current;
    const model = ed?.getModel();
    const selection = ed?.getSelection();
    if (!ed || !model || !selection) {
      onChange(value + (value && !value.endsWith("\n") ? "\n" : "") + code);
      return;
    }
    // After the current line when the cursor sits in some code; in place of the selection otherwise.
    const line = selection.positionLineNumber;
    const busy = selection.isEmpty() && model.getLineContent(line).trim() !== "";
    const range = busy ? { startLineNumber: line, startColumn: model.getLineMaxColumn(line), endLineNumber: line, endColumn: model.getLineMaxColumn(line) } : selection;
    ed.pushUndoStop();
    ed.executeEdits("snippet", [{ range, text: busy ? `\n${code}` : code, forceMoveMarkers: true }]);
    ed.pushUndoStop();
    ed.focus();
  };

  return { editor, monaco, onMount, insert };
}
