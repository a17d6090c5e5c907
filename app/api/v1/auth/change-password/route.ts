import { authEndpoints } from "@/server/contracts/auth";
import { defineRoute } from "@/server/http/define-route";
import { changePassword } from "@/server/services/auth";

export const POST = defineRoute(authEndpoints.changePassword, ({ actor, body }) => changePassword(actor, body));
