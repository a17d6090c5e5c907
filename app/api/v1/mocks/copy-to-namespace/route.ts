// Not `namespaced`: the body names both namespaces, and the service checks each.
import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { copyToNamespace } from "@/server/services/mock-management";

export const POST = defineRoute(mockEndpoints.copyToNamespace, ({ actor, body }) => copyToNamespace(actor, body));
