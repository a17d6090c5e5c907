// Share a collection into other Spaces (view and copy there).
import { testerSharingEndpoints } from "@/server/contracts/tester-sharing";
import { defineRoute } from "@/server/http/define-route";
import { shareWithSpaces } from "@/server/services/tester/sharing";

export const POST = defineRoute(testerSharingEndpoints.shareSpaces, ({ actor, namespace, params, body }) => shareWithSpaces(actor, namespace, params.id, body));
