import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { deleteMock, patchMock } from "@/server/services/mock-management";
import { getMock } from "@/server/services/mocks";

export const GET = defineRoute(mockEndpoints.get, ({ namespace, params }) => getMock(namespace, params.id));
export const PATCH = defineRoute(mockEndpoints.patch, ({ actor, namespace, params, body }) => patchMock(actor, namespace, params.id, body));
export const DELETE = defineRoute(mockEndpoints.remove, ({ actor, namespace, params }) => deleteMock(actor, namespace, params.id));
