import { integrationEndpoints } from "@/server/contracts/integrations";
import { defineRoute } from "@/server/http/define-route";
import { createNamespaceIntegration } from "@/server/services/integrations";

export const POST = defineRoute(integrationEndpoints.createForNamespace, ({ actor, params, body }) => createNamespaceIntegration(actor, params.ns, body));
