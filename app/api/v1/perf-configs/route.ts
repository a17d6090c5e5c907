// Saved load tests of the namespace: list and create.
import { perfConfigEndpoints as e } from "@/server/contracts/perf-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { createPerfConfig, listPerfConfigs } from "@/server/services/perf/configs";

export const GET = defineRoute(e.list, ({ namespace, query }) => listPerfConfigs(namespace, query));
export const POST = defineRoute(e.create, ({ actor, namespace, body }) => createPerfConfig(actor, namespace, body));
