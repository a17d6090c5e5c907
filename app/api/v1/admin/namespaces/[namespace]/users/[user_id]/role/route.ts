import { namespaceEndpoints } from "@/server/contracts/namespaces";
import { defineRoute } from "@/server/http/define-route";
import { setMemberRole } from "@/server/services/namespaces";

export const PUT = defineRoute(namespaceEndpoints.adminSetRole, ({ actor, params, body }) => setMemberRole(actor, params.namespace, params.user_id, body.role));
