// Inside the isolate: the script's console, captured into the run's logs
// within the entry and byte limits (a flood ends the script with kind output).
import { formatArgs, utf8Length } from "./format";
import type { Run } from "./run";

type Level = "log" | "info" | "warn" | "error" | "debug";

export function makeConsole(run: Run) {
  const emit = (level: Level) =>
    function (...args: unknown[]): void {
      if (run.flooded) throw run.flood(run.flooded);
      const message = formatArgs(args);
      const bytes = utf8Length(message);
      if (run.logCount >= run.limits.maxLogEntries) throw run.flood(`Log limit reached: more than ${run.limits.maxLogEntries} console entries`);
      if (run.logBytes + bytes > run.limits.maxLogBytes) throw run.flood(`Log limit reached: more than ${run.limits.maxLogBytes} bytes of console output`);
      run.logCount++;
      run.logBytes += bytes;
      run.outbox.logs.push({ level, message, at: run.at() });
    };
  const log = emit("log");
  return {
    log,
    info: emit("info"),
    warn: emit("warn"),
    error: emit("error"),
    debug: emit("debug"),
    trace: log,
    dir: log,
    table: log,
    assert(condition: unknown, ...args: unknown[]) {
      if (!condition) emit("error")("Assertion failed" + (args.length ? ":" : ""), ...args);
    },
    clear() {},
    group() {},
    groupEnd() {},
    time() {},
    timeEnd() {},
  };
}
