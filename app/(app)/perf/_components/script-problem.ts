// Where the API says a load script is wrong: its 400 carries
// details[0] = { path: "script", line, column, message } (server/services/perf/runs.ts,
// loadInputProblem), so the editor can put a marker there.
import { TRPCClientError } from "@trpc/client";
import type { ScriptProblem } from "@/components/perf/k6-script-editor";

interface Detail {
  path?: unknown;
  field?: unknown;
  line?: unknown;
  column?: unknown;
  message?: unknown;
}

/** The script problem an API error names, or null when it names no line of the script. */
export function scriptProblemOf(error: unknown): ScriptProblem | null {
  if (!(error instanceof TRPCClientError)) return null;
  const details = (error.data as { details?: unknown } | undefined)?.details;
  const list = Array.isArray(details) ? (details as Detail[]) : details && typeof details === "object" ? [details as Detail] : [];
  for (const d of list) {
    if (typeof d?.line !== "number") continue;
    const where = d.path ?? d.field;
    if (where !== undefined && where !== "script") continue;
    return { line: d.line, column: typeof d.column === "number" ? d.column : undefined, message: typeof d.message === "string" ? d.message : error.message };
  }
  return null;
}
