// Bringing a test report from elsewhere in as a run: JUnit XML from any CI
// producer or our own JSON report, told apart by their first character
// (or by the caller). Whatever the file claims as totals, counts and the
// run's status are computed from its results.
import type { z } from "zod";
import { parseJsonText } from "../json-text";
import { assembleImportedRun, type ImportedRun } from "./imported-run";
import { importJUnit } from "./junit-import";
import { TEST_REPORT_FORMAT, TEST_REPORT_VERSION, TestReportDocument } from "./json";
import { ReportFormatError } from "./report-format-error";

export { ReportFormatError } from "./report-format-error";
export { ImportedRun } from "./imported-run";
export { MAX_TESTCASES } from "./junit-import";

export const MAX_REPORT_BYTES = 20 * 1024 * 1024;

export interface ParseReportOptions {
  /** Decided from the text when absent: `<` first means JUnit, `{` our JSON report. */
  format?: "junit" | "json";
  /** When a JUnit report carries no timestamp at all; tests pass a fixed one. */
  now?: Date;
}

export function parseReport(text: string, opts: ParseReportOptions = {}): ImportedRun {
  if (text.length > MAX_REPORT_BYTES || Buffer.byteLength(text) > MAX_REPORT_BYTES) {
    throw new ReportFormatError(`the report is larger than ${MAX_REPORT_BYTES / 1024 / 1024} MiB`);
  }
  const body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const first = body.trimStart()[0];
  if (first === undefined) throw new ReportFormatError("the report is empty");
  const format = opts.format ?? (first === "<" ? "junit" : first === "{" ? "json" : undefined);
  if (format === "junit") return importJUnit(body, opts.now ?? new Date());
  if (format === "json") return importJson(body);
  throw new ReportFormatError("this is neither JUnit XML (which starts with <) nor a polymock JSON test report (which starts with {)");
}

function importJson(text: string): ImportedRun {
  const parsed = parseJsonText(text);
  if (!parsed.ok) throw new ReportFormatError(`invalid JSON: ${parsed.problem.message}`, parsed.problem.line, parsed.problem.column);
  const value = parsed.value as Record<string, unknown> | null;
  if (value === null || typeof value !== "object" || Array.isArray(value) || value.format !== TEST_REPORT_FORMAT) {
    throw new ReportFormatError(`this JSON is not a polymock test report (it has no "format": "${TEST_REPORT_FORMAT}")`);
  }
  if (value.version !== TEST_REPORT_VERSION) {
    throw new ReportFormatError(`version ${JSON.stringify(value.version)} of the test report format is not supported; this server reads version ${TEST_REPORT_VERSION}`);
  }
  const doc = TestReportDocument.safeParse(value);
  if (!doc.success) throw new ReportFormatError(`the report's run is not valid: ${firstIssue(doc.error)}`);
  const { run } = doc.data;
  return assembleImportedRun(
    {
      name: run.name,
      mode: run.mode,
      startedAt: run.startedAt,
      finishedAt: run.finishedAt,
      durationMs: run.durationMs,
      iterations: run.iterations,
      // Counts cannot show that a run was stopped or broke off; the status it ended with can.
      end: { cancelled: run.status === "cancelled", error: run.status === "error" },
      statusReason: run.statusReason,
      referenceId: run.referenceId,
      collectionIds: run.collectionIds,
      environmentId: run.environmentId,
    },
    run.results,
  );
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
  return `${path.replace(/^\./, "") || "(the document)"}: ${issue.message}`;
}
