import { userEndpoints } from "@/server/contracts/users";
import { defineRoute } from "@/server/http/define-route";
import { createUser, listUsers } from "@/server/services/users";

export const GET = defineRoute(userEndpoints.list, ({ query }) => listUsers(query));
export const POST = defineRoute(userEndpoints.create, ({ actor, body }) => createUser(actor, body));
