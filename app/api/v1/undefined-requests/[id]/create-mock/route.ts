import { organisationEndpoints as e } from "@/server/contracts/organisation-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { createMockFromUndefinedRequest } from "@/server/services/undefined-requests";

export const POST = defineRoute(e.createMockFromUndefined, ({ actor, namespace, params, body }) => createMockFromUndefinedRequest(actor, namespace, params.id, body));
