// Import a JUnit XML or JSON report as a test run.
import { testerExecuteEndpoints as e } from "@/server/contracts/tester-execute-endpoints";
import { env } from "@/server/env";
import { defineRoute } from "@/server/http/define-route";
import { readDocumentBody } from "@/server/http/read-document-body";
import { importTestReport } from "@/server/services/tester/run-reports";
import { MAX_REPORT_BYTES } from "@/server/tester/reports/import-report";

export const POST = defineRoute(e.importReport, async ({ actor, namespace, query, req }) =>
  importTestReport(namespace, actor, await readDocumentBody(req, Math.max(env().MAX_BODY_BYTES, MAX_REPORT_BYTES)), query),
);
