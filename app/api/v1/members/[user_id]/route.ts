import { memberEndpoints } from "@/server/contracts/namespaces";
import { defineRoute } from "@/server/http/define-route";
import { assertCanManageMembers, removeMember, setMemberRole } from "@/server/services/namespaces";

export const PUT = defineRoute(memberEndpoints.setRole, ({ actor, namespace, params, body }) => {
  assertCanManageMembers(actor, namespace);
  return setMemberRole(actor, namespace.name, params.user_id, body.role);
});
export const DELETE = defineRoute(memberEndpoints.remove, ({ actor, namespace, params }) => {
  assertCanManageMembers(actor, namespace);
  return removeMember(actor, namespace.name, params.user_id);
});
