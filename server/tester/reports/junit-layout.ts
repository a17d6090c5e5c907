// What our JUnit report says beyond plain JUnit, shared by the writer and the
// importer so that a report we wrote comes back as the run it was: the
// request's method, URL, folders and iteration ride in each testsuite's
// <properties> (JUnit's own extension point, which CI servers ignore), and
// logs are written one "[level] message" per entry.
import type { RunRequestResult } from "@/server/contracts/tester-run";
import { LogLevel, type ScriptLog } from "@/server/contracts/tester-execution";

export const PROPERTY = {
  request: "polymock.request",
  path: "polymock.path",
  /** 0-based, as in the run; names show it 1-based. */
  iteration: "polymock.iteration",
  method: "polymock.method",
  url: "polymock.url",
  responseCode: "polymock.responseCode",
  responseSize: "polymock.responseSize",
  collectionId: "polymock.collectionId",
  requestId: "polymock.requestId",
  /** Name of the testcase that stands for the request itself (no tests, or an error), not for a test. */
  requestTestcase: "polymock.requestTestcase",
} as const;

export const PATH_SEPARATOR = " / ";

/** "Folder / Request", with the iteration (1-based, as the runner shows it) when the run had several. */
export function suiteName(result: Pick<RunRequestResult, "path" | "name" | "iteration">, withIteration: boolean): string {
  const name = [...result.path, result.name].join(PATH_SEPARATOR);
  return withIteration ? `${name} (iteration ${result.iteration + 1})` : name;
}

/**
 * Folders as the package and the request as the class, which is how Jenkins and GitLab group cases;
 * a dot inside a name would start a package of its own, so it is written as "_".
 */
export function className(result: Pick<RunRequestResult, "path" | "name" | "iteration">, withIteration: boolean): string {
  const segments = [...result.path, result.name].map((s) => s.replaceAll(".", "_"));
  const last = segments.length - 1;
  if (withIteration) segments[last] = `${segments[last]} (iteration ${result.iteration + 1})`;
  return segments.join(".");
}

export function formatLogs(logs: readonly ScriptLog[]): string {
  return logs.map((l) => `[${l.level}] ${l.message}`).join("\n");
}

const LOG_LINE = new RegExp(`^\\[(${LogLevel.options.join("|")})\\] `);

/** Logs written by formatLogs; a line without a "[level] " start continues the entry before it. */
export function parseLogs(text: string): ScriptLog[] {
  const logs: ScriptLog[] = [];
  for (const line of text.split(/\r?\n/)) {
    const start = LOG_LINE.exec(line);
    if (start) logs.push({ level: start[1] as ScriptLog["level"], message: line.slice(start[0].length), at: 0 });
    else if (logs.length > 0) logs[logs.length - 1].message += `\n${line}`;
    else if (line.trim() !== "") logs.push({ level: "log", message: line, at: 0 });
  }
  return logs;
}
