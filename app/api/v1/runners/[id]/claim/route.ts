// A runner agent takes its next part (long poll; ends early when the agent hangs up).
import { runnerEndpoints as e } from "@/server/contracts/runner-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { claimPart } from "@/server/services/runners/claims";

export const POST = defineRoute(e.claim, ({ actor, params, body, req }) => claimPart(actor, params.id, body, req.signal));
