// One stage of `npm test` (vitest, next build, Playwright) as a child process
// with a hard time limit. The stage runs in its own process group, so a
// timeout kills it together with every process it started (browsers,
// servers, workers); how it ended is reported, never guessed from an exit code.
import { spawn } from "node:child_process";
import path from "node:path";

export interface StageResult {
  status: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  /** Set when the command could not be started at all. */
  error?: string;
}

export interface StageOptions {
  limitMs: number;
  env?: Record<string, string>;
  stdio?: "inherit" | "ignore";
  /** Between SIGTERM and SIGKILL of a timed-out stage. */
  graceMs?: number;
}

export function runStage(cmd: string, args: string[], opts: StageOptions): Promise<StageResult> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: opts.stdio ?? "inherit", env: { ...process.env, ...opts.env }, detached: true });
    let timedOut = false;
    let error: string | undefined;
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {}
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup("SIGTERM");
      setTimeout(() => killGroup("SIGKILL"), opts.graceMs ?? 10_000).unref();
    }, opts.limitMs);
    // Ctrl-C reaches only the foreground group; pass it on to the detached stage.
    const forward = () => killGroup("SIGTERM");
    process.once("SIGINT", forward);
    process.once("SIGTERM", forward);
    child.on("error", (err) => (error = `could not start ${path.basename(cmd)}: ${err.message}`));
    child.on("close", (status, signal) => {
      clearTimeout(timer);
      process.off("SIGINT", forward);
      process.off("SIGTERM", forward);
      // Leftovers of a killed stage must not outlive it.
      if (timedOut || signal) killGroup("SIGKILL");
      resolve({ status, signal, timedOut, ...(error ? { error } : {}) });
    });
  });
}

/** The line that explains a stage that did not end on its own, or null when it did (whatever its exit code). */
export function stageProblem(name: string, r: StageResult, limitMs: number): string | null {
  if (r.timedOut) return `${name} timed out: killed after ${Math.round(limitMs / 60_000)} minutes`;
  if (r.error) return `${name} crashed: ${r.error}`;
  if (r.signal) return `${name} crashed: killed by ${r.signal}`;
  if (r.status === null) return `${name} crashed: no exit status`;
  return null;
}
