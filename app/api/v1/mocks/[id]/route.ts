// One mock by id; without a named namespace it is found across the caller's namespaces (mockScope).
import { mockEndpoints as e } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { deleteMock, patchMock } from "@/server/services/mock-management";
import { mockScope } from "@/server/services/mock-location";
import { getMock } from "@/server/services/mocks";

export const GET = defineRoute(e.get, async ({ actor, namespace, params }) => getMock(await mockScope(actor, namespace, params.id, e.get.permission), params.id));
export const PATCH = defineRoute(e.patch, async ({ actor, namespace, params, body }) => patchMock(actor, await mockScope(actor, namespace, params.id, e.patch.permission), params.id, body));
export const DELETE = defineRoute(e.remove, async ({ actor, namespace, params }) => deleteMock(actor, await mockScope(actor, namespace, params.id, e.remove.permission), params.id));
