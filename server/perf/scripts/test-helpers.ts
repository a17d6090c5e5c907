// For the generators' tests: a way to run a generated script once on the
// real load engine against the recording target (server/testing/load-target.ts,
// re-exported here for the tests that import it from this file).
import { type LoadRunResult, runLoadTest } from "@/server/perf/k6/engine";

export { type Seen, startTarget, type Target } from "@/server/testing/load-target";

/** One VU, `iterations` iterations (the script's own load shape is replaced, as k6's CLI flags would). */
export async function runOnce(script: string, opts: { env?: Record<string, string>; hosts?: Record<string, string>; iterations?: number; files?: Record<string, string> } = {}): Promise<LoadRunResult> {
  const result = await runLoadTest({
    source: script,
    options: { vus: 1, iterations: opts.iterations ?? 1, duration: null, stages: null, ...(opts.hosts ? { hosts: opts.hosts } : {}) },
    env: opts.env,
    files: opts.files,
  });
  if (result.errors.length) throw new Error(`the script failed: ${result.errors.map((e) => e.message).join("; ")}\n${script}`);
  // Generated scripts are written so that their VUs can share isolates (the load engine's fast mode).
  if (result.engine !== "VUs share isolates") throw new Error(`the generated script runs with ${result.engine}\n${script}`);
  return result;
}
