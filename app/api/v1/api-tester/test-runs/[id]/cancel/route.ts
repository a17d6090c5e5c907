// Cancel a running test run.
import { testerExecuteEndpoints as e } from "@/server/contracts/tester-execute-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { cancelTestRun } from "@/server/services/tester/run-collections";

export const POST = defineRoute(e.cancelRun, ({ namespace, params }) => cancelTestRun(namespace, params.id));
