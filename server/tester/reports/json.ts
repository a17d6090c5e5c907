// A run as our own JSON report: the whole TestRunDetail inside a small
// versioned envelope, so a report saved today can still be recognised,
// validated and imported when the run shape grows (a new version number,
// never a silent change of version 1).
import { z } from "zod";
import { TestRunDetail } from "@/server/contracts/tester-run";

export const TEST_REPORT_FORMAT = "polymock-test-report";
export const TEST_REPORT_VERSION = 1;

export const TestReportDocument = z
  .object({
    format: z.literal(TEST_REPORT_FORMAT),
    version: z.literal(TEST_REPORT_VERSION),
    run: TestRunDetail,
  })
  .describe("A test run exported as JSON; reports/import reads it back");
export type TestReportDocument = z.infer<typeof TestReportDocument>;

/** The document; the run goes through its schema so fields that are not part of it (database columns) stay out. */
export function toJsonReport(run: TestRunDetail): TestReportDocument {
  return { format: TEST_REPORT_FORMAT, version: TEST_REPORT_VERSION, run: TestRunDetail.parse(run) };
}

/** The document as a file's text. */
export function toJsonReportText(run: TestRunDetail): string {
  return `${JSON.stringify(toJsonReport(run), null, 2)}\n`;
}
