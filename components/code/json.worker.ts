// Monaco's JSON language worker (validation against the mock's JSON Schema), bundled locally.
import "monaco-editor/language/json/json.worker";
