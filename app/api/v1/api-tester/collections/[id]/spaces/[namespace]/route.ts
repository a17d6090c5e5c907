// Stop sharing a collection into one Space.
import { testerSharingEndpoints } from "@/server/contracts/tester-sharing";
import { defineRoute } from "@/server/http/define-route";
import { removeSpaceShare } from "@/server/services/tester/sharing";

export const DELETE = defineRoute(testerSharingEndpoints.removeSpace, ({ actor, namespace, params }) => removeSpaceShare(actor, namespace, params.id, params.namespace));
