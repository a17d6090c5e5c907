import { mockEndpoints } from "@/server/contracts/mock-endpoints";
import { defineRoute } from "@/server/http/define-route";
import { listMocks } from "@/server/services/mock-management";
import { saveMock } from "@/server/services/mocks";

export const POST = defineRoute(mockEndpoints.save, ({ actor, namespace, body, query }) => saveMock(actor, namespace, body, query.intent));
export const GET = defineRoute(mockEndpoints.list, ({ namespace, query }) => listMocks(namespace, query));
