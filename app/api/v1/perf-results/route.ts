// Load results of the namespace, newest first.
import { perfResultEndpoints as e } from "@/server/contracts/perf-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { listPerfResults } from "@/server/services/perf/results";

export const GET = defineRoute(e.list, ({ namespace, query }) => listPerfResults(namespace, query));
