import { authEndpoints } from "@/server/contracts/auth";
import { defineRoute } from "@/server/http/define-route";
import { createToken, listTokens } from "@/server/services/credentials";

export const POST = defineRoute(authEndpoints.createToken, ({ actor, body }) => createToken(actor, body));
export const GET = defineRoute(authEndpoints.listTokens, ({ actor }) => listTokens(actor));
