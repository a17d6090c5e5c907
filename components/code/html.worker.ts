// Monaco's HTML language worker (raw HTML request bodies, HTML responses), bundled locally.
import "monaco-editor/language/html/html.worker";
