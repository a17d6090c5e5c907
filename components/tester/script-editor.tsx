"use client";
// A pre-request or test script in Monaco (JavaScript), with completions of the
// `pm` API (an extra lib for Monaco's JavaScript service, see pm-api-types.ts)
// and Postman's snippet list beside it, which inserts code at the cursor.
import type * as MonacoApi from "monaco-editor";
import { Code2 } from "lucide-react";
import { useRef } from "react";
import { cn } from "@/components/lib/cn";
import { PM_API_DTS, PM_API_FILE } from "./pm-api-types";
import { type ScriptKind, snippetsFor } from "./script-snippets";
import { TesterCodeEditor } from "./tester-code-editor";

type Monaco = typeof MonacoApi;
let pmApiRegistered = false;

/**
 * Once per page: the pm declarations, ES2020 without the DOM (the sandbox has
 * no window or document), and no semantic checks, since the two scripts of a
 * request share one JavaScript project and would see each other's `const`s.
 */
function registerPmApi(monaco: Monaco) {
  if (pmApiRegistered) return;
  pmApiRegistered = true;
  const js = monaco.typescript.javascriptDefaults;
  js.setCompilerOptions({ target: monaco.typescript.ScriptTarget.ES2020, lib: ["es2020"], allowJs: true, checkJs: false, allowNonTsExtensions: true });
  js.setDiagnosticsOptions({ noSemanticValidation: true, noSyntaxValidation: false });
  js.addExtraLib(PM_API_DTS, PM_API_FILE);
}

const HELP: Record<ScriptKind, string> = {
  preRequest: "Runs before the request is sent: set variables, add headers, or skip the request.",
  test: "Runs after the response arrives: pm.test results appear under Test results, console output under Console.",
};

export interface ScriptEditorProps {
  kind: ScriptKind;
  value: string;
  onChange: (value: string) => void;
  height?: number | string;
  className?: string;
}

export function ScriptEditor({ kind, value, onChange, height = 320, className }: ScriptEditorProps) {
  const editor = useRef<MonacoApi.editor.IStandaloneCodeEditor | null>(null);
  const label = kind === "preRequest" ? "Pre-request script" : "Test script";

  const insert = (code: string) => {
    const ed = editor.current;
    const model = ed?.getModel();
    const selection = ed?.getSelection();
    if (!ed || !model || !selection) {
      onChange(value + (value && !value.endsWith("\n") ? "\n" : "") + code);
      return;
    }
    // A snippet goes on a line of its own: after the current line when the cursor sits in some code.
    const line = selection.positionLineNumber;
    const busy = selection.isEmpty() && model.getLineContent(line).trim() !== "";
    const range = busy ? { startLineNumber: line, startColumn: model.getLineMaxColumn(line), endLineNumber: line, endColumn: model.getLineMaxColumn(line) } : selection;
    ed.pushUndoStop();
    ed.executeEdits("snippet", [{ range, text: busy ? `\n${code}` : code, forceMoveMarkers: true }]);
    ed.pushUndoStop();
    ed.focus();
  };

  return (
    <div className={cn("flex flex-col gap-2", className)}>
      <p className="text-xs text-muted-foreground">{HELP[kind]}</p>
      <div className="flex flex-col gap-3 lg:flex-row">
        <TesterCodeEditor
          name={kind === "preRequest" ? "pre-request" : "tests"}
          label={label}
          language="javascript"
          value={value}
          onChange={onChange}
          height={height}
          className="min-w-0 flex-1"
          onMount={(ed, monaco) => {
            editor.current = ed;
            registerPmApi(monaco);
          }}
        />
        <nav aria-label={`${label} snippets`} className="flex shrink-0 flex-col gap-1 lg:w-60">
          <p className="flex items-center gap-1.5 px-2 text-xs font-medium tracking-wide text-muted-foreground uppercase">
            <Code2 className="size-3.5" aria-hidden /> Snippets
          </p>
          <ul className="flex max-h-80 flex-col overflow-y-auto">
            {snippetsFor(kind).map((s) => (
              <li key={s.title}>
                <button
                  type="button"
                  className="w-full rounded-md px-2 py-1 text-left text-sm text-primary outline-none hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
                  title={`Insert at the cursor:\n${s.code}`}
                  onClick={() => insert(s.code)}
                >
                  {s.title}
                </button>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </div>
  );
}
