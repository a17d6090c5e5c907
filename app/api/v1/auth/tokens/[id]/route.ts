import { authEndpoints } from "@/server/contracts/auth";
import { defineRoute } from "@/server/http/define-route";
import { getToken, revokeToken, updateToken } from "@/server/services/credentials";

export const GET = defineRoute(authEndpoints.getToken, ({ actor, params }) => getToken(actor, params.id));
export const PATCH = defineRoute(authEndpoints.updateToken, ({ actor, params, body }) => updateToken(actor, params.id, body));
export const DELETE = defineRoute(authEndpoints.revokeToken, ({ actor, params }) => revokeToken(actor, params.id));
