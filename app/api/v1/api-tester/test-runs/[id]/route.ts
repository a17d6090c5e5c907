// One test run with its results: read, delete.
import { testRunEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { deleteTestRun, getTestRun } from "@/server/services/tester/test-runs";

export const GET = defineRoute(testRunEndpoints.get, ({ namespace, params }) => getTestRun(namespace, params.id));
export const DELETE = defineRoute(testRunEndpoints.remove, ({ namespace, params }) => deleteTestRun(namespace, params.id));
