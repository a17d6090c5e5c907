// A k6 script from a saved API tester request.
import { perfScriptEndpoints as e } from "@/server/contracts/perf-script-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { generateScriptFromRequest } from "@/server/services/perf/scripts";

export const POST = defineRoute(e.fromRequest, ({ actor, namespace, body }) => generateScriptFromRequest(actor, namespace, body));
