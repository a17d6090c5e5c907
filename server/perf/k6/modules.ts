// Which k6 modules a script may import here, and what each exports. The
// isolate's runtime (isolate/entry.ts) implements them; the host makes one
// small ES module per specifier that re-exports the runtime's object, so a
// script's `import http from "k6/http"` and `import { check } from "k6"`
// both work. Anything else is refused before a VU starts, naming the module.
export const SUPPORTED_MODULES: Record<string, readonly string[]> = {
  k6: ["check", "group", "sleep", "fail", "randomSeed"],
  "k6/http": ["get", "head", "options", "post", "put", "patch", "del", "request", "batch", "url", "expectedStatuses", "setResponseCallback", "TLS_1_2", "TLS_1_3", "OCSP_STATUS_GOOD"],
  "k6/metrics": ["Counter", "Gauge", "Rate", "Trend"],
  "k6/data": ["SharedArray"],
  "k6/encoding": ["b64encode", "b64decode"],
  // Default import only: `exec.vu.idInTest` reads the current VU and iteration; a named binding would be a snapshot.
  "k6/execution": [],
};

/** k6 modules that exist but are not built here, with what to do instead. */
const NOT_BUILT: Record<string, string> = {
  "k6/browser": "browser testing is not supported by this load engine",
  "k6/experimental/browser": "browser testing is not supported by this load engine",
  "k6/net/grpc": "gRPC load is not supported yet; use HTTP requests",
  "k6/ws": "WebSocket load is not supported yet",
  "k6/experimental/websockets": "WebSocket load is not supported yet",
  "k6/crypto": "k6/crypto is not supported yet",
  "k6/html": "k6/html is not supported (no HTML parser in the load sandbox)",
  "k6/timers": "k6/timers is not supported yet",
  "k6/experimental/redis": "k6/experimental/redis is not supported",
  "k6/experimental/fs": "k6/experimental/fs is not supported; use open() in the init context",
};

/** undefined when the specifier is importable, else why not. */
export function unsupportedModule(specifier: string): string | undefined {
  if (SUPPORTED_MODULES[specifier]) return undefined;
  if (NOT_BUILT[specifier]) return NOT_BUILT[specifier];
  if (/^https?:\/\//.test(specifier)) return "remote modules cannot be fetched by the load engine (no internet access from runners); inline the code";
  if (specifier.startsWith("k6/")) return `"${specifier}" is not a k6 module this engine has`;
  return "only k6 modules can be imported; local files are not supported (inline the code or use open() for data)";
}

/** The ES module source that re-exports the runtime's implementation of `specifier`. */
export function moduleSource(specifier: string): string {
  const names = SUPPORTED_MODULES[specifier];
  const ref = `globalThis.__k6modules[${JSON.stringify(specifier)}]`;
  return [`const m = ${ref};`, "export default m;", ...names.map((n) => `export const ${n} = m.${n};`)].join("\n");
}
