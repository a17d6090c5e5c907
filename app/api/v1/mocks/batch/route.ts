// A static segment: Next.js serves /api/v1/mocks/batch here, not as the mock id "batch".
import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { batchDeleteMocks, batchSaveMocks } from "@/server/services/mock-batch";

export const POST = defineRoute(mockEndpoints.batchSave, ({ actor, namespace, query, body }) => batchSaveMocks(actor, namespace, body, query.intent));
export const DELETE = defineRoute(mockEndpoints.batchDelete, ({ actor, namespace, body }) => batchDeleteMocks(actor, namespace, body.ids));
