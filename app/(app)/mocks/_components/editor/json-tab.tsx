"use client";
import { useEffect, useState } from "react";
import { z } from "zod";
import { CodeEditor } from "@/components/code/code-editor";
import { setMockSchema } from "@/components/code/monaco-loader";
import { useMonaco } from "@/components/code/use-monaco";
import { Alert } from "@/components/ui/alert";
import { MockInput } from "@/server/contracts/mock";
import { prettyJson, type Draft } from "./draft";

let schema: unknown;
/** The mock's JSON Schema, generated from the zod contract (input side: what a user writes). */
function mockJsonSchema() {
  schema ??= z.toJSONSchema(MockInput, { io: "input", unrepresentable: "any" });
  return schema;
}

/**
 * The whole mock as JSON, validated against its schema while typing. Each
 * edit that is valid JSON updates the shared draft, so the form and Save see it.
 */
export function JsonTab({ draft, onChange, onValidity }: { draft: Draft; onChange: (d: Draft) => void; onValidity: (problem: string | null) => void }) {
  const monaco = useMonaco();
  useEffect(() => {
    if (monaco) setMockSchema(monaco, mockJsonSchema());
  }, [monaco]);
  const [text, setText] = useState(() => prettyJson(draft));
  const [markers, setMarkers] = useState<{ line: number; message: string }[]>([]);
  const [syntax, setSyntax] = useState<string | null>(null);

  function edit(next: string) {
    setText(next);
    try {
      const parsed: unknown = JSON.parse(next);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("A mock is a JSON object");
      setSyntax(null);
      onValidity(null);
      onChange(parsed as Draft);
    } catch (err) {
      const message = err instanceof SyntaxError ? `Not valid JSON: ${err.message}` : (err as Error).message;
      setSyntax(message);
      onValidity(message);
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-muted-foreground">The mock exactly as the API stores it. The editor checks it against the mock schema as you type; the form shows the same mock.</p>
      <CodeEditor label="Mock JSON" language="json" path="mock-definition.json" value={text} onChange={edit} height={520} onValidate={(ms) => setMarkers(ms.map((m) => ({ line: m.startLineNumber, message: m.message })))} />
      {syntax ? <Alert variant="error" title="The JSON cannot be read">{syntax}</Alert> : null}
      {!syntax && markers.length ? (
        <Alert variant="warning" title={`${markers.length} schema problem${markers.length === 1 ? "" : "s"}`}>
          <ul className="list-disc pl-4">
            {markers.slice(0, 8).map((m, i) => (
              <li key={i}>
                Line {m.line}: {m.message}
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}
    </div>
  );
}
