import { authEndpoints } from "@/server/contracts/auth";
import { defineRoute } from "@/server/http/define-route";
import { rotateDelegated } from "@/server/services/credentials";

export const POST = defineRoute(authEndpoints.rotateDelegated, ({ actor, params }) => rotateDelegated(actor, params.id));
