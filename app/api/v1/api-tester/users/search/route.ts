// People of an explicitly named Space, by part of their name or email.
import { testerSharingEndpoints } from "@/server/contracts/tester-sharing";
import { defineRoute } from "@/server/http/define-route";
import { explicitSpace, searchPeople } from "@/server/services/people";

export const GET = defineRoute(testerSharingEndpoints.searchPeople, async ({ actor, namespace, query }) => searchPeople(await explicitSpace(actor, namespace), query));
