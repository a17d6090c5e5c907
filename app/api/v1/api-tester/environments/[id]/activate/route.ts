// Make an environment the caller's active one.
import { testerEnvironmentEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { activateEnvironment } from "@/server/services/tester/environments";

export const POST = defineRoute(testerEnvironmentEndpoints.activate, ({ actor, namespace, params }) => activateEnvironment(actor, namespace, params.id));
