import { integrationEndpoints } from "@/server/contracts/integrations";
import { defineRoute } from "@/server/http/define-route";
import { deleteRotating } from "@/server/services/integrations";

export const DELETE = defineRoute(integrationEndpoints.remove, ({ actor, params }) => deleteRotating(actor, "integration", params.id));
