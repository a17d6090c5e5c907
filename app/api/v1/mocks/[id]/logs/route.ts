// A mock's request log, found by id like GET /mocks/:id.
import { organisationEndpoints as e } from "@/server/contracts/organisation-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { mockScope } from "@/server/services/mock-location";
import { getMockLogs } from "@/server/services/request-logs";

export const GET = defineRoute(e.mockLogs, async ({ actor, namespace, params, query }) => getMockLogs(await mockScope(actor, namespace, params.id, e.mockLogs.permission), params.id, query.limit));
