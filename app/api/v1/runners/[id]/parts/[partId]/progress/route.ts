// A running part's report (each second): new points, cumulative metrics; answers whether to stop.
import { runnerEndpoints as e } from "@/server/contracts/runner-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { reportPartProgress } from "@/server/services/runners/claims";

export const POST = defineRoute(e.progress, ({ actor, params, body }) => reportPartProgress(actor, params.id, params.partId, body));
