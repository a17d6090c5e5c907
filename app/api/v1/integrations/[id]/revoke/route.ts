import { integrationEndpoints } from "@/server/contracts/integrations";
import { defineRoute } from "@/server/http/define-route";
import { revokeRotating } from "@/server/services/integrations";

export const POST = defineRoute(integrationEndpoints.revoke, ({ actor, params }) => revokeRotating(actor, "integration", params.id));
