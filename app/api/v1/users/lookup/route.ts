// People of an explicitly named Space, by id (unknown and foreign ids left out).
import { testerSharingEndpoints } from "@/server/contracts/tester-sharing";
import { defineRoute } from "@/server/http/define-route";
import { explicitSpace, lookupPeople } from "@/server/services/people";

export const POST = defineRoute(testerSharingEndpoints.lookupPeople, async ({ actor, namespace, body }) => lookupPeople(await explicitSpace(actor, namespace), body.userIds));
