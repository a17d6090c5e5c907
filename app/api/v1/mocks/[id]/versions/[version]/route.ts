// One version of a mock, found by id like GET /mocks/:id.
import { mockEndpoints as e } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { getVersion } from "@/server/services/mock-management";
import { mockScope } from "@/server/services/mock-location";

export const GET = defineRoute(e.version, async ({ actor, namespace, params }) => getVersion(await mockScope(actor, namespace, params.id, e.version.permission), params.id, params.version));
