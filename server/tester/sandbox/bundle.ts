// The code every script isolate starts with: ./isolate (the pm runtime) and
// chai, bundled once per process (server/lib/isolate-bundle.ts).
import path from "node:path";
import type ivm from "isolated-vm";
import { isolateBundle } from "@/server/lib/isolate-bundle";

export const RUNTIME_FILENAME = "pm-sandbox-runtime.js";

const runtime = isolateBundle({
  entry: "server/tester/sandbox/isolate/entry.ts",
  near: import.meta.dirname && path.join(import.meta.dirname, "isolate", "entry.ts"),
  filename: RUNTIME_FILENAME,
});

export function compileRuntime(isolate: ivm.Isolate): Promise<ivm.Script> {
  return runtime.compile(isolate);
}
