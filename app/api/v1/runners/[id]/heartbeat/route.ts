// A runner agent's heartbeat (every 5 s): alive, with its active VUs.
import { runnerEndpoints as e } from "@/server/contracts/runner-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { heartbeatRunner } from "@/server/services/runners/registry";

export const POST = defineRoute(e.heartbeat, ({ actor, params, body }) => heartbeatRunner(actor, params.id, body));
