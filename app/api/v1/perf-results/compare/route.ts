// Results side by side; the ids come as ids=a,b or as repeated id=a&id=b (the parsed query keeps one of each name).
import { compareIdsOf } from "@/server/contracts/perf-analysis";
import { perfResultEndpoints as e } from "@/server/contracts/perf-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { comparePerfResults } from "@/server/services/perf/results";

export const GET = defineRoute(e.compare, ({ namespace, req }) => comparePerfResults(namespace, compareIdsOf(new URL(req.url))));
