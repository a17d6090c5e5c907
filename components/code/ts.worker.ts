// Monaco's TypeScript/JavaScript language worker (completions of the API tester's `pm` scripts), bundled locally.
import "monaco-editor/language/typescript/ts.worker";
