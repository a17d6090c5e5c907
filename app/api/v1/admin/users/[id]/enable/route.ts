import { userEndpoints } from "@/server/contracts/users";
import { defineRoute } from "@/server/http/define-route";
import { setUserDisabled } from "@/server/services/users";

export const POST = defineRoute(userEndpoints.enable, ({ actor, params }) => setUserDisabled(actor, params.id, false));
