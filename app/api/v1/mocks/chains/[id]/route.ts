import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { chainMocks, deleteChain } from "@/server/services/mock-management";

export const GET = defineRoute(mockEndpoints.chain, ({ namespace, params }) => chainMocks(namespace, params.id));
export const DELETE = defineRoute(mockEndpoints.deleteChain, ({ actor, namespace, params }) => deleteChain(actor, namespace, params.id));
