// `npm start` runs the web processes and the protocol runner as JavaScript bundled by esbuild (our
// TypeScript only; packages stay in node_modules), not through tsx: no
// loader thread and no per-function `__name` wrappers on the stub path, and
// less memory. The bundle lives under .next/ (a build artefact, next to the
// Next.js build) so packages resolve from the project's node_modules. Tests
// and `npm run dev` still run the sources.
import path from "node:path";

export const BUNDLE_DIR = path.join(".next", "polymock");
const ENTRIES = ["server.ts", "server/runtime/next-app.ts", "protocol-runner/main.ts"];

/** The bundled file for a source entry, e.g. server.ts → .next/polymock/server.mjs. */
export function bundledEntry(root: string, entry: string): string {
  return path.join(root, BUNDLE_DIR, entry.replace(/\.ts$/, ".mjs"));
}

/** True in a process started from the bundle. */
export function runningBundled(): boolean {
  return import.meta.url.endsWith(".mjs");
}

/**
 * V8 flags of the service's processes (measured with `npm run bench`; docs/decisions.md).
 * - V8 lets the old generation grow to four times what survived the last full
 *   collection when the machine has memory to spare and the program allocates
 *   fast, as a stub server under load does: the stub process, whose live heap
 *   is about 45 MB, reached 300 MB of RSS during a minute of load (460 MB with
 *   10,000 mocks). Growing by half at most keeps it near 180–240 MB at the same
 *   throughput.
 * - A young generation of 32 MB semi-spaces (V8's default here is 16): the
 *   request log then kept each mock's newest 1,000 hits (a sample since), which
 *   at 45k requests a second lived about as long as the gap between two scavenges, so many were
 *   promoted and the old generation filled at 40 MB/s, with a full collection
 *   (3–7 ms pause) every 0.7 s under load: p99 5–6 ms. With 32 MB: a third of
 *   the full collections and p99 2.4 ms, for 30 MB more RSS.
 * - V8's memory reducer shrinks an idle heap; after 40 s without traffic the
 *   stub process then served the next load at 0.57–0.64× raw Node instead of
 *   0.8× for as long as we measured. A mock server is idle most of the time,
 *   so it is off: the heap stays at its size after the last load (capped above).
 */
export const HEAP_FLAGS = ["--heap-growing-percent=50", "--max-semi-space-size=32", "--no-memory-reducer"];

/**
 * The protocol runner keeps V8's 16 MB semi-spaces and its heap growing
 * factor, and allocates nothing in the old generation by allocation site.
 * Under G1 (gRPC unary, 10 streams; `--trace-gc-nvp` on bench/grpc-profile.ts):
 * - 32 MB semi-spaces paused it 7–12 ms a scavenge against 3–4 ms (28 Nov);
 * - `--heap-growing-percent=50` keeps incremental marking running most of the
 *   time, and scavenges then promoted 1.6 MB each and paused 4–7 ms, against
 *   0.5–0.8 MB and 2.3–2.5 ms without it;
 * - allocation-site pretenuring, having seen the request log keep every
 *   record at start-up, allocated the calls' objects in the old generation,
 *   where dead ones kept young ones alive; without it 0.35 MB and 1.8 ms.
 * `BENCH_ONLY=G1 npm run bench`, alternating (28 Nov): p99 2.35 and 2.52 ms
 * with these flags, 3.7–4.4 ms with the memory reducer flag alone, 5.6 ms with
 * the stub server's flags. The stub server's (above) were measured on its load.
 */
export const RUNNER_HEAP_FLAGS = ["--no-memory-reducer", "--no-allocation-site-pretenuring"];

/** How to run a source entry: the bundle when `bundled`, otherwise the sources through tsx. */
export function entryCommand(root: string, entry: string, bundled = runningBundled()): { nodeArgs: string[]; file: string } {
  const flags = entry.startsWith("protocol-runner/") ? RUNNER_HEAP_FLAGS : HEAP_FLAGS;
  return bundled ? { nodeArgs: [...flags], file: bundledEntry(root, entry) } : { nodeArgs: [...flags, "--import", "tsx"], file: path.join(root, entry) };
}

/** This process's Node flags (e.g. --cpu-prof) without its tsx loader. */
export function inheritedNodeFlags(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--import" && argv[i + 1] === "tsx") i++;
    else if (argv[i] !== "--import=tsx") out.push(argv[i]);
  }
  return out;
}

/** Bundles the web process and runner entries (about a second). */
export async function bundleServer(root: string): Promise<void> {
  const { build } = await import("esbuild");
  await build({
    absWorkingDir: root,
    entryPoints: ENTRIES,
    outdir: BUNDLE_DIR,
    outbase: ".",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: "tsconfig.json",
    sourcemap: "linked",
    logLevel: "warning",
  });
}
