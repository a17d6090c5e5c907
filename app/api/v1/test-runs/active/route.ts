// Queued and running runs of every mode in the namespace.
import { testRunEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { listActiveRuns } from "@/server/services/tester/test-runs";

export const GET = defineRoute(testRunEndpoints.active, ({ namespace }) => listActiveRuns(namespace));
