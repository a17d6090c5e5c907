// Run collections as a load test (the API tester's execute-perf).
import { perfCollectionEndpoints as e } from "@/server/contracts/perf-collection-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { executePerf } from "@/server/services/perf/collection-runs";

export const dynamic = "force-dynamic";
export const POST = defineRoute(e.executePerf, ({ actor, namespace, body }) => executePerf(actor, namespace, body));
