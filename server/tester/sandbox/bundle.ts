// The code every isolate starts with: ./isolate (the pm runtime) and chai,
// bundled by esbuild into one script once per process, and V8's compile cache
// for it, taken from the first isolate and handed to the next ones.
import { existsSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import ivm from "isolated-vm";

export const RUNTIME_FILENAME = "pm-sandbox-runtime.js";

export interface RuntimeBundle {
  code: string;
  cachedData?: ivm.ExternalCopy<ArrayBuffer>;
}

let bundle: Promise<RuntimeBundle> | undefined;

function entryPath(): string {
  // import.meta.dirname is this folder under tsx and vitest; the cwd-relative
  // path covers bundlers that rewrite it (the app always runs from the repo root).
  const candidates = [import.meta.dirname && path.join(import.meta.dirname, "isolate", "entry.ts"), path.join(process.cwd(), "server", "tester", "sandbox", "isolate", "entry.ts")];
  const found = candidates.find((p): p is string => !!p && existsSync(p));
  if (!found) throw new Error(`script sandbox: cannot find its isolate runtime (looked in ${candidates.filter(Boolean).join(", ")})`);
  return found;
}

async function make(): Promise<RuntimeBundle> {
  const result = await build({
    entryPoints: [entryPath()],
    bundle: true,
    write: false,
    format: "iife",
    platform: "neutral",
    mainFields: ["main"],
    target: "es2022",
    minify: true,
    legalComments: "none",
    logLevel: "silent",
  });
  return { code: result.outputFiles[0].text };
}

/** The bundle, built on first use; a failed build is retried on the next call rather than cached. */
export function runtimeBundle(): Promise<RuntimeBundle> {
  bundle ??= make().catch((e) => {
    bundle = undefined;
    throw e;
  });
  return bundle;
}

/** Compiles the bundle into `isolate`, producing V8's cache the first time and consuming it after. */
export async function compileRuntime(isolate: ivm.Isolate): Promise<ivm.Script> {
  const b = await runtimeBundle();
  // ivm's typings leave out the cache fields its compileScript sets on the Script.
  type Cached = ivm.Script & ivm.CachedDataResult & { cachedDataRejected?: boolean };
  if (b.cachedData) {
    const script = (await isolate.compileScript(b.code, { filename: RUNTIME_FILENAME, cachedData: b.cachedData })) as Cached;
    if (!script.cachedDataRejected) return script;
  }
  const script = (await isolate.compileScript(b.code, { filename: RUNTIME_FILENAME, produceCachedData: true })) as Cached;
  if (script.cachedData) b.cachedData = script.cachedData;
  return script;
}
