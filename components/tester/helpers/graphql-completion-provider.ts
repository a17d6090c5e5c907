"use client";
// Feeds Monaco's GraphQL editors (the request body's query editor) with the
// last introspected schema: one completion provider, registered once per page,
// reading whichever schema the explorer loaded last.
import type { GraphQLSchema } from "graphql";
import { loadMonaco, type Monaco } from "@/components/code/monaco-loader";
import { graphqlSuggestions } from "./graphql-completion";

let schema: GraphQLSchema | null = null;
let registered = false;

function register(monaco: Monaco) {
  if (registered) return;
  registered = true;
  monaco.languages.registerCompletionItemProvider("graphql", {
    triggerCharacters: ["{", " ", "\n"],
    provideCompletionItems(model, position) {
      if (!schema) return { suggestions: [] };
      const before = model.getValueInRange({ startLineNumber: 1, startColumn: 1, endLineNumber: position.lineNumber, endColumn: position.column });
      const word = model.getWordUntilPosition(position);
      const range = { startLineNumber: position.lineNumber, endLineNumber: position.lineNumber, startColumn: word.startColumn, endColumn: word.endColumn };
      // The word being typed is not part of the context that decides the type.
      const context = before.slice(0, before.length - word.word.length);
      return {
        suggestions: graphqlSuggestions(schema, context).map((s) => ({
          label: s.label,
          detail: s.detail,
          documentation: s.documentation,
          kind: s.kind === "field" ? monaco.languages.CompletionItemKind.Field : monaco.languages.CompletionItemKind.Keyword,
          insertText: s.label,
          range,
        })),
      };
    },
  });
}

/** Makes `next` the schema GraphQL editors complete from (null: none). */
export function setCompletionSchema(next: GraphQLSchema | null) {
  schema = next;
  if (next) void loadMonaco().then(register);
}
