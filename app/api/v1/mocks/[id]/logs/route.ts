import { organisationEndpoints as e } from "@/server/contracts/organisation-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { getMockLogs } from "@/server/services/request-logs";

export const GET = defineRoute(e.mockLogs, ({ namespace, params, query }) => getMockLogs(namespace, params.id, query.limit));
