// One saved request: read, change, delete.
import { testerRequestEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { deleteRequest, getRequest, updateRequest } from "@/server/services/tester/requests";

export const GET = defineRoute(testerRequestEndpoints.get, ({ namespace, params }) => getRequest(namespace, params.id));
export const PUT = defineRoute(testerRequestEndpoints.update, ({ namespace, params, body }) => updateRequest(namespace, params.id, body));
export const DELETE = defineRoute(testerRequestEndpoints.remove, ({ namespace, params }) => deleteRequest(namespace, params.id));
