// The script editor's k6 snippets.
import { perfScriptEndpoints as e } from "@/server/contracts/perf-script-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { listPerfSnippets } from "@/server/services/perf/scripts";

export const GET = defineRoute(e.snippets, () => listPerfSnippets());
