// A k6 script from requests and load options.
import { perfScriptEndpoints as e } from "@/server/contracts/perf-script-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { generateScriptFromConfig } from "@/server/services/perf/scripts";

export const POST = defineRoute(e.fromConfig, ({ body }) => generateScriptFromConfig(body));
