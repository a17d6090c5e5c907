import { userEndpoints } from "@/server/contracts/users";
import { defineRoute } from "@/server/http/define-route";
import { setUserPassword } from "@/server/services/users";

export const PUT = defineRoute(userEndpoints.setPassword, ({ actor, params, body }) => setUserPassword(actor, params.id, body.password));
