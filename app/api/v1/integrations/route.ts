import { integrationEndpoints } from "@/server/contracts/integrations";
import { defineRoute } from "@/server/http/define-route";
import { createIntegration, listIntegrations } from "@/server/services/integrations";

export const GET = defineRoute(integrationEndpoints.list, ({ actor }) => listIntegrations(actor));
export const POST = defineRoute(integrationEndpoints.create, ({ actor, body }) => createIntegration(actor, body));
