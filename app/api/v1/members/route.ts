import { memberEndpoints } from "@/server/contracts/namespaces";
import { defineRoute } from "@/server/http/define-route";
import { addMember, assertCanManageMembers, listMembers } from "@/server/services/namespaces";

export const GET = defineRoute(memberEndpoints.list, ({ namespace }) => listMembers(namespace.name));
export const POST = defineRoute(memberEndpoints.add, ({ actor, namespace, body }) => {
  assertCanManageMembers(actor, namespace);
  return addMember(actor, namespace.name, body);
});
