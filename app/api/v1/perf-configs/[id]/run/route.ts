// Run a saved load test (answers 202: the run goes on in the background).
import { perfConfigEndpoints as e } from "@/server/contracts/perf-endpoints";
import { defineRoute, Reply } from "@/server/http/define-route";
import { runPerfConfig } from "@/server/services/perf/configs";

export const POST = defineRoute(e.run, async ({ actor, namespace, params, body }) => new Reply(await runPerfConfig(actor, namespace, params.id, body), { status: 202 }));
