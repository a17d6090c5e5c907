// Change a user share's role.
import { testerSharingEndpoints } from "@/server/contracts/tester-sharing";
import { defineRoute } from "@/server/http/define-route";
import { setUserShareRole } from "@/server/services/tester/sharing";

export const PUT = defineRoute(testerSharingEndpoints.setUserRole, ({ actor, namespace, params, body }) => setUserShareRole(actor, namespace, params.id, params.userId, body.role));
