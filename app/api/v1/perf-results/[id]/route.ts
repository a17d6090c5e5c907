// One load result (live while it runs), and its deletion.
import { perfResultEndpoints as e } from "@/server/contracts/perf-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { deletePerfResult, getPerfResult } from "@/server/services/perf/results";

export const GET = defineRoute(e.get, ({ namespace, params }) => getPerfResult(namespace, params.id));
export const DELETE = defineRoute(e.remove, ({ namespace, params }) => deletePerfResult(namespace, params.id));
