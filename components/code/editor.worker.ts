// Monaco's base worker (diffs, word suggestions), bundled from node_modules: no CDN.
import "monaco-editor/editor/editor.worker";
