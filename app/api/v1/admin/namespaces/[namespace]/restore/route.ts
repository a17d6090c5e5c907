import { namespaceEndpoints } from "@/server/contracts/namespaces";
import { defineRoute } from "@/server/http/define-route";
import { adminRestoreNamespace } from "@/server/services/namespaces";

export const POST = defineRoute(namespaceEndpoints.adminRestore, ({ actor, params }) => adminRestoreNamespace(actor, params.namespace));
