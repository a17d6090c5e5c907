// One saved load test: read, change, delete.
import { perfConfigEndpoints as e } from "@/server/contracts/perf-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { deletePerfConfig, getPerfConfig, updatePerfConfig } from "@/server/services/perf/configs";

export const GET = defineRoute(e.get, ({ namespace, params }) => getPerfConfig(namespace, params.id));
export const PUT = defineRoute(e.update, ({ namespace, params, body }) => updatePerfConfig(namespace, params.id, body));
export const DELETE = defineRoute(e.remove, ({ namespace, params }) => deletePerfConfig(namespace, params.id));
