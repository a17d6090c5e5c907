// A new order for requests of one folder.
import { testerRequestEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { reorderRequests } from "@/server/services/tester/requests";

export const POST = defineRoute(testerRequestEndpoints.reorder, ({ namespace, params, body }) => reorderRequests(namespace, params.id, body.ids));
