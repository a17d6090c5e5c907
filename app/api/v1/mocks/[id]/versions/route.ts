// A mock's version history, found by id like GET /mocks/:id.
import { mockEndpoints as e } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { listVersions } from "@/server/services/mock-management";
import { mockScope } from "@/server/services/mock-location";

export const GET = defineRoute(e.versions, async ({ actor, namespace, params }) => listVersions(await mockScope(actor, namespace, params.id, e.versions.permission), params.id));
