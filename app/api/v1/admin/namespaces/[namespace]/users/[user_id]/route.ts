import { namespaceEndpoints } from "@/server/contracts/namespaces";
import { defineRoute } from "@/server/http/define-route";
import { removeMember } from "@/server/services/namespaces";

export const DELETE = defineRoute(namespaceEndpoints.adminRemoveUser, ({ actor, params }) => removeMember(actor, params.namespace, params.user_id));
