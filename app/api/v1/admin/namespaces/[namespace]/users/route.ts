import { namespaceEndpoints } from "@/server/contracts/namespaces";
import { defineRoute } from "@/server/http/define-route";
import { addMember, listMembers } from "@/server/services/namespaces";

export const GET = defineRoute(namespaceEndpoints.adminUsers, ({ params }) => listMembers(params.namespace));
export const POST = defineRoute(namespaceEndpoints.adminAddUser, ({ actor, params, body }) => addMember(actor, params.namespace, body));
