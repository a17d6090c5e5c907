import { userEndpoints } from "@/server/contracts/users";
import { defineRoute } from "@/server/http/define-route";
import { deleteUser, updateUser } from "@/server/services/users";

export const PUT = defineRoute(userEndpoints.update, ({ actor, params, body }) => updateUser(actor, params.id, body));
export const DELETE = defineRoute(userEndpoints.remove, ({ actor, params }) => deleteUser(actor, params.id));
