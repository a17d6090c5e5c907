"use client";
// Loads monaco-editor from our own bundle (never the CDN that
// @monaco-editor/react uses by default), with its web workers, once per page.
// Template placeholders ($.fake.Name, $.req…) autocomplete in every editor.
import { loader } from "@monaco-editor/react";
import type * as MonacoApi from "monaco-editor";

export type Monaco = typeof MonacoApi;

const PLACEHOLDERS: [string, string][] = [
  ["fake.", "generated data: $.fake.UUID, $.fake.Email…"],
  ["req.", "a field of the request body"],
  ["reqHeader.", "a request header (a list: $.reqHeader.Name[0])"],
  ["queryParams.", "a query parameter"],
  ["pathParam.", "a path parameter of the route"],
  ["namespace", "the namespace's name"],
  ["gS.", "a global store value"],
  ["cS.", "a chain store value"],
  ["mS.", "a mock store value"],
];

let fakeNames: string[] = [];
/** The `$.fake.` names (from the server) that completions offer. */
export function setFakeNames(names: string[]) {
  fakeNames = names;
}

function registerTemplateCompletions(monaco: Monaco) {
  for (const language of ["json", "plaintext", "xml"]) {
    monaco.languages.registerCompletionItemProvider(language, {
      triggerCharacters: ["."],
      provideCompletionItems(model, position) {
        const before = model.getValueInRange({ startLineNumber: position.lineNumber, startColumn: 1, endLineNumber: position.lineNumber, endColumn: position.column });
        const fake = /\$\.fake\.([A-Za-z0-9_]*)$/.exec(before);
        const root = fake ? null : /\$\.([A-Za-z]*)$/.exec(before);
        const typed = fake?.[1] ?? root?.[1];
        if (typed === undefined) return { suggestions: [] };
        const range = { startLineNumber: position.lineNumber, endLineNumber: position.lineNumber, startColumn: position.column - typed.length, endColumn: position.column };
        const kind = monaco.languages.CompletionItemKind.Variable;
        // Accepting "fake." (or "req.") types no trigger character, so the item asks for the next list itself.
        const again = { id: "editor.action.triggerSuggest", title: "More placeholders" };
        const suggestions = fake
          ? fakeNames.map((name) => ({ label: name, kind, insertText: name, range, detail: "$.fake" }))
          : PLACEHOLDERS.map(([name, detail]) => ({ label: name, kind, insertText: name, range, detail, ...(name.endsWith(".") ? { command: again } : {}) }));
        // Incomplete: typing on asks again, so "$.fake" followed by "." moves from the roots to the generators.
        return { suggestions, incomplete: true };
      },
    });
  }
}

let loading: Promise<Monaco> | null = null;

export function loadMonaco(): Promise<Monaco> {
  loading ??= (async () => {
    (self as unknown as { MonacoEnvironment: MonacoApi.Environment }).MonacoEnvironment = {
      getWorker(_workerId: string, label: string) {
        if (label === "json") return new Worker(new URL("./json.worker.ts", import.meta.url), { type: "module" });
        // Each language service must run in its own worker: the base worker cannot host them.
        if (label === "typescript" || label === "javascript") return new Worker(new URL("./ts.worker.ts", import.meta.url), { type: "module" });
        if (label === "html" || label === "handlebars" || label === "razor") return new Worker(new URL("./html.worker.ts", import.meta.url), { type: "module" });
        return new Worker(new URL("./editor.worker.ts", import.meta.url), { type: "module" });
      },
    };
    const monaco = await import("monaco-editor");
    loader.config({ monaco });
    registerTemplateCompletions(monaco);
    return monaco;
  })();
  return loading;
}

/** The JSON Schema that files named *mock-definition.json are validated against. */
export function setMockSchema(monaco: Monaco, schema: unknown) {
  monaco.json.jsonDefaults.setDiagnosticsOptions({
    validate: true,
    allowComments: false,
    schemas: [{ uri: "https://polymock.local/schemas/mock.json", fileMatch: ["*mock-definition.json"], schema }],
  });
}
