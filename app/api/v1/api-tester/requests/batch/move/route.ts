// Several saved requests moved to a collection and folder, all or none.
import { testerRequestEndpoints } from "@/server/contracts/api-tester";
import { defineRoute } from "@/server/http/define-route";
import { moveRequests } from "@/server/services/tester/requests";

export const PATCH = defineRoute(testerRequestEndpoints.batchMove, ({ namespace, body }) => moveRequests(namespace, body));
