// A collection's saved requests: list and create.
import { testerRequestEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { createRequest, listRequests } from "@/server/services/tester/requests";

export const GET = defineRoute(testerRequestEndpoints.list, ({ namespace, params }) => listRequests(namespace, params.id));
export const POST = defineRoute(testerRequestEndpoints.create, ({ namespace, params, body }) => createRequest(namespace, params.id, body));
