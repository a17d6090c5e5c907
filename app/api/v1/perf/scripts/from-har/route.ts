// A k6 script from a HAR recording.
import { perfScriptEndpoints as e } from "@/server/contracts/perf-script-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { generateScriptFromHar } from "@/server/services/perf/scripts";

export const POST = defineRoute(e.fromHar, ({ body }) => generateScriptFromHar(body));
