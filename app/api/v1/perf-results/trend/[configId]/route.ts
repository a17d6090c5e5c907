// A saved load test's ended runs as chart points, oldest first.
import { perfResultEndpoints as e } from "@/server/contracts/perf-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { perfTrend } from "@/server/services/perf/results";

export const GET = defineRoute(e.trend, ({ namespace, params, query }) => perfTrend(namespace, params.configId, query));
