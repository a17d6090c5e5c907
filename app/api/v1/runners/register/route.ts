// A runner agent (`polymock runner`) registers with its integration token.
import { runnerEndpoints as e } from "@/server/contracts/runner-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { registerRunner } from "@/server/services/runners/registry";

export const POST = defineRoute(e.register, ({ actor, body }) => registerRunner(actor, body));
