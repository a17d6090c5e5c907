// Code an isolate starts with (the API tester's pm runtime, the load
// tester's k6 modules): one TypeScript entry bundled by esbuild into a single
// script once per process, and V8's compile cache for it, taken from the
// first isolate and handed to the next ones.
import { existsSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";
import ivm from "isolated-vm";

interface RuntimeBundle {
  code: string;
  cachedData?: ivm.ExternalCopy<ArrayBuffer>;
}

export interface IsolateBundle {
  /** The bundle, built on first use; a failed build is retried on the next call rather than cached. */
  code(): Promise<string>;
  /** Compiles the bundle into `isolate`, producing V8's cache the first time and consuming it after. */
  compile(isolate: ivm.Isolate): Promise<ivm.Script>;
}

/**
 * `entry` is relative to the repository root (the app always runs from it);
 * `near` is the caller's import.meta.dirname with the same file relative to
 * it, which holds under tsx and vitest when a bundler has not rewritten it.
 */
export function isolateBundle(opts: { entry: string; near?: string; filename: string }): IsolateBundle {
  let bundle: Promise<RuntimeBundle> | undefined;

  const entryPath = () => {
    const candidates = [opts.near, path.join(process.cwd(), opts.entry)].filter((p): p is string => !!p);
    const found = candidates.find((p) => existsSync(p));
    if (!found) throw new Error(`${opts.filename}: cannot find its isolate runtime (looked in ${candidates.join(", ")})`);
    return found;
  };

  const make = async (): Promise<RuntimeBundle> => {
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
  };

  const get = () => {
    bundle ??= make().catch((e) => {
      bundle = undefined;
      throw e;
    });
    return bundle;
  };

  return {
    code: async () => (await get()).code,
    async compile(isolate) {
      const b = await get();
      // ivm's typings leave out the cache fields its compileScript sets on the Script.
      type Cached = ivm.Script & ivm.CachedDataResult & { cachedDataRejected?: boolean };
      if (b.cachedData) {
        const script = (await isolate.compileScript(b.code, { filename: opts.filename, cachedData: b.cachedData })) as Cached;
        if (!script.cachedDataRejected) return script;
      }
      const script = (await isolate.compileScript(b.code, { filename: opts.filename, produceCachedData: true })) as Cached;
      if (script.cachedData) b.cachedData = script.cachedData;
      return script;
    },
  };
}
