// The Spaces a collection is shared into.
import { testerSharingEndpoints } from "@/server/contracts/tester-sharing";
import { defineRoute } from "@/server/http/define-route";
import { listSpaceShares } from "@/server/services/tester/sharing";

export const GET = defineRoute(testerSharingEndpoints.listSpaces, ({ actor, namespace, params }) => listSpaceShares(actor, namespace, params.id));
