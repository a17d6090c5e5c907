import { authEndpoints } from "@/server/contracts/auth";
import { defineRoute } from "@/server/http/define-route";
import { getDelegated, revokeDelegated } from "@/server/services/credentials";

export const GET = defineRoute(authEndpoints.getDelegated, ({ actor, params }) => getDelegated(actor, params.id));
export const DELETE = defineRoute(authEndpoints.revokeDelegated, ({ actor, params }) => revokeDelegated(actor, params.id));
