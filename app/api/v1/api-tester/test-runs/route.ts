// Test runs of the namespace.
import { testRunEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { listTestRuns } from "@/server/services/tester/test-runs";

export const GET = defineRoute(testRunEndpoints.list, ({ namespace, query }) => listTestRuns(namespace, query));
