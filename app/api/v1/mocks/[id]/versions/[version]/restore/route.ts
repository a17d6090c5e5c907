// Restore a version of a mock, found by id like GET /mocks/:id.
import { mockEndpoints as e } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { restoreVersion } from "@/server/services/mock-management";
import { mockScope } from "@/server/services/mock-location";

export const POST = defineRoute(e.restoreVersion, async ({ actor, namespace, params }) => restoreVersion(actor, await mockScope(actor, namespace, params.id, e.restoreVersion.permission), params.id, params.version));
