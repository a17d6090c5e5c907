// The caller's active environment in the namespace: read, or choose none.
import { testerEnvironmentEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { deactivateEnvironment, getActiveEnvironment } from "@/server/services/tester/environments";

export const GET = defineRoute(testerEnvironmentEndpoints.active, ({ actor, namespace }) => getActiveEnvironment(actor, namespace));
export const DELETE = defineRoute(testerEnvironmentEndpoints.deactivate, ({ actor, namespace }) => deactivateEnvironment(actor, namespace));
