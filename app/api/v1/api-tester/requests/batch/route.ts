// Several saved requests deleted, all or none.
import { testerRequestEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { deleteRequests } from "@/server/services/tester/requests";

export const DELETE = defineRoute(testerRequestEndpoints.batchDelete, ({ namespace, body }) => deleteRequests(namespace, body.ids));
