// A test run's report (the run with its results).
import { testRunEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { getTestRun } from "@/server/services/tester/test-runs";

export const GET = defineRoute(testRunEndpoints.report, ({ namespace, params }) => getTestRun(namespace, params.id));
