import { namespaceEndpoints } from "@/server/contracts/namespaces";
import { defineRoute } from "@/server/http/define-route";
import { createNamespace, listNamespacesForApi } from "@/server/services/namespaces";

export const POST = defineRoute(namespaceEndpoints.create, ({ actor, body }) => createNamespace(actor, body));
export const GET = defineRoute(namespaceEndpoints.list, ({ actor, query }) => listNamespacesForApi(actor, query.detail === true));
