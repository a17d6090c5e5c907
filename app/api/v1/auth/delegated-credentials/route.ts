import { authEndpoints } from "@/server/contracts/auth";
import { defineRoute } from "@/server/http/define-route";
import { createDelegated, listDelegated } from "@/server/services/credentials";

export const POST = defineRoute(authEndpoints.createDelegated, ({ actor, body }) => createDelegated(actor, body));
export const GET = defineRoute(authEndpoints.listDelegated, ({ actor }) => listDelegated(actor));
