import { integrationEndpoints } from "@/server/contracts/integrations";
import { defineRoute } from "@/server/http/define-route";
import { rotateRotating } from "@/server/services/integrations";

export const POST = defineRoute(integrationEndpoints.rotate, ({ actor, params }) => rotateRotating(actor, "integration", params.id));
