// A saved load test's results, newest first.
import { perfResultEndpoints as e } from "@/server/contracts/perf-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { perfHistory } from "@/server/services/perf/results";

export const GET = defineRoute(e.history, ({ namespace, params, query }) => perfHistory(namespace, params.configId, query));
