// Remove one user share.
import { testerSharingEndpoints } from "@/server/contracts/tester-sharing";
import { defineRoute } from "@/server/http/define-route";
import { removeUserShare } from "@/server/services/tester/sharing";

export const DELETE = defineRoute(testerSharingEndpoints.removeUser, ({ actor, namespace, params }) => removeUserShare(actor, namespace, params.id, params.userId));
