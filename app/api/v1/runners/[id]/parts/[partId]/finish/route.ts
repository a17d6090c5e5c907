// A part's final report; the run is merged when its last part ends.
import { runnerEndpoints as e } from "@/server/contracts/runner-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { finishRunnerPart } from "@/server/services/runners/claims";

export const POST = defineRoute(e.finish, ({ actor, params, body }) => finishRunnerPart(actor, params.id, params.partId, body));
