import { namespaceEndpoints } from "@/server/contracts/namespaces";
import { defineRoute } from "@/server/http/define-route";
import { adminDeleteNamespace } from "@/server/services/namespaces";

export const DELETE = defineRoute(namespaceEndpoints.adminDelete, ({ actor, params }) => adminDeleteNamespace(actor, params.namespace));
