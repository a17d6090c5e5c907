// A collection's current user shares.
import { testerSharingEndpoints } from "@/server/contracts/tester-sharing";
import { defineRoute } from "@/server/http/define-route";
import { listUserShares } from "@/server/services/tester/sharing";

export const GET = defineRoute(testerSharingEndpoints.listUsers, ({ actor, namespace, params }) => listUserShares(actor, namespace, params.id));
