// A test run as a JUnit XML, HTML or JSON report.
import { testerExecuteEndpoints as e } from "@/server/contracts/tester-execute-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { exportTestRun } from "@/server/services/tester/run-reports";

export const GET = defineRoute(e.exportRun, ({ namespace, params, query }) => exportTestRun(namespace, params.id, query.format));
