"use client";
// A pre-request or test script in Monaco (JavaScript), with completions of the
// `pm` API (an extra lib for Monaco's JavaScript service, see pm-api-types.ts)
// and Postman's snippet list beside it, which inserts code at the cursor.
import { Code2 } from "lucide-react";
import { useMonacoEditor } from "@/components/code/use-monaco-editor";
import { cn } from "@/components/lib/cn";
import { PM_API_DTS, PM_API_FILE } from "./pm-api-types";
import { type ScriptKind, snippetsFor } from "./script-snippets";
import { TesterCodeEditor } from "./tester-code-editor";

const PM_API = { file: PM_API_FILE, dts: PM_API_DTS };

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
  const { onMount, insert } = useMonacoEditor({ value, onChange, api: PM_API });
  const label = kind === "preRequest" ? "Pre-request script" : "Test script";

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
          onMount={onMount}
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
