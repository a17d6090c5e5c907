// One environment: read, change, delete.
import { testerEnvironmentEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { deleteEnvironment, getEnvironment, updateEnvironment } from "@/server/services/tester/environments";

export const GET = defineRoute(testerEnvironmentEndpoints.get, ({ actor, namespace, params }) => getEnvironment(actor, namespace, params.id));
export const PUT = defineRoute(testerEnvironmentEndpoints.update, ({ actor, namespace, params, body }) => updateEnvironment(actor, namespace, params.id, body));
export const DELETE = defineRoute(testerEnvironmentEndpoints.remove, ({ namespace, params }) => deleteEnvironment(namespace, params.id));
