// Share a collection with members of its Space.
import { testerSharingEndpoints } from "@/server/contracts/tester-sharing";
import { defineRoute } from "@/server/http/define-route";
import { shareWithUsers } from "@/server/services/tester/sharing";

export const POST = defineRoute(testerSharingEndpoints.shareUsers, ({ actor, namespace, params, body }) => shareWithUsers(actor, namespace, params.id, body));
