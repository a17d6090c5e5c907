import { organisationEndpoints as e } from "@/server/contracts/organisation-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { clearUndefinedRequests } from "@/server/services/undefined-requests";

export const DELETE = defineRoute(e.deleteAllUndefined, ({ namespace }) => clearUndefinedRequests(namespace));
