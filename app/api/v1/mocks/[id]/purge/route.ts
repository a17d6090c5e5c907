// Permanent delete of one mock, found by id like GET /mocks/:id.
import { mockEndpoints as e } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { purgeMock } from "@/server/services/mock-management";
import { mockScope } from "@/server/services/mock-location";

export const DELETE = defineRoute(e.purge, async ({ actor, namespace, params }) => purgeMock(actor, await mockScope(actor, namespace, params.id, e.purge.permission), params.id));
