import { organisationEndpoints as e } from "@/server/contracts/organisation-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { setUndefinedRequestIgnored } from "@/server/services/undefined-requests";

export const PATCH = defineRoute(e.ignoreUndefined, ({ namespace, params, body }) => setUndefinedRequestIgnored(namespace, params.id, body.ignored));
